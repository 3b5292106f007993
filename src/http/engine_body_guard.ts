// Guards the engine's endpoints (/token, /auth, /backchannel, introspection, revocation, …),
// whose bodies oidc-provider parses itself: a compressed or over-limit body is refused here in
// Signet's error shape (415, 413) instead of reaching the engine as garbage or a parse error.
import type { Middleware } from 'koa';
import { BODY_LIMITS, hasBody, readRawBody, refuseContentEncoding, refuseDeclaredLength } from './body.js';

export function engineBodyGuard(limit: number = BODY_LIMITS.engine.bytes): Middleware {
  const guarded: Middleware = async (ctx, next) => {
    refuseContentEncoding(ctx);
    refuseDeclaredLength(ctx, limit);
    // A chunked body declares no length: read it here under the limit and hand the bytes to
    // the engine, which parses an already-read body from req.body exactly as it parses a stream.
    if (ctx.request.length === undefined) {
      (ctx.req as { body?: Buffer }).body = await readRawBody(ctx, limit);
    }
    await next();
  };
  // Most engine requests (userinfo, discovery, JWKS) have no body: they pass without a step of their own.
  return (ctx, next) => (hasBody(ctx) ? guarded(ctx, next) : next());
}
