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
