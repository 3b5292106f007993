// Guards the admin API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
// Without a configured token the admin API does not exist.
import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { notFound, SignetError } from '../errors.js';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function adminAuth(adminToken: string | undefined): Middleware {
  return async (ctx, next) => {
    if (!adminToken) throw notFound('the admin API is off: set ADMIN_TOKEN');
    const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
    if (!given || !sameSecret(given, adminToken)) throw new SignetError('invalid_token', 'the admin token is missing or wrong');
    await next();
  };
}
