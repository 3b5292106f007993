// The admin token as a router middleware, for admin routers not yet in the route table.
import type { Middleware } from 'koa';
import { adminToken } from './authenticators.js';

export function adminAuth(token: string | undefined): Middleware {
  const check = adminToken(token);
  return async (ctx, next) => {
    await check.authenticate(ctx);
    await next();
  };
}
