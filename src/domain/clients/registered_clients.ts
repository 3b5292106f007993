// Clients registered by RFC 7591 (and changed or deleted by RFC 7592) meet the same rules as
// those the admin API adds (decision 25): the engine validates them itself, then its adapter
// saves one through here, so a broken rule is the standard invalid_client_metadata (or
// invalid_redirect_uri) answer. A client CLIENTS lists is the configuration's, whatever
// registration access token exists for its id (decision 23): 403, as the engine answers for
// its static clients.
//
// Strangers may register (CLIENT_REGISTRATION=open), so what registration may hold is bounded
// (decisions 43, 72): each record's size (client_metadata.ts), the number of registered clients
// at once, in all and from one address or one network (past any of them registration is
// refused until a client goes), and their life until their first use: a client that earns no
// token within the set hours expires, with its registration access tokens and its places. Its
// first token (a login's, or its own by client credentials) keeps it until it is deleted.
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

export type RegistrationLimits = { maxClients: number; perAddress: number; perNetwork: number; unusedHours: number };

/** Where a registration comes from, as the bounds count it (src/http/client_address.ts). */
export type RegistrationOrigin = { address: string; network: string };

export function registeredClients(deps: {
  store: Store;
  records: ClientRecords;
  rules: ClientRules;
  remove: RemoveClient;
  isConfigured: (clientId: string) => boolean;
  limits: RegistrationLimits;
  /** The address and network of the registration being served; undefined outside a request (nothing then counts but the cap). */
  originOf: () => RegistrationOrigin | undefined;
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

  /** A new client takes a place in the cap, its address's and its network's, all or none (one script), and remembers where it came from. */
  const admit = async (clientId: string) => {
    const { maxClients, perAddress, perNetwork, unusedHours } = deps.limits;
    const origin = deps.originOf();
    const bounds = origin
      ? [
          { key: keys.registeredFromAddress(origin.address), max: perAddress },
          { key: keys.registeredFromNetwork(origin.network), max: perNetwork },
          { key: keys.registeredClients(), max: maxClients },
        ]
      : [{ key: keys.registeredClients(), max: maxClients }];
    const full = await store.addToIndexesWithin(bounds, clientId, unusedSeconds);
    // RFC 7591's shape for a refusal (decision 43): the server declines, the metadata is fine.
    const freed = `a place is freed when one of them is deleted (RFC 7592) or, if it completes no login within ${unusedHours} h, removed`;
    if (full === bounds[0]!.key && origin) {
      throw new errors.AccessDenied(
        `registration is closed to this address for now: Signet keeps at most ${perAddress} registered clients from one address; ${freed}`,
      );
    }
    if (full === bounds[1]?.key && origin) {
      throw new errors.AccessDenied(
        `registration is closed to this network (${origin.network}) for now: Signet keeps at most ${perNetwork} registered clients from one network; ${freed}`,
      );
    }
    if (full) throw new errors.AccessDenied(`registration is closed for now: Signet keeps at most ${maxClients} registered clients; ${freed}`);
    if (origin) await store.set(keys.registrationOrigin(clientId), JSON.stringify(origin), unusedSeconds);
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
      await admit(record.client_id);
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
      // Its places from its address and network are kept as long: its origin first, so a step cut
      // half way leaves a place that still expires, never one no deletion can find.
      // Each is kept only as read (compare and set): one deleted meanwhile is not brought back.
      const origin = await store.get(keys.registrationOrigin(clientId));
      if (origin && (await store.compareAndSet(keys.registrationOrigin(clientId), [origin], origin, 0)).swapped) {
        const { address, network } = JSON.parse(origin) as RegistrationOrigin;
        await store.addToIndex(keys.registeredFromAddress(address), clientId, 0);
        await store.addToIndex(keys.registeredFromNetwork(network), clientId, 0);
      }
      // Its registration access tokens live as long as it now; one gone meanwhile (an update
      // rotated it) leaves the index, and is not brought back.
      const tokens = await store.indexMembers(keys.registrationTokensOf(clientId));
      const values = tokens.length ? await store.getMany(tokens) : [];
      for (const [i, key] of tokens.entries()) {
        const value = values[i];
        if (value !== undefined && (await store.compareAndSet(key, [value], value, 0)).swapped) {
          await store.addToIndex(keys.registrationTokensOf(clientId), key, 0);
        } else await store.removeFromIndex(keys.registrationTokensOf(clientId), key);
      }
    },

    async remove(clientId) {
      notConfigured(clientId, 'delete');
      // The client's removal deletes its record, which frees its place among the registered (client_records.ts).
      await deps.remove(clientId);
    },
  };
}
