// Open registration (RFC 7591) met from given client addresses: a registration as sent on the
// wire, its address given by X-Forwarded-For (the harness trusting one proxy), and the clean
// slate between tests: every client registered at run time deleted, the configured ones kept.
import { Redis } from 'ioredis';
import type { RateLimitSettings } from '../../src/config/config.js';
import { createClientRecords } from '../../src/infra/store/client_records.js';
import type { Json } from './json_api.js';
import { type Harness, startSignet, WEBSITE } from './signet_harness.js';

/**
 * Signet with open registration and the configured website, on two processes behind one trusted
 * proxy (X-Forwarded-For gives the client address), with these bounds; and a Redis client on its store.
 */
export async function startOpenRegistration(options: {
  limits: { maxClients: number; perAddress: number; perNetwork: number; unusedHours: number };
  registrationsPerAddress: RateLimitSettings['registrationsPerAddress'];
  adminToken: string;
}): Promise<{ h: Harness; redis: Redis }> {
  const h = await startSignet({
    clients: [WEBSITE],
    peers: 1,
    trustProxy: 1,
    rateLimits: { registrationsPerAddress: options.registrationsPerAddress },
    configure: () => ({ clientRegistration: 'open', clientRegistrationLimits: options.limits, adminToken: options.adminToken }),
  });
  return { h, redis: new Redis(h.redis.url) };
}

/** A registration of `body` from client address `from`, to `base` (the first process or a peer): the status, the JSON and Retry-After. */
export async function registerFrom(base: string, body: unknown, from: string) {
  const response = await fetch(`${base}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json, retryAfter: response.headers.get('retry-after') };
}

/** Deletes every client registered at run time as the store deletes one (its places and token with it); the configured clients stay. */
export async function deleteRegisteredClients(h: Harness, redis: Redis): Promise<void> {
  const configured = new Set(h.config.clients.map((client) => `signet:client:${client.client_id}`));
  for (const key of await redis.keys('signet:client:*')) {
    if (!configured.has(key)) await createClientRecords(h.store).delete(key.slice('signet:client:'.length));
  }
}

/** What a service that only uses its own client credentials registers (no redirect URI). */
export const SERVICE_METADATA = { client_name: 'Service', grant_types: ['client_credentials'], response_types: [], redirect_uris: [] };

/** A client credentials grant by a registered service, authenticated with its secret: the token endpoint's answer. */
export function serviceToken(issuer: string, service: Json): Promise<Response> {
  return fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${service.client_id}:${service.client_secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials&scope=ssf',
  });
}
