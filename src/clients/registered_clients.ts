// Clients registered by RFC 7591 (and changed or deleted by RFC 7592) meet the same rules as
// those the admin API adds (decision 25): the engine validates them itself, then its adapter
// asks these checks before it saves one, so a broken rule is the standard
// invalid_client_metadata (or invalid_redirect_uri) answer. Deleting one ends what it held, as
// the admin API's deletion does. A client CLIENTS lists is the configuration's, whatever
// registration access token exists for its id (decision 23): 403, as the engine answers for
// its static clients.
import { errors } from 'oidc-provider';
import type { ClientRecord } from '../store/client_records.js';
import type { RemoveClient } from './client_removal.js';
import type { ClientRules, RunTimeClient } from './client_rules.js';

export type RegisteredClients = { check(record: ClientRecord): Promise<void>; remove: RemoveClient };

export function registeredClients(deps: { rules: ClientRules; remove: RemoveClient; isConfigured: (clientId: string) => boolean }): RegisteredClients {
  const notConfigured = (clientId: string, what: string) => {
    if (deps.isConfigured(clientId)) throw new errors.InvalidRequest(`client ${clientId} is listed in CLIENTS: it cannot ${what} its record`, 403);
  };
  return {
    async check(record) {
      notConfigured(record.client_id, 'update');
      const broken = await deps.rules(record as RunTimeClient);
      // The engine answers invalid_redirect_uri for a sentence about redirect_uris, else invalid_client_metadata.
      if (broken) throw new errors.InvalidClientMetadata(`${broken.field} ${broken.problem}`);
    },
    async remove(clientId) {
      notConfigured(clientId, 'delete');
      await deps.remove(clientId);
    },
  };
}
