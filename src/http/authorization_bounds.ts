// What an authorization request (GET, HEAD or POST /auth) or a pushed one (POST /request) may hand the
// engine to store: at most AUTHORIZATION_BOUNDS.bytes of query or body in all, and each parameter
// a client writes freely (state, nonce, login_hint, …) at most AUTHORIZATION_BOUNDS.parameter
// characters. The engine keeps the parameters in the interaction (or the pushed request) for its
// whole life, so a longer one is refused here, 400 authorization_request_too_large naming it,
// before anything is stored (decision 62).
import type { Context, Middleware } from 'koa';
import { refuse } from '../base/errors.js';
import { authorizationClassOf } from './authorization_limits.js';
import { readRawBody } from './body.js';

const KiB = 1024;

export const AUTHORIZATION_BOUNDS = {
  /** The whole query string (GET) or form body (POST), as sent (percent-encoded). */
  bytes: 8 * KiB,
  /** One parameter's decoded value, but for those below. */
  parameter: 2 * KiB,
  /** JSON or JWT values whose size the protocol decides: bounded by the whole only. */
  wholeOnly: ['request', 'claims', 'authorization_details', 'id_token_hint', 'client_assertion'] as readonly string[],
};

const tooLarge = (what: string) => refuse('authorization_request_too_large', what);
const tooLargeInAll = () => tooLarge(`the authorization request's parameters are longer than ${AUTHORIZATION_BOUNDS.bytes} bytes in all`);

function checkParameters(text: string): void {
  if (Buffer.byteLength(text) > AUTHORIZATION_BOUNDS.bytes) throw tooLargeInAll();
  for (const [name, value] of new URLSearchParams(text)) {
    if (value.length > AUTHORIZATION_BOUNDS.parameter && !AUTHORIZATION_BOUNDS.wholeOnly.includes(name)) {
      throw tooLarge(`"${name.slice(0, 40)}" is longer than ${AUTHORIZATION_BOUNDS.parameter} characters`);
    }
  }
}

/**
 * The body, read here and handed to the engine as an already-read body, as engineBodyGuard
 * (which ran before) does for a chunked one; undefined when there is none.
 */
async function bodyOf(ctx: Context): Promise<Buffer | undefined> {
  const req = ctx.req as { body?: Buffer };
  if (req.body !== undefined) return req.body;
  if (!ctx.request.length) return undefined;
  if (ctx.request.length > AUTHORIZATION_BOUNDS.bytes) throw tooLargeInAll();
  req.body = await readRawBody(ctx, AUTHORIZATION_BOUNDS.bytes);
  return req.body;
}

export function authorizationBounds(): Middleware {
  const bounded: Middleware = async (ctx, next) => {
    checkParameters(ctx.querystring);
    const body = ctx.method === 'POST' ? await bodyOf(ctx) : undefined;
    if (body && body.length > AUTHORIZATION_BOUNDS.bytes) throw tooLargeInAll();
    // Another media type is the engine's to refuse, in its own words.
    if (body && ctx.is('application/x-www-form-urlencoded')) checkParameters(body.toString('utf8'));
    await next();
  };
  // Every other request passes without an async step of its own.
  return (ctx, next) => (authorizationClassOf(ctx.method, ctx.path) ? bounded(ctx, next) : next());
}
