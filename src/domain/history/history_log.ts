// Where an identity's access history lives: a time-ordered log per identity, bounded by age
// and by count, with a "last read" time per grant beside it. On Redis a sorted set (score =
// epoch ms) and a hash under one hash tag, written by one script; in memory for the demo.
import { Cluster, type Redis } from 'ioredis';
import { keys } from '../../infra/store/keys.js';
import type { RedisStore } from '../../infra/store/redis_store.js';
import type { Store } from '../../infra/store/store.js';

export type LogBounds = {
  /** Entries older than this (epoch ms) are dropped. */
  keepFromMs: number;
  maxEntries: number;
  /** The log's life from its last write. */
  ttlSeconds: number;
};

/** One entry for an identity's log: a unique JSON string, its time, and the grant it was released under. */
export type LogEntry = { identity: string; json: string; atMs: number; grantId?: string; at: string };

export type HistoryLog = {
  /**
   * Adds entries (of one identity or several) and trims each log touched, in one step per
   * server. Entries whose log cannot be written (a key of another type) are counted in `lost`,
   * logs that could not be trimmed in `untrimmed`; the others are written all the same.
   */
  append(entries: readonly LogEntry[], bounds: LogBounds): Promise<{ lost: number; untrimmed: number }>;
  /** Every kept entry at or after keepFromMs, newest first. */
  read(identity: string, keepFromMs: number): Promise<string[]>;
  /** Grant id -> ISO time of its last release. */
  lastReads(identity: string): Promise<Record<string, string>>;
  erase(identity: string): Promise<void>;
};

// Adds entries to the logs, then trims each log written by age and by count and renews its
// life, and keeps each grant's last read. One identity's failure (a key of another type) costs
// its own entries only.
// KEYS: each identity's log and last-read hash, in pairs. ARGV: keep-from score, max entries,
// ttl, then five per entry: its pair (1-based), entry, score, grant id ('' none), ISO time.
// Answers {entries not written, logs not trimmed}.
const APPEND = `
local keepFrom, most, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local added, lastTouched, lost, untrimmed = {}, {}, 0, 0
local function add(i)
  local pair = tonumber(ARGV[i]) * 2
  redis.call('ZADD', KEYS[pair - 1], ARGV[i + 2], ARGV[i + 1])
  added[pair] = true
  if ARGV[i + 3] ~= '' then
    redis.call('HSET', KEYS[pair], ARGV[i + 3], ARGV[i + 4])
    lastTouched[pair] = true
  end
end
local function trim(pair)
  local log = KEYS[pair - 1]
  redis.call('ZREMRANGEBYSCORE', log, '-inf', '(' .. keepFrom)
  -- All but the newest \`most\` (nothing when it holds fewer).
  redis.call('ZREMRANGEBYRANK', log, 0, -most - 1)
  redis.call('EXPIRE', log, ttl)
  if lastTouched[pair] then redis.call('EXPIRE', KEYS[pair], ttl) end
end
for i = 4, #ARGV, 5 do
  if not pcall(add, i) then lost = lost + 1 end
end
for pair = 2, #KEYS, 2 do
  if added[pair] and not pcall(trim, pair) then untrimmed = untrimmed + 1 end
end
return {lost, untrimmed}`;

type WithAppend = Redis & {
  appendHistory(...keysThenArgs: (string | number)[]): Promise<[number, number]>;
};

/** The script's keys and arguments for entries whose identities all share one server. */
function appendArgs(entries: readonly LogEntry[], bounds: LogBounds): (string | number)[] {
  const pairs = new Map<string, number>();
  const perEntry: string[] = [];
  for (const entry of entries) {
    if (!pairs.has(entry.identity)) pairs.set(entry.identity, pairs.size + 1);
    perEntry.push(String(pairs.get(entry.identity)), entry.json, String(entry.atMs), entry.grantId ?? '', entry.at);
  }
  const logKeys = [...pairs.keys()].flatMap((identity) => [keys.history(identity), keys.historyLastRead(identity)]);
  return [logKeys.length, ...logKeys, String(bounds.keepFromMs), String(bounds.maxEntries), String(Math.max(1, Math.ceil(bounds.ttlSeconds))), ...perEntry];
}

