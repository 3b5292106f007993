// Security headers on every response. The CSP allows scripts and styles from Signet's own
// origin (plus a per-request nonce on pages, which the consent page's own scripts and styles
// carry), never inline code without it, images only from Signet itself (a client's logo too, which
// Signet fetches and serves: decision 81), and no framing at all.
import { randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';

const policy = (nonce?: string) =>
  [
    "default-src 'none'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

// Most answers are JSON or redirects, which run no script: they get the policy built once. A
// page asks for its nonce (pageNonce, src/http/pages.ts), and only then is one drawn and put in
// the policy, so the other requests spend no random bytes and build no string.
const WITHOUT_NONCE = policy();
const NONCE = Symbol('the page nonce');

/** The nonce of the page this request renders: drawn at the first ask, and put in its policy. */
export function pageNonce(ctx: Context): string {
  const state = ctx.state as { [NONCE]?: string };
  if (state[NONCE] === undefined) {
    state[NONCE] = randomBytes(16).toString('base64');
    ctx.set('Content-Security-Policy', policy(state[NONCE]));
  }
  return state[NONCE];
}

export function securityHeaders(): Middleware {
  return (ctx, next) => {
    ctx.set('Content-Security-Policy', WITHOUT_NONCE);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    return next();
  };
}
