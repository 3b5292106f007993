// Failed client authentications at the engine's endpoints (/token, introspection, revocation,
// CIBA, PAR), counted per client and address from the engine's own answer. Over the limit the
// engine is not reached until the window passes; the stream the engine parses is never read.
import type { Middleware, ParameterizedContext } from 'koa';
import type { RateLimits } from '../infra/rate_limits/rate_limits.js';
import { clientAddress } from './client_address.js';

/** The client_id of an HTTP Basic header (RFC 6749 §2.3.1: form-encoded id and secret). */
function basicClientId(authorization: string): string | undefined {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')).slice(0, 200);
  } catch {
    return undefined;
  }
}

/**
 * Keyed on the Basic client_id and the address; a client authenticating in the body
 * (client_secret_post) is counted per address, since its id is in the body the engine reads.
 * Per client and address, so a stranger guessing a client's secret does not lock it out.
 */
function who(ctx: ParameterizedContext): string {
  return `${basicClientId(ctx.get('authorization')) ?? '-'}@${clientAddress(ctx)}`;
}

export function clientAuthLimits(limits: Pick<RateLimits, 'check' | 'count'>): Middleware {
  const counted: Middleware = async (ctx, next) => {
    const key = who(ctx);
    await limits.check('tokenFailuresPerClient', key);
    await next();
    if ((ctx.body as { error?: unknown } | undefined)?.error === 'invalid_client') await limits.count('tokenFailuresPerClient', key);
  };
  // Every POST that reaches the engine, not a list of paths: the engine's router also
  // answers "/token/" or "/TOKEN", and a spelling must not be a way around the count.
  return (ctx, next) => (ctx.method === 'POST' ? counted(ctx, next) : next());
}
