// A Signet route as data: method, path, who may call it, the zod schemas of its path, query,
// body and answers, its body limit, rate limits and cache rule, and the handler. The router
// (mount_routes.ts), the input validation, the caller check and /openapi.json (openapi.ts)
// are all made from these declarations, so they cannot drift apart.
import type { Context } from 'koa';
import type { z } from 'zod';
import type { Reason } from '../base/reasons.js';
import type { LimitClass } from '../infra/rate_limits/rate_limits.js';
import type { Authenticator } from './authenticators.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A documented answer: JSON of `schema`, or no body when `schema` is absent (204, 202 empty). */
export type ResponseSpec = {
  description: string;
  schema?: z.ZodType;
  /** Headers the answer carries, documented (the handler sets them). */
  headers?: Record<string, string>;
};

/** A counter consumed before the handler runs; `key` gives who is counted; `when`, if given, which callers are. */
export type RateLimitSpec<C> = { limit: LimitClass; key: 'client_address' | ((caller: C, ctx: Context) => string); when?: (caller: C) => boolean };

/** What a handler sees: its caller and its inputs, already checked against the schemas. */
export type RouteInput<P, Q, B, C> = { ctx: Context; params: P; query: Q; body: B; caller: C };

/** What a handler returns: the status (the route's first documented success by default), body and headers. */
export type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };

export type Route<P = unknown, Q = unknown, B = unknown, C = unknown> = {
  method: Method;
  /** The path in OpenAPI's form: `/access-grants/{id}`. */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** The OpenAPI tag that groups this route with its feature's. */
  tag: string;
  /** Who may call: checked before the body is parsed or any counter moves. */
  auth: Authenticator<C>;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  /** A JSON body (or a form, for pages) read under the limits of `bodyLimit` (src/http/body.ts). */
  body?: z.ZodType<B>;
  /** The body limits of this route's class (default: 'api'). Routes without a body still bound one sent anyway. */
  bodyLimit?: 'api' | 'interaction' | 'admin' | 'form';
  rateLimits?: RateLimitSpec<C>[];
  /** `no-store` (the default: Signet's answers are about someone) or a public max-age. */
  cache?: 'no-store' | { publicMaxAgeSeconds: number };
  /** The answers this route gives when it succeeds. */
  responses: Record<number, ResponseSpec>;
  /** The refusals of this route's own logic; the common ones (body, query shape, caller, limits, outages) are added. */
  refusals?: Reason[];
  /** Not a JSON operation (an HTML form post, a page): kept out of /openapi.json. */
  undocumented?: boolean;
  handle(input: RouteInput<P, Q, B, C>): Promise<Reply>;
};

/** Declares a route; the types of the handler's inputs follow from the schemas and the authenticator. */
export function route<P = undefined, Q = undefined, B = undefined, C = undefined>(spec: Route<P, Q, B, C>): Route<P, Q, B, C> {
  return spec;
}

// Routes of any inputs, as the mounting and the document take them.
// biome-ignore lint/suspicious/noExplicitAny: the list holds routes of every input type.
export type AnyRoute = Route<any, any, any, any>;
