// The clients' records: the engine's Client model (its dynamic clients) as Signet keeps it, one
// key per client and an index of them all. The engine reads a client at every request that
// names one; a short cache spares those reads, and since a change made through another process
// must be in force everywhere within a second, nothing is cached longer than that (and a client
// not found is never cached: one created elsewhere works here at once).
import { LRUCache } from 'lru-cache';
import { keys } from './keys.js';
import type { Store } from './store.js';

/** A client's metadata as stored: the engine's names (snake_case), Signet's own among them. */
export type ClientRecord = { client_id: string; [field: string]: unknown };

export type ClientRecords = {
  /** The client's record, a copy of its own for a caller that changes it (the admin API). */
  find(clientId: string): Promise<ClientRecord | undefined>;
  /**
   * The client's record for readers that only read it (the engine, which builds its client from
   * it; the history's names; webhooks): one frozen copy they share, parsed once per read from Redis.
   */
  look(clientId: string): Promise<Readonly<ClientRecord> | undefined>;
  /** Every client, in no set order. */
  list(): Promise<ClientRecord[]>;
  /** Up to `limit` clients by client_id, after `after` when given; `next`: the id the next page starts after, when others follow. Reads only the page's records. */
  page(after: string | undefined, limit: number): Promise<{ records: ClientRecord[]; next?: string }>;
  /** Saves a client's record, for `ttlSeconds` when given (a registered client not yet used), else until deleted. */
  save(record: ClientRecord, ttlSeconds?: number): Promise<void>;
  /** Saves a client whose id is new; false (nothing written) when a client already has it. */
  create(record: ClientRecord): Promise<boolean>;
  /** Saves `record` until deleted, only if the stored record is still `expectedRaw`; false (nothing written) otherwise. */
  replaceIf(clientId: string, expectedRaw: string, record: ClientRecord): Promise<boolean>;
  /** The client's record, its registration access tokens (RFC 7592) and its place among the registered clients. */
  delete(clientId: string): Promise<void>;
};

/** The longest a process serves a client's record without reading it again (decision 22). */
export const CLIENT_CACHE_MS = 1000;
const CACHED_CLIENTS = 1000;

export function createClientRecords(store: Store, options: { cacheMs?: number } = {}): ClientRecords {
  // One frozen record per client, which `look` shares (the engine reads the client at every
  // request that names one) and of which `find` gives each caller a copy of its own.
  const cache = new LRUCache<string, Readonly<ClientRecord>>({ max: CACHED_CLIENTS, ttl: options.cacheMs ?? CLIENT_CACHE_MS });
  const parse = (raw: string | undefined) => (raw ? (JSON.parse(raw) as ClientRecord) : undefined);
  const read = async (clientId: string) => {
    const record = parse(await store.get(keys.client(clientId)));
    if (!record) return undefined;
    cache.set(clientId, Object.freeze(record));
    return record;
  };
  // Read at every request that names a client: one promise when it is held, no more.
  const look = (clientId: string) => {
    const held = cache.get(clientId);
    return held ? Promise.resolve(held) : read(clientId);
  };

  return {
    async find(clientId) {
      const record = await look(clientId);
      return record && structuredClone(record);
    },
    look,
    async list() {
      const ids = await store.indexMembers(keys.clients());
      const raws = ids.length ? await store.getMany(ids.map((id) => keys.client(id))) : [];
      // An index entry whose record is gone (a deletion cut half way) is skipped.
      return raws.map(parse).filter((record): record is ClientRecord => record !== undefined);
    },
    async page(after, limit) {
      const ids = (await store.indexMembers(keys.clients())).filter((id) => after === undefined || id > after).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const chosen = ids.slice(0, limit);
      const raws = chosen.length ? await store.getMany(chosen.map((id) => keys.client(id))) : [];
      const records = raws.map(parse).filter((record): record is ClientRecord => record !== undefined);
      return ids.length > chosen.length ? { records, next: chosen.at(-1)! } : { records };
    },
    async save(record, ttlSeconds) {
      const raw = JSON.stringify(record);
      // The index first: an entry without its record is skipped by list, never the other way.
      await store.addToIndex(keys.clients(), record.client_id, ttlSeconds ?? 0);
      await store.set(keys.client(record.client_id), raw, ttlSeconds);
      cache.delete(record.client_id);
    },
    async create(record) {
      // Of two creations of one id at once, one writes.
      if (!(await store.setIfAbsent(keys.client(record.client_id), JSON.stringify(record)))) return false;
      await store.addToIndex(keys.clients(), record.client_id, 0);
      return true;
    },
    async replaceIf(clientId, expectedRaw, record) {
      const { swapped } = await store.compareAndSet(keys.client(clientId), [expectedRaw], JSON.stringify(record), 0);
      if (swapped) await store.addToIndex(keys.clients(), clientId, 0);
      cache.delete(clientId);
      return swapped;
    },
    async delete(clientId) {
      cache.delete(clientId);
      const tokens = await store.indexMembers(keys.registrationTokensOf(clientId));
      await store.delete(keys.client(clientId), ...tokens, keys.registrationTokensOf(clientId));
      await store.removeFromIndex(keys.clients(), clientId);
      // A registered client's places are free again, however it was deleted (RFC 7592 or the admin
      // API): the cap's, and those of the address and network it was registered from.
      await store.removeFromIndex(keys.registeredClients(), clientId);
      const origin = await store.get(keys.registrationOrigin(clientId));
      if (origin) {
        const { address, network } = JSON.parse(origin) as { address: string; network: string };
        await store.removeFromIndex(keys.registeredFromAddress(address), clientId);
        await store.removeFromIndex(keys.registeredFromNetwork(network), clientId);
        await store.delete(keys.registrationOrigin(clientId));
      }
      cache.delete(clientId);
    },
  };
}
