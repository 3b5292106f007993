// Security headers on every response. The CSP allows scripts and styles from Signet's own
// origin (plus a per-request nonce), never inline code without it, and no framing at all.
import { randomBytes } from 'node:crypto';
import type { Middleware } from 'koa';

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    const nonce = randomBytes(16).toString('base64');
    ctx.state.cspNonce = nonce;
    ctx.set(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self'",
        "img-src 'self' data: https:",
        "connect-src 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    await next();
  };
}
