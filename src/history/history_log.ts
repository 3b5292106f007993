// Where an identity's access history lives: a time-ordered log per identity, bounded by age
// and by count, with a "last read" time per grant beside it. On Redis a sorted set (score =
// epoch ms) and a hash under one hash tag, written by one script; in memory for the demo.
import type { Redis } from 'ioredis';
import { keys } from '../store/keys.js';
import type { RedisStore } from '../store/redis_store.js';
import type { Store } from '../store/store.js';

export type LogBounds = {
  /** Entries older than this (epoch ms) are dropped. */
  keepFromMs: number;
  maxEntries: number;
  /** The log's life from its last write. */
  ttlSeconds: number;
};

export type HistoryLog = {
  /** Adds one entry (a unique JSON string) and trims the log, in one atomic step. */
  append(identity: string, entry: { json: string; atMs: number; grantId?: string; at: string }, bounds: LogBounds): Promise<void>;
  /** Every kept entry at or after keepFromMs, newest first. */
  read(identity: string, keepFromMs: number): Promise<string[]>;
  /** Grant id -> ISO time of its last release. */
  lastReads(identity: string): Promise<Record<string, string>>;
  erase(identity: string): Promise<void>;
};

// KEYS: log, last-read hash. ARGV: entry, score, keep-from score, max entries, ttl, grant id ('' none), ISO time.
const APPEND = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if over > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1) end
redis.call('EXPIRE', KEYS[1], ARGV[5])
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[6], ARGV[7])
  redis.call('EXPIRE', KEYS[2], ARGV[5])
end
return 1`;

type WithAppend = Redis & { appendHistory(log: string, last: string, ...args: string[]): Promise<number> };

function redisHistoryLog(store: RedisStore): HistoryLog {
  const redis = store.client as WithAppend;
  redis.defineCommand('appendHistory', { numberOfKeys: 2, lua: APPEND });
  return {
    append: (identity, entry, bounds) =>
      store.guarded(async () => {
        await redis.appendHistory(
          keys.history(identity),
          keys.historyLastRead(identity),
          entry.json,
          String(entry.atMs),
          String(bounds.keepFromMs),
          String(bounds.maxEntries),
          String(Math.max(1, Math.ceil(bounds.ttlSeconds))),
          entry.grantId ?? '',
          entry.at,
        );
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
  return {
    async append(identity, entry, bounds) {
      const log = live(identity) ?? { entries: [], last: {}, until: 0 };
      log.entries = [...log.entries, { json: entry.json, atMs: entry.atMs }]
        .filter((kept) => kept.atMs >= bounds.keepFromMs)
        .sort((a, b) => a.atMs - b.atMs || (a.json < b.json ? -1 : a.json > b.json ? 1 : 0))
        .slice(-bounds.maxEntries);
      if (entry.grantId) log.last[entry.grantId] = entry.at;
      log.until = now() + bounds.ttlSeconds * 1000;
      logs.set(identity.toLowerCase(), log);
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
