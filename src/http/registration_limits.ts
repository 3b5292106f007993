// Dynamic client registrations (RFC 7591, POST /reg) counted per client address, before the
// engine reads the body: a stranger's flood is refused with 429 at the door (decision 43),
// whatever the registration's own answer would have been. And where a registration comes from,
// for the places its client then holds while it lives (decision 72).
import type { Context, Middleware } from 'koa';
import type { RateLimits } from '../infra/rate_limits/rate_limits.js';
import { clientAddress, clientNetwork } from './client_address.js';
import { enginePathPattern } from './engine_path.js';

// The engine's router also answers "/reg/" and "/REG": a spelling must not be a way around the count.
const REGISTRATION = enginePathPattern('/reg');

export function registrationLimits(limits: Pick<RateLimits, 'consume'>): Middleware {
  const counted: Middleware = async (ctx, next) => {
    await limits.consume('registrationsPerAddress', clientAddress(ctx));
    await next();
  };
  // Every other request passes without an async step of its own.
  return (ctx, next) => (ctx.method === 'POST' && REGISTRATION.test(ctx.path) ? counted(ctx, next) : next());
}

/**
 * Where a registration comes from, for the bounds on the clients one address and one network
 * keep (decision 72): the address as the rate limits count it, and its network.
 */
export function registrationOrigin(ctx: Context): { address: string; network: string } {
  const address = clientAddress(ctx);
  return { address, network: clientNetwork(address) };
}
