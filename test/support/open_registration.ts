// Open registration (RFC 7591) met from given client addresses: a registration as sent on the
// wire, its address given by X-Forwarded-For (the harness trusting one proxy), and the clean
// slate between tests: every client registered at run time deleted, the configured ones kept.
import type { Redis } from 'ioredis';
import { createClientRecords } from '../../src/infra/store/client_records.js';
import type { Json } from './json_api.js';
import type { Harness } from './signet_harness.js';

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
