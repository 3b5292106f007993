// The owner's access history: every release of their data (and every refused attempt by a
// service holding one of their grants), who, when, what, through which door, by which grant,
// from which address. Recording never delays nor fails the release: it is written after the
// answer, with the other releases of the same few milliseconds, and a failure is only logged.
import { randomBytes } from 'node:crypto';
import { afterCursor, decodeTimeCursor, encodeTimeCursor } from '../../http/time_cursor.js';
import type { IdentityKey } from '../../infra/chain/identity_key.js';
import type { HistoryLog } from './history_log.js';

/** Where the data left: the engine's ID token or userinfo, a resource read, a CIBA login, a credential issued to the owner's wallet. */
export const DOORS = ['id_token', 'userinfo', 'profile_resource', 'claim_resource', 'access_grant', 'ciba', 'credential'] as const;
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
  /** Claims released with data another Information Provider holds: the provider's name, by claim id. */
  providers?: Record<string, string>;
};

export type Release = Omit<HistoryEntry, 'id' | 'at' | 'outcome' | 'client_name'> & { outcome?: HistoryEntry['outcome']; reason?: string };

export type HistoryPage = { identity: IdentityKey; entries: HistoryEntry[]; next_cursor: string | null };

export type HistorySettings = { historyDays: number; historyEntries: number };

const DAY_MS = 86_400_000;

// Entry ids (8 random bytes) come from a pool refilled 4 KiB at a time: one draw from the system's
// generator per 512 entries, where a draw per entry cost more than the rest of its bookkeeping.
const ID_BYTES = 8;
let idPool = Buffer.alloc(0);
let idTaken = 0;
function entryId(): string {
  if (idTaken + ID_BYTES > idPool.length) {
    idPool = randomBytes(4096);
    idTaken = 0;
  }
  idTaken += ID_BYTES;
  return idPool.toString('base64url', idTaken - ID_BYTES, idTaken);
}

// How long a release waits to be written with the others (decision 2): under load, one write
// carries the releases of these milliseconds, where a write per turn of the event loop carried
// one or two; a process that dies loses them at most.
export const HISTORY_BATCH_MS = 10;
/** The most releases one write carries: past it, they are written at once. */
const HISTORY_BATCH_MOST = 500;

export function createAccessHistory(deps: {
  log: HistoryLog;
  settings: HistorySettings;
  /** The name people read (the client registry's; a deleted client's reads as such). */
  clientName: (clientId: string) => string | Promise<string>;
  now: () => number;
  /** Told of a record that could not be written (the release itself went ahead). */
  onLost?: (error: unknown) => void;
  /** When the waiting releases are written: HISTORY_BATCH_MS after the first of them (a timer); tests choose. */
  schedule?: (flush: () => void) => void;
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
    ...(release.providers && Object.keys(release.providers).length ? { providers: release.providers } : {}),
  });
  const bounds = () => ({ keepFromMs: keepFrom(), maxEntries: settings.historyEntries, ttlSeconds: settings.historyDays * 86_400 });

  // Releases wait here for a few milliseconds, then go to Redis together: one write for every
  // release of that stretch, after their answers have left (decision 2).
  let waiting: { identity: IdentityKey; release: Release; id: string; at: string; atMs: number }[] = [];
  const writing = new Set<Promise<void>>();
  const sameIdentity = (a: IdentityKey, b: IdentityKey) => a.toLowerCase() === b.toLowerCase();

  // The owner reads what this process released for them: what still waits for them is written first.
  const all = async (identity: IdentityKey): Promise<HistoryEntry[]> => {
    if (waiting.some((each) => sameIdentity(each.identity, identity))) flush();
    if (writing.size) await Promise.all([...writing]);
    return (await log.read(identity, keepFrom())).map((json) => JSON.parse(json) as HistoryEntry);
  };
  const write = async (batch: typeof waiting) => {
    try {
      // The clients' names come from the client registry (cached reads: each request that
      // released has just read its client), once per client of the batch.
      const nameOf = new Map<string, string | Promise<string>>();
      for (const { release } of batch) if (!nameOf.has(release.client_id)) nameOf.set(release.client_id, deps.clientName(release.client_id));
      const names = await Promise.all(batch.map((each) => nameOf.get(each.release.client_id)!));
      const entries = batch.map((each, i) => {
        return { identity: each.identity, json: JSON.stringify(entryOf(each.release, each.id, each.at, names[i]!)), atMs: each.atMs };
      });
      const { lost, untrimmed } = await log.append(entries, bounds());
      if (lost) deps.onLost?.(new Error(`${lost} of ${entries.length} access history entries were not written (a key of another type)`));
      if (untrimmed) deps.onLost?.(new Error(`${untrimmed} access history logs were written but not trimmed`));
    } catch (error) {
      deps.onLost?.(error);
    }
  };
  const flush = () => {
    const batch = waiting;
    waiting = [];
    if (!batch.length) return;
    const written = write(batch).finally(() => writing.delete(written));
    writing.add(written);
  };
  const schedule = deps.schedule ?? ((run: () => void) => setTimeout(run, HISTORY_BATCH_MS));

  return {
    /**
     * Records one release; returns at once (the caller's answer never waits for it). It is
     * written with the other releases of the next HISTORY_BATCH_MS, in one write.
     * `identity`: the address of a default-chain identity, the CAIP-10 id of another chain's.
     */
    record(identity: IdentityKey, release: Release): void {
      const atMs = now();
      if (!waiting.length) schedule(flush);
      waiting.push({ identity, release, id: entryId(), at: new Date(atMs).toISOString(), atMs });
      // A busy stretch goes in several writes, each of a bounded size.
      if (waiting.length >= HISTORY_BATCH_MOST) flush();
    },

    /** Writes what is waiting now and waits for every write under way (at shutdown, and in tests). */
    async flushed(): Promise<void> {
      flush();
      await Promise.all([...writing]);
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

    /**
     * Grant id -> when it last released data, as the kept history tells (a grant with no release
     * among the entries kept, by age and by count, has none): read from the log, so that the log
     * is all a release writes, and nothing about a read outlives the history's own bounds.
     */
    lastReads: async (identity: IdentityKey): Promise<Record<string, string>> => {
      const last: Record<string, string> = {};
      // Newest first: the first release of each grant is its last.
      for (const entry of await all(identity)) {
        if (entry.outcome === 'released' && entry.grant_id && !(entry.grant_id in last)) last[entry.grant_id] = entry.at;
      }
      return last;
    },

    /** The identity's log, and its releases still waiting to be written here (they would bring it back). */
    erase: async (identity: IdentityKey) => {
      waiting = waiting.filter((each) => !sameIdentity(each.identity, identity));
      await log.erase(identity);
    },
  };
}

export type AccessHistory = ReturnType<typeof createAccessHistory>;
