// What a request presents with an access token, read from its headers: the Authorization scheme
// (RFC 6750 Bearer or RFC 9449 DPoP), the token, the DPoP proof, and the request as the client
// addressed it. Behind the trusted proxy Koa's protocol and host are the client's (TRUST_PROXY),
// so `htu` is compared with the URL the client called.
import type { Context } from 'koa';
import { refuse } from '../../base/errors.js';
import type { DpopPresentation } from './dpop_proof.js';

// RFC 6750 §2.1 b64token; the scheme is case-insensitive.
const AUTHORIZATION = /^(Bearer|DPoP) ([A-Za-z0-9\-._~+/]+=*)$/i;

/** The presentation in the Authorization header, or undefined without one; a malformed header is refused. */
export function presentationOf(ctx: Context): DpopPresentation | undefined {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = AUTHORIZATION.exec(header);
  if (!match) throw refuse('authorization_malformed', 'the Authorization header must be "Bearer <access token>" or "DPoP <access token>"');
  const proof = ctx.get('dpop') || undefined;
  return {
    scheme: match[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    token: match[2]!,
    proof,
    method: ctx.method,
    url: `${ctx.protocol}://${ctx.host}${ctx.originalUrl.split(/[?#]/)[0]}`,
  };
}
