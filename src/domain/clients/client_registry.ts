// Who Signet's clients are, for every part that needs more than the engine does: their names
// (the pages, the access history, the texts owners sign), their webhooks and back-channel logout
// URIs, whether the operator configured them. Read from the engine's own client records
// (src/infra/store/client_records.ts), so a client added at run time is served exactly as one from
// CLIENTS, in every process, within a second (decision 22).

import type { ClientRecord, ClientRecords } from '../../infra/store/client_records.js';
import type { SignedTarget } from '../webhooks/webhook_queue.js';

/** What people read where a client's grant outlived the client. */
export const DELETED_CLIENT_NAME = 'a deleted service';

export type ClientRegistry = {
  find(clientId: string): Promise<ClientRecord | undefined>;
  list(): Promise<ClientRecord[]>;
  /** Listed in CLIENTS: the configuration decides it, not the admin API (decision 23). */
  isConfigured(clientId: string): boolean;
  /** The name people read: its client_name, its id when it has none, DELETED_CLIENT_NAME when it is gone. */
  nameOf(clientId: string): Promise<string>;
  /** Where the client's access-grant notifications go (its webhook_url and webhook_secret), if it set one. */
  webhookOf(clientId: string): Promise<SignedTarget | undefined>;
};

export function createClientRegistry(records: ClientRecords, configuredIds: Iterable<string>): ClientRegistry {
  const configured = new Set(configuredIds);
  const isConfigured = (clientId: string) => configured.has(clientId);
  return {
    find: records.find,
    list: records.list,
    isConfigured,
    async nameOf(clientId) {
      const client = await records.look(clientId);
      if (!client) return DELETED_CLIENT_NAME;
      return typeof client.client_name === 'string' && client.client_name ? client.client_name : clientId;
    },
    async webhookOf(clientId) {
      const client = await records.look(clientId);
      if (typeof client?.webhook_url !== 'string' || typeof client.webhook_secret !== 'string') return undefined;
      // The operator wrote CLIENTS' URLs: trusted, so they may point at an internal service. A
      // client added at run time is checked for a public address at each delivery, as owners' are.
      return { url: client.webhook_url, secret: client.webhook_secret, trusted: isConfigured(clientId) };
    },
  };
}
