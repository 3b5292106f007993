// Clients registered by RFC 7591 (and changed or deleted by RFC 7592) meet the same rules as
// those the admin API adds (decision 25): the engine validates them itself, then its adapter
// saves one through here, so a broken rule is the standard invalid_client_metadata (or
// invalid_redirect_uri) answer. A client CLIENTS lists is the configuration's, whatever
// registration access token exists for its id (decision 23): 403, as the engine answers for
// its static clients.
//
// Strangers may register (CLIENT_REGISTRATION=open), so what registration may hold is bounded
// (decision 43): each record's size (client_metadata.ts), the number of registered clients at
// once (a cap, past which registration is refused), and their life until their first use: a
// client that earns no token within the set hours expires, with its registration access
// tokens. Its first token (a login's, or its own by client credentials) keeps it until it is deleted.
import { errors } from 'oidc-provider';
import { clientSizeProblem } from '../../config/client_metadata.js';
import type { ClientRecord, ClientRecords } from '../../infra/store/client_records.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { RemoveClient } from './client_removal.js';
import type { ClientRules, RunTimeClient } from './client_rules.js';

/** A registered client's mark, while it has completed no login: its record expires with it. */
const UNUSED = 'signet_unused';

export type RegisteredClients = {
  /** Checks a registration or an RFC 7592 update and saves it (a new one within the cap, expiring unused). */
  save(record: ClientRecord): Promise<void>;
  /** How long a new registration access token of the client lives: while its client is unused, as long as it; else undefined (until removed). */
  tokenLifeOf(clientId: string): Promise<number | undefined>;
  /** The client earned a token: a registered one unused until now is kept until it is deleted. */
  keep(clientId: string): Promise<void>;
  remove: RemoveClient;
};

export type RegistrationLimits = { maxClients: number; unusedHours: number };

export function registeredClients(deps: {
  store: Store;
  records: ClientRecords;
  rules: ClientRules;
  remove: RemoveClient;
  isConfigured: (clientId: string) => boolean;
  limits: RegistrationLimits;
}): RegisteredClients {
  const { store, records } = deps;
  const unusedSeconds = Math.max(1, Math.round(deps.limits.unusedHours * 3600));
  const notConfigured = (clientId: string, what: string) => {
    if (deps.isConfigured(clientId)) throw new errors.InvalidRequest(`client ${clientId} is listed in CLIENTS: it cannot ${what} its record`, 403);
  };
  /** The seconds an unused client's record has left (at least one; a record without a TTL, never meant to be, gets a whole life). */
  const lifeLeft = async (clientId: string) => {
    const left = await store.ttl(keys.client(clientId));
    return left === undefined || !Number.isFinite(left) ? unusedSeconds : Math.max(1, left);
  };

  return {
    async save(record) {
      notConfigured(record.client_id, 'update');
      const { [UNUSED]: _mark, ...metadata } = record;
      const tooLarge = clientSizeProblem(metadata);
      if (tooLarge) throw new errors.InvalidClientMetadata(`${tooLarge.field} ${tooLarge.problem}`);
      const broken = await deps.rules(metadata as RunTimeClient);
      // The engine answers invalid_redirect_uri for a sentence about redirect_uris, else invalid_client_metadata.
      if (broken) throw new errors.InvalidClientMetadata(`${broken.field} ${broken.problem}`);
      const current = await records.find(record.client_id);
      if (current && !current[UNUSED]) return records.save(metadata as ClientRecord);
      // An update of a client still unused keeps its remaining life: updating is no way to live on.
      if (current) return records.save({ ...metadata, [UNUSED]: true } as ClientRecord, await lifeLeft(record.client_id));
      if (!(await store.addToIndexWithin(keys.registeredClients(), record.client_id, unusedSeconds, deps.limits.maxClients))) {
        throw new errors.AccessDenied(
          `registration is closed for now: Signet keeps at most ${deps.limits.maxClients} registered clients, and a client that completes no login within ${deps.limits.unusedHours} h is removed`,
        );
      }
      await records.save({ ...metadata, [UNUSED]: true } as ClientRecord, unusedSeconds);
    },

    async tokenLifeOf(clientId) {
      const record = await records.find(clientId);
      return record?.[UNUSED] ? lifeLeft(clientId) : undefined;
    },

    async keep(clientId) {
      // The engine read the client for this request: the records' cache answers without Redis.
      if (!(await records.find(clientId))?.[UNUSED]) return;
      // Read again, and replaced only as read: a client deleted or expired meanwhile is not brought back.
      const raw = await store.get(keys.client(clientId));
      const record = raw ? (JSON.parse(raw) as ClientRecord) : undefined;
      if (!raw || !record?.[UNUSED]) return;
      const { [UNUSED]: _mark, ...kept } = record;
      if (!(await records.replaceIf(clientId, raw, kept as ClientRecord))) return;
      await store.addToIndex(keys.registeredClients(), clientId, 0);
      // Its registration access tokens live as long as it now; one gone meanwhile leaves the index.
      const tokens = await store.indexMembers(keys.registrationTokensOf(clientId));
      const values = tokens.length ? await store.getMany(tokens) : [];
      for (const [i, key] of tokens.entries()) {
        if (values[i] === undefined) await store.removeFromIndex(keys.registrationTokensOf(clientId), key);
        else {
          await store.set(key, values[i]!);
          await store.addToIndex(keys.registrationTokensOf(clientId), key, 0);
        }
      }
    },

    async remove(clientId) {
      notConfigured(clientId, 'delete');
      // The client's removal deletes its record, which frees its place among the registered (client_records.ts).
      await deps.remove(clientId);
    },
  };
}
