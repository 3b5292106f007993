// The owner's access history: every release of their data (and every refused attempt by a
// service holding one of their grants), who, when, what, through which door, by which grant,
// from which address. Recording never delays nor fails the release: it is sent without waiting
// for Redis, and a failure is only logged and counted.
import { randomBytes } from 'node:crypto';
import { afterCursor, decodeTimeCursor, encodeTimeCursor } from '../../http/time_cursor.js';
import type { IdentityKey } from '../../infra/chain/identity_key.js';
import { FIELDS_MARK, type HistoryLog } from './history_log.js';

/** Where the data left: the engine's ID token or userinfo, a resource read, a CIBA login. */
export const DOORS = ['id_token', 'userinfo', 'profile_resource', 'claim_resource', 'access_grant', 'ciba'] as const;
export type Door = (typeof DOORS)[number];

export type HistoryEntry = {
  id: string;
  at: string;
  client_id: string;
  client_name: string;
  /** The login grant or access grant the release was made under. */
  grant_id: string | null;
  door: Door;
  /** Profile fields released (names), and onchain claims released with their data (ids). */
  fields: string[];
  claims: string[];
  /** The caller's network address, as Signet saw it (behind trusted proxies: the client's). */
  client_address: string;
  outcome: 'released' | 'refused';
  /** Why a refused attempt was refused (the answer's reason). */
  reason?: string;
};

export type Release = Omit<HistoryEntry, 'id' | 'at' | 'outcome' | 'client_name'> & { outcome?: HistoryEntry['outcome']; reason?: string };

export type HistoryPage = { identity: IdentityKey; entries: HistoryEntry[]; next_cursor: string | null };

export type HistorySettings = { historyDays: number; historyEntries: number };

const DAY_MS = 86_400_000;

export function createAccessHistory(deps: {
  log: HistoryLog;
  settings: HistorySettings;
  /** The name people read (the client registry's; a deleted client's reads as such). */
  clientName: (clientId: string) => string | Promise<string>;
  now: () => number;
  /** Told of a record that could not be written (the release itself went ahead). */
  onLost?: (error: unknown) => void;
}) {
  const { log, settings, now } = deps;
  const keepFrom = () => now() - settings.historyDays * DAY_MS;

  const entryOf = (release: Release, id: string, at: string, clientName: string): HistoryEntry => ({
    id,
    at,
    client_id: release.client_id,
    client_name: clientName,
    grant_id: release.grant_id,
    door: release.door,
    fields: release.fields,
    claims: release.claims,
    client_address: release.client_address,
    outcome: release.outcome ?? 'released',
    ...(release.reason ? { reason: release.reason } : {}),
  });
  const bounds = () => ({ keepFromMs: keepFrom(), maxEntries: settings.historyEntries, ttlSeconds: settings.historyDays * 86_400 });

  const all = async (identity: IdentityKey): Promise<HistoryEntry[]> => (await log.read(identity, keepFrom())).map((json) => JSON.parse(json) as HistoryEntry);

  return {
    /**
     * Records one release; returns at once (the write is not awaited by the caller's answer).
     * `identity`: the address of a first-chain identity, the CAIP-10 id of another chain's.
     */
    record(identity: IdentityKey, release: Release): void {
      const atMs = now();
      const at = new Date(atMs).toISOString();
      const id = randomBytes(8).toString('base64url');
      // The client's name comes from the client registry (a cached read: the request that
      // releases has just read the client), and the write still goes unawaited (decision 2).
      Promise.resolve(deps.clientName(release.client_id))
        .then((clientName) => {
          const entry = entryOf(release, id, at, clientName);
          return log.append(
            identity,
            { json: JSON.stringify(entry), atMs, grantId: entry.outcome === 'released' ? (entry.grant_id ?? undefined) : undefined, at: entry.at },
            bounds(),
          );
        })
        .catch((error: unknown) => deps.onLost?.(error));
    },

    /**
     * Whether `recordAfterRead` can send the read and the entry in one round trip (Redis on one
     * server); otherwise the caller reads, then records.
     */
    readsWithRecord: log.appendAfterRead !== undefined,

    /**
     * Reads `readKey` (a JSON object: the profile) and records one release whose fields are the
     * `candidates` it holds, in one round trip; answers what the key holds. The entry is written
     * with the read, atomically: a release answered from this read is recorded, none is lost.
     * Only where `readsWithRecord`. A failed write is told (onLost) and the read still answered;
     * a failure of the round trip itself is the read's (the release cannot go ahead).
     */
    async recordAfterRead(
      identity: IdentityKey,
      readKey: string,
      release: Omit<Release, 'fields'>,
      candidates: readonly string[],
    ): Promise<string | undefined> {
      if (!log.appendAfterRead) throw new Error('recordAfterRead: this history log reads and records apart');
      const atMs = now();
      const at = new Date(atMs).toISOString();
      // The client's name: the registry's cached read (the request has just read the client).
      const clientName = await deps.clientName(release.client_id);
      const { fields: _marked, ...entry } = entryOf({ ...release, fields: [] }, randomBytes(8).toString('base64url'), at, clientName);
      // The fields go last, as a mark the step fills with the candidates the key holds.
      const json = `${JSON.stringify(entry).slice(0, -1)},${FIELDS_MARK}`;
      const { value, lost } = await log.appendAfterRead(
        identity,
        readKey,
        { json, atMs, grantId: entry.outcome === 'released' ? (entry.grant_id ?? undefined) : undefined, at },
        candidates,
        bounds(),
      );
      // As with record: a failed write is told, and the release goes ahead (decision 2).
      if (lost) deps.onLost?.(lost);
      return value;
    },

    /** One page, newest first, of one service's entries when `client_id` is given. */
    async page(identity: IdentityKey, query: { cursor?: string; limit: number; client_id?: string }): Promise<HistoryPage> {
      const cursor = decodeTimeCursor(query.cursor);
      const entries = (await all(identity))
        .filter((entry) => !query.client_id || entry.client_id === query.client_id)
        .filter(cursor ? afterCursor(cursor) : () => true);
      const items = entries.slice(0, query.limit);
      return { identity, entries: items, next_cursor: entries.length > query.limit ? encodeTimeCursor(items[items.length - 1]!) : null };
    },

    all,

    /** Grant id -> when it last released data. */
    lastReads: (identity: IdentityKey) => log.lastReads(identity),

    erase: (identity: IdentityKey) => log.erase(identity),
  };
}

export type AccessHistory = ReturnType<typeof createAccessHistory>;
