// Which IP addresses a URL given at run time may reach (a webhook, an SSF endpoint, a client's
// jwks_uri…): public unicast only. Loopback, private, link-local, unique-local, CGNAT and the
// cloud metadata endpoints are refused (the private ranges can be allowed for development); an
// IPv4-mapped IPv6 address counts as its IPv4.
import ipaddr from 'ipaddr.js';

/** Instance metadata services (AWS, GCP, Azure… on IPv4; AWS on IPv6): refused in every mode. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254']);

/** Ranges a development machine may reach with WEBHOOKS_ALLOW_PRIVATE (its own receivers live there). */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'linkLocal', 'uniqueLocal', 'carrierGradeNat']);

/** Undefined when `address` may be called, else the name of the range that refuses it. */
export function refusedRange(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA.has(parsed.toString())) return 'cloud metadata';
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (allowPrivate && PRIVATE_RANGES.has(range)) return undefined;
  return range;
}