function redisHistoryLog(store: RedisStore): HistoryLog {
  const redis = store.client as WithAppend;
  // The number of keys goes with each call: a batch names as many identities as it holds.
  redis.defineCommand('appendHistory', { lua: APPEND });
  // A script touches one slot: on a cluster each identity's entries are a call of their own (its
  // logs share a hash tag); on one server the whole batch is one call.
  const oneServer = !(store.client instanceof Cluster);
  const byIdentity = (entries: readonly LogEntry[]) => {
    const groups = new Map<string, LogEntry[]>();
    for (const entry of entries) {
      const group = groups.get(entry.identity);
      if (group) group.push(entry);
      else groups.set(entry.identity, [entry]);
    }
    return [...groups.values()];
  };
  return {
    append: (entries, bounds) =>
      store.guarded(async () => {
        const calls = oneServer ? [entries] : byIdentity(entries);
        const answers = await Promise.all(calls.map((batch) => redis.appendHistory(...appendArgs(batch, bounds))));
        const lost = answers.reduce((sum, [notWritten]) => sum + Number(notWritten), 0);
        const untrimmed = answers.reduce((sum, [, notTrimmed]) => sum + Number(notTrimmed), 0);
        return { lost, untrimmed };
      }),
    read: (identity, keepFromMs) => store.guarded(() => redis.zrevrangebyscore(keys.history(identity), '+inf', String(keepFromMs))),
    lastReads: (identity) => store.guarded(() => redis.hgetall(keys.historyLastRead(identity))),
    erase: async (identity) => store.delete(keys.history(identity), keys.historyLastRead(identity)),
  };
}

function memoryHistoryLog(store: Store, now: () => number): HistoryLog {
  type Log = { entries: { json: string; atMs: number }[]; last: Record<string, string>; until: number };
  const logs = new Map<string, Log>();
  const live = (identity: string) => {
    const log = logs.get(identity.toLowerCase());
    if (log && log.until <= now()) logs.delete(identity.toLowerCase());
    return log && log.until > now() ? log : undefined;
  };
  const appendOne = (entry: LogEntry, bounds: LogBounds) => {
    const log = live(entry.identity) ?? { entries: [], last: {}, until: 0 };
    log.entries = [...log.entries, { json: entry.json, atMs: entry.atMs }]
      .filter((kept) => kept.atMs >= bounds.keepFromMs)
      .sort((a, b) => a.atMs - b.atMs || (a.json < b.json ? -1 : a.json > b.json ? 1 : 0))
      .slice(-bounds.maxEntries);
    if (entry.grantId) log.last[entry.grantId] = entry.at;
    log.until = now() + bounds.ttlSeconds * 1000;
    logs.set(entry.identity.toLowerCase(), log);
  };
  return {
    async append(entries, bounds) {
      for (const entry of entries) appendOne(entry, bounds);
      return { lost: 0, untrimmed: 0 };
    },
    async read(identity, keepFromMs) {
      return (live(identity)?.entries ?? [])
        .filter((entry) => entry.atMs >= keepFromMs)
        .reverse()
        .map((entry) => entry.json);
    },
    async lastReads(identity) {
      return { ...(live(identity)?.last ?? {}) };
    },
    async erase(identity) {
      logs.delete(identity.toLowerCase());
      await store.delete(keys.history(identity), keys.historyLastRead(identity));
    },
  };
}

export function createHistoryLog(store: Store, now: () => number): HistoryLog {
  return store.kind === 'redis' && 'client' in store ? redisHistoryLog(store as RedisStore) : memoryHistoryLog(store, now);
}
