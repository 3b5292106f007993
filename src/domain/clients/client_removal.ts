// Deleting a client (the admin API, RFC 7592) ends everything it held (decision 24): its login
// grants with every token under them, so a refresh, userinfo or a resource read with its tokens
// fails at once; its access grants as a service; its API keys, SSF streams and registration
// access tokens; and its record, with its webhook. Each step can run again: a deletion cut half
// way is finished by the next one.
import { setTimeout as sleep } from 'node:timers/promises';
import { CLIENT_CACHE_MS } from '../../infra/store/client_records.js';

export type ClientRemovalDeps = {
  /** The ids of the client's login grants (from its consent receipts), and their index's end. */
  loginGrantIdsOf(clientId: string): Promise<string[]>;
  forgetLoginGrantsOf(clientId: string): Promise<void>;
  /** The engine's records of one login grant, tokens included. */
  revokeLoginGrant(grantId: string): Promise<void>;
  /** The access grants the client holds as a service: active ones revoked, pending ones denied. */
  endAccessGrantsOf(service: string): Promise<void>;
  removeApiKeysOf(service: string): Promise<void>;
  removeSsfStreamsOf(clientId: string): Promise<void>;
  /** The client's record and registration access tokens (src/infra/store/client_records.ts). */
  deleteRecord(clientId: string): Promise<void>;
  /** How long other processes may still serve the deleted record from their cache (default CLIENT_CACHE_MS). */
  settleMs?: number;
};

export type RemoveClient = (clientId: string) => Promise<void>;

export function createClientRemoval(deps: ClientRemovalDeps): RemoveClient {
  const endLogins = async (clientId: string) => {
    await Promise.all((await deps.loginGrantIdsOf(clientId)).map((grantId) => deps.revokeLoginGrant(grantId)));
  };
  return async (clientId) => {
    // Its streams first: a deleted client is told nothing of the grants that end with it.
    await deps.removeSsfStreamsOf(clientId);
    await endLogins(clientId);
    await deps.endAccessGrantsOf(clientId);
    await deps.removeApiKeysOf(clientId);
    // The record last, so that a deletion cut half way can be asked again and finish.
    await deps.deleteRecord(clientId);
    // A login that finished meanwhile, here or in a process that still served the record from
    // its cache, ends too: after the cache's life, no process issues tokens to the client.
    await sleep(deps.settleMs ?? CLIENT_CACHE_MS);
    await endLogins(clientId);
    await deps.forgetLoginGrantsOf(clientId);
  };
}
