// Whether a request that changes something comes from the issuer's own pages, told by the
// headers a page cannot set for itself: `Origin`, which browsers send with every POST, and
// `Sec-Fetch-Site`. Signet's pages send `Referrer-Policy: no-referrer`, under which a browser
// posts their own forms with `Origin: null`: then `Sec-Fetch-Site` decides (`same-origin` for
// the page's own form, `cross-site` or `same-site` for another's, a sandboxed frame's too). A
// sibling subdomain is another origin (SameSite cookies still reach it: it is the same site). A
// client that sends neither header is no browser page; what guards a session then is its form
// token (src/domain/owner_sessions/form_tokens.ts).
import type { Context } from 'koa';
import { refuse } from '../base/errors.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A method that may change something (every one but GET, HEAD and OPTIONS). */
export const changesState = (ctx: Context): boolean => !READS.has(ctx.method);

/** Refuses (403 cross_origin_request) a state-changing request sent from a page of another origin than `issuerOrigin`. */
export function assertSameOrigin(ctx: Context, issuerOrigin: string): void {
  if (!changesState(ctx)) return;
  const origin = ctx.get('origin');
  const site = ctx.get('sec-fetch-site');
  const foreign = origin && origin !== 'null' ? origin !== issuerOrigin : site !== '' && site !== 'same-origin';
  if (foreign) throw refuse('cross_origin_request', `this request was sent from a page of another origin; only ${issuerOrigin}'s own pages may send it`);
}
