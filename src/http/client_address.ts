// The address a request comes from, as rate limits count it: ctx.ip (which honours only the
// X-Forwarded-For entries TRUST_PROXY allows), IPv4-mapped IPv6 folded to IPv4, and IPv6 cut
// to its /64, since one subscriber routinely holds a whole /64.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Context } from 'koa';

export function clientAddress(ctx: Context): string {
  const raw = ctx.ip;
  // The common cases, a plain IPv4 address (node's check takes none with leading zeros) and one
  // mapped into IPv6 as a dual-stack socket reports it: without parsing.
  if (isIPv4(raw)) return raw;
  if (raw.slice(0, 7).toLowerCase() === '::ffff:' && isIPv4(raw.slice(7))) return raw.slice(7);
  if (!ipaddr.isValid(raw)) return raw || 'unknown';
  const parsed = ipaddr.process(raw);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':');
  return `${prefix}::/64`;
}

/**
 * The network an address (as clientAddress gives it) belongs to, for the bounds one network
 * shares: an IPv4 /24, an IPv6 /48 (a site's usual allocation; the address already is a /64).
 * What is no address at all is its own network.
 */
export function clientNetwork(address: string): string {
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (address.endsWith('::/64')) return `${address.split(':').slice(0, 3).join(':')}::/48`;
  return address;
}
