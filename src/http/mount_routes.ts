// Builds the Koa router from the route table. Every route runs the same steps, in this order:
// no-store first (so refusals are never cached; a route's public max-age replaces it on success), the bounded body read, the query's shape
// (each parameter once), the caller check, the rate limits, the path, query and body checks,
// then the handler. Each step refuses with a stable reason, and nothing the handler does
// happens before all of them passed.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { refuse, SignetError } from '../base/errors.js';
import type { Reason } from '../base/reasons.js';
import type { RateLimits } from '../infra/rate_limits/rate_limits.js';
import { TOKEN_KINDS, tokenChallenge } from './authenticators.js';
import { BODY_LIMITS, formBody, jsonBody } from './body.js';
import { clientAddress } from './client_address.js';
import type { AnyRoute } from './route.js';

/** `/access-grants/{id}` → `/access-grants/:id`. */
export const koaPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** The first documented status: what a handler's reply gets when it names none. */
export const defaultStatus = (route: AnyRoute) => Number(Object.keys(route.responses)[0]);

function checked<T>(schema: z.ZodType<T> | undefined, value: unknown, reason: Reason, where: string): T {
  if (!schema) return undefined as T;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.');
  throw refuse(reason, field ? `"${field}"${where} ${issue.message}` : issue.message);
}

/** A parameter's name as a refusal shows it: bounded, since the query is the caller's text. */
const shown = (name: string) => (name.length > 64 ? `${name.slice(0, 64)}…` : name);

/**
 * Every query parameter once, in its plain form: a name sent twice, or a list form (`name[]`,
 * `name[key]`), is refused on every route, one with a query schema or not. A schema reads one
 * value per name and drops names it does not know, so either would otherwise be answered as if
 * it had not been sent. The raw query string is read, not Koa's parsed query, which stops at
 * 1,000 parameters.
 */
function assertEachParameterOnce(querystring: string): void {
  if (!querystring) return;
  const seen = new Set<string>();
  for (const name of new URLSearchParams(querystring).keys()) {
    if (name.includes('[') || name.includes(']')) {
      throw refuse('query_parameter_repeated', `the query parameter "${shown(name)}" is in a list form: send each parameter once, by its plain name`);
    }
    if (seen.has(name)) throw refuse('query_parameter_repeated', `the query parameter "${shown(name)}" appears more than once: send it once`);
    seen.add(name);
  }
}

function bodyReader(route: AnyRoute): Middleware {
  const limit = route.bodyLimit ?? 'api';
  return limit === 'form' ? formBody(BODY_LIMITS.form) : jsonBody(BODY_LIMITS[limit]);
}

function handlerOf(route: AnyRoute, limits: Pick<RateLimits, 'consumeAll'>): Middleware {
  const cache = route.cache ?? 'no-store';
  const cacheControl = cache === 'no-store' ? 'no-store' : `public, max-age=${cache.publicMaxAgeSeconds}`;
  const read = bodyReader(route);
  const run = async (ctx: Context) => {
    assertEachParameterOnce(ctx.querystring);
    const caller = await route.auth.authenticate(ctx);
    // Every counter of the route in one go (one Redis round trip on a single server).
    const counts = (route.rateLimits ?? [])
      .filter(({ when }) => when?.(caller) ?? true)
      .map(({ limit, key }) => [limit, key === 'client_address' ? clientAddress(ctx) : key(caller, ctx)] as const);
    if (counts.length) await limits.consumeAll(counts);
    const params = checked(route.params, ctx.params, 'invalid_path', ' in the path');
    const query = checked(route.query, ctx.query, 'invalid_query', ' in the query');
    // No body reads as {}; a JSON null is a body, and no object.
    const body = checked(route.body, ctx.request.body === undefined ? {} : ctx.request.body, 'invalid_body', '');
    const reply = await route.handle({ ctx, params, query, body, caller });
    // A route's public max-age is for its successes only: every refusal stays no-store.
    if (cacheControl !== 'no-store') ctx.set('Cache-Control', cacheControl);
    if (reply.headers) for (const [name, value] of Object.entries(reply.headers)) ctx.set(name, value);
    // A handler that rendered a page or redirected has set the answer itself.
    if (reply.status === undefined && reply.body === undefined) return;
    ctx.status = reply.status ?? defaultStatus(route);
    ctx.body = reply.body ?? null;
  };
  const takesToken = TOKEN_KINDS.has(route.auth.kind);
  return async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!takesToken) return read(ctx, () => run(ctx));
    try {
      await read(ctx, () => run(ctx));
    } catch (error) {
      challengeRefusedToken(ctx, error);
      throw error;
    }
  };
}

/**
 * A route that takes an access token answers every refusal of it (`invalid_token`: unknown,
 * expired, revoked, used) with its WWW-Authenticate challenge (RFC 6750 §3.1), unless the
 * refusal carries a more precise one of its own (DPoP's, the SSF scope's).
 */
function challengeRefusedToken(ctx: Context, error: unknown): void {
  if (!(error instanceof SignetError) || error.code !== 'invalid_token') return;
  if (error.headers?.['WWW-Authenticate'] || ctx.response.get('WWW-Authenticate')) return;
  ctx.set('WWW-Authenticate', tokenChallenge(ctx));
}

/** One router for the whole table; `allowedMethods` answers 405 for a known path. */
export function mountRoutes(routes: readonly AnyRoute[], limits: Pick<RateLimits, 'consumeAll'>): Router {
  const router = new Router();
  for (const route of routes) router[route.method](koaPath(route.path), handlerOf(route, limits));
  return router;
}

/** A path's first segment as the router compares it (case-insensitively): `/account/x` → `account`. */
const firstSegment = (path: string) => (path.split('/')[1] ?? '').toLowerCase();

/**
 * The route table as one middleware (its routes, then 405 for a known path), consulted only for
 * paths whose first segment one of its routes starts with: the engine's endpoints (userinfo,
 * token, …), which websites call at machine speed, skip matching every route. With a route that
 * starts with a parameter, every path is consulted.
 */
export function routeTable(routes: readonly AnyRoute[], limits: Pick<RateLimits, 'consumeAll'>): Middleware {
  const router = mountRoutes(routes, limits);
  // The router's own context type adds what it sets on the way in (params, router).
  const [match, methods] = [router.routes() as unknown as Middleware, router.allowedMethods() as unknown as Middleware];
  const starts = new Set(routes.map((route) => firstSegment(koaPath(route.path))));
  const everyPath = [...starts].some((start) => start.startsWith(':'));
  const table: Middleware = (ctx, next) => (everyPath || starts.has(firstSegment(ctx.path)) ? match(ctx, () => methods(ctx, next)) : next());
  // The router stays reachable, as on the router's own middleware (the route coverage test walks it).
  return Object.assign(table, { router });
}
