// Store in process memory for the demo: same semantics as the Redis store, nothing survives
// a restart and nothing is shared between processes.
import type { BoundedIndex, Store } from './store.js';

/** An index: member -> the epoch ms it is listed until (Infinity: until removed). */
type Index = Map<string, number>;
type Entry = { value: string | Index; expiresAt: number };

export function createMemoryStore(now: () => number = Date.now): Store {
  const entries = new Map<string, Entry>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const expiry = (ttl?: number) => (ttl ? now() + Math.max(1, Math.ceil(ttl)) * 1000 : Number.POSITIVE_INFINITY);
  /** The index's listed members, the past ones dropped. */
  const liveIndex = (key: string): Index | undefined => {
    const entry = live(key);
    if (!(entry && entry.value instanceof Map)) return undefined;
    const at = now();
    for (const [member, until] of entry.value) if (until <= at) entry.value.delete(member);
    return entry.value;
  };
  /** Stores an index that expires with its latest member (and goes with its last). */
  const putIndex = (key: string, members: Index) => {
    let last = 0;
    for (const until of members.values()) last = Math.max(last, until);
    if (members.size) entries.set(key, { value: members, expiresAt: last });
    else entries.delete(key);
  };
  const addToIndex = (key: string, member: string, ttl: number, onlyLater = false) => {
    const members = liveIndex(key) ?? new Map<string, number>();
    const until = expiry(ttl || undefined);
    if (!(onlyLater && (members.get(member) ?? 0) >= until)) members.set(member, until);
    putIndex(key, members);
  };
  /** Store.addToIndexesWithin: the first full index's key, else undefined once the member joined every one. */
  const addToIndexesWithin = (bounds: readonly { key: string; max: number }[], member: string, ttl: number) => {
    const full = bounds.find(({ key, max }) => {
      const members = liveIndex(key);
      return members && !members.has(member) && members.size >= max;
    });
    if (full) return full.key;
    for (const { key } of bounds) addToIndex(key, member, ttl);
    return undefined;
  };
  const text = (entry: Entry | undefined) => (typeof entry?.value === 'string' ? entry.value : undefined);
  /**
   * A bounded index (RecordWrite.bounded): `member` joins it; the members past the bound that
   * leave soonest, never `member`, leave it and `others`, and their records go with their marks.
   */
  const addWithinBound = (bounded: BoundedIndex, member: string, ttl: number, others: readonly string[]) => {
    addToIndex(bounded.key, member, ttl);
    const index = liveIndex(bounded.key)!;
    const over = index.size - bounded.atMost;
    if (over <= 0) return;
    // Soonest first; in a tie, in the order Redis ranks members (by their bytes).
    const evicted = [...index.entries()]
      .filter(([candidate]) => candidate !== member)
      .sort(([a, until], [b, other]) => until - other || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, over)
      .map(([candidate]) => candidate);
    for (const key of [bounded.key, ...others]) {
      const listing = liveIndex(key);
      if (!listing) continue;
      for (const record of evicted) listing.delete(record);
      putIndex(key, listing);
    }
    for (const record of evicted) {
      entries.delete(record);
      for (const suffix of bounded.marks ?? []) entries.delete(record + suffix);
    }
  };

  return {
    kind: 'memory',
    get: async (key) => text(live(key)),
    set: async (key, value, ttl) => {
      entries.set(key, { value, expiresAt: expiry(ttl) });
    },
    setIfAbsent: async (key, value, ttl) => {
      if (live(key)) return false;
      entries.set(key, { value, expiresAt: expiry(ttl) });
      return true;
    },
    take: async (key) => {
      const value = text(live(key));
      entries.delete(key);
      return value;
    },
    delete: async (...keys) => {
      for (const key of keys) entries.delete(key);
    },
    ttl: async (key) => {
      const entry = live(key);
      if (!entry) return undefined;
      return entry.expiresAt === Number.POSITIVE_INFINITY ? entry.expiresAt : Math.ceil((entry.expiresAt - now()) / 1000);
    },
    addToIndex: async (key, member, ttl, options) => addToIndex(key, member, ttl, options?.onlyLater),
    addToIndexWithin: async (key, member, ttl, max) => addToIndexesWithin([{ key, max }], member, ttl) === undefined,
    addToIndexesWithin: async (bounds, member, ttl) => addToIndexesWithin(bounds, member, ttl),
    indexMembers: async (key) => {
      const members = liveIndex(key);
      if (members && !members.size) entries.delete(key);
      return members ? [...members.keys()] : [];
    },
    removeFromIndex: async (key, ...members) => {
      const index = liveIndex(key);
      if (!index) return;
      for (const member of members) index.delete(member);
      putIndex(key, index);
    },
    compareAndSet: async (key, expected, next, ttl) => {
      const entry = live(key);
      const current = text(entry);
      if (entry && current !== undefined && expected.includes(current)) {
        entries.set(key, { value: next, expiresAt: ttl === undefined ? entry.expiresAt : expiry(ttl || undefined) });
        return { swapped: true, current };
      }
      return { swapped: false, current };
    },
    getMany: async (keys) => keys.map((key) => text(live(key))),
    getViaLookup: async (lookupKey, keysOf) => {
      const id = text(live(lookupKey));
      return id === undefined ? undefined : { id, values: keysOf(id).map((key) => text(live(key))) };
    },
    // No await inside the steps below: each runs to its end before another request can act.
    putRecord: async (write) => {
      if (write.unless && live(write.unless)) return false;
      const expiresAt = expiry(write.ttlSeconds || undefined);
      entries.set(write.key, { value: write.value, expiresAt });
      for (const key of write.clear ?? []) entries.delete(key);
      for (const alias of write.aliases ?? []) entries.set(alias.key, { value: alias.value, expiresAt });
      for (const index of write.indexes ?? []) addToIndex(index, write.key, write.ttlSeconds ?? 0);
      if (write.bounded) addWithinBound(write.bounded, write.key, write.ttlSeconds ?? 0, write.indexes ?? []);
      return true;
    },
    markOnce: async (recordKey, markKey, value, keep) => {
      const record = live(recordKey);
      if (!record) return 'missing';
      if (live(markKey)) return 'already_marked';
      if (keep) {
        const until = now() + Math.max(1, Math.ceil(keep.seconds)) * 1000;
        record.expiresAt = Math.min(record.expiresAt, until);
        const index = keep.index ? liveIndex(keep.index) : undefined;
        const listed = index?.get(recordKey);
        if (index && listed !== undefined && listed > until) {
          index.set(recordKey, until);
          putIndex(keep.index!, index);
        }
        if (keep.bounded && listed !== undefined) addWithinBound(keep.bounded, recordKey, Math.max(1, Math.ceil(keep.seconds)), [keep.index!]);
      }
      entries.set(markKey, { value, expiresAt: record.expiresAt });
      return 'marked';
    },
    readCountingAttempt: async (recordKey, markKey, counterKey, only) => {
      const entry = live(recordKey);
      const [record, mark] = [text(entry), text(live(markKey))];
      if (!entry || record === undefined || mark !== undefined) return { record, mark, attempts: 0 };
      let parsed: unknown;
      try {
        parsed = JSON.parse(record);
      } catch {
        return { record, attempts: 0 };
      }
      if ((parsed as Record<string, unknown> | null)?.[only.field] !== only.equals) return { record, attempts: 0 };
      const attempts = Number(text(live(counterKey)) ?? 0) + 1;
      const expiresAt = Number.isFinite(entry.expiresAt) ? entry.expiresAt : expiry(only.fallbackSeconds);
      entries.set(counterKey, { value: String(attempts), expiresAt });
      return { record, attempts };
    },
    closeIndexes: async (indexKeys, tombstoneKey, ttl) => {
      entries.set(tombstoneKey, { value: '1', expiresAt: expiry(ttl) });
      const members = new Set<string>();
      for (const indexKey of indexKeys) {
        const entry = live(indexKey);
        entries.delete(indexKey);
        if (entry && entry.value instanceof Map) for (const member of entry.value.keys()) members.add(member);
      }
      return [...members];
    },
    ping: async () => {},
    close: async () => {
      entries.clear();
    },
  };
}
