// Authorization requests (GET, HEAD and POST /auth) and pushed authorization requests (POST /request),
// counted per client address before the engine reads them: each may leave an interaction or a
// pushed request in Redis, so a stranger's flood is refused with 429 at the door (decision 62),
// whatever the engine's own answer would have been. The resume route (/auth/<uid>) is not counted:
// it continues a login the count already let in.
import type { Middleware } from 'koa';
import type { LimitClass, RateLimits } from '../infra/rate_limits/rate_limits.js';
import { clientAddress } from './client_address.js';
import { enginePathPattern } from './engine_path.js';

// The engine's router also answers "/auth/" and "/AUTH": a spelling must not be a way around the count.
const AUTHORIZATION = enginePathPattern('/auth');
const PUSHED = enginePathPattern('/request');

/** The class a request is counted in, or undefined for every other request. */
export function authorizationClassOf(method: string, path: string): LimitClass | undefined {
  // The engine's router answers HEAD with its GET route: it starts a login too.
  if ((method === 'GET' || method === 'HEAD' || method === 'POST') && AUTHORIZATION.test(path)) return 'authorizationsPerAddress';
  if (method === 'POST' && PUSHED.test(path)) return 'pushedRequestsPerAddress';
  return undefined;
}

export function authorizationLimits(limits: Pick<RateLimits, 'consume'>): Middleware {
  // Every other request passes without an async step of its own.
  return (ctx, next) => {
    const limit = authorizationClassOf(ctx.method, ctx.path);
    return limit ? limits.consume(limit, clientAddress(ctx)).then(() => next()) : next();
  };
}
