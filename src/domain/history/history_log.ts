// Where an identity's access history lives: a time-ordered log per identity, bounded by age
// and by count. On Redis a sorted set (score = epoch ms) written by one script; in memory for the
// demo. Each grant's last read is read from the log (src/domain/history/access_history.ts).
import { Cluster, type Redis } from 'ioredis';
import { keys } from '../../infra/store/keys.js';
import { defineLuaScripts, readLuaScripts } from '../../infra/store/lua_scripts.js';
import type { RedisStore } from '../../infra/store/redis_store.js';
import type { Store } from '../../infra/store/store.js';

export type LogBounds = {
  /** Entries older than this (epoch ms) are dropped. */
  keepFromMs: number;
  maxEntries: number;
  /** The log's life from its last write. */
  ttlSeconds: number;
};

/** One entry for an identity's log: a unique JSON string and its time. */
export type LogEntry = { identity: string; json: string; atMs: number };

export type HistoryLog = {
  /**
   * Adds entries (of one identity or several) and trims each log touched, in one step per
   * server. Entries whose log cannot be written (a key of another type) are counted in `lost`,
   * logs that could not be trimmed in `untrimmed`; the others are written all the same.
   */
  append(entries: readonly LogEntry[], bounds: LogBounds): Promise<{ lost: number; untrimmed: number }>;
  /** Every kept entry at or after keepFromMs, newest first. */
  read(identity: string, keepFromMs: number): Promise<string[]>;
  erase(identity: string): Promise<void>;
};

// The number of keys goes with each call: a batch names as many identities as it holds.
export const HISTORY_SCRIPTS = readLuaScripts(new URL('./scripts/', import.meta.url), { 'append_history.lua': {} });

type WithAppend = Redis & {
  appendHistory(...keysThenArgs: (string | number)[]): Promise<[number, number]>;
};

/** The script's keys and arguments for entries whose identities all share one server. */
function appendArgs(entries: readonly LogEntry[], bounds: LogBounds): (string | number)[] {
  const logs = new Map<string, number>();
  const perEntry: string[] = [];
  for (const entry of entries) {
    if (!logs.has(entry.identity)) logs.set(entry.identity, logs.size + 1);
    perEntry.push(String(logs.get(entry.identity)), entry.json, String(entry.atMs));
  }
  const logKeys = [...logs.keys()].map((identity) => keys.history(identity));
  return [logKeys.length, ...logKeys, String(bounds.keepFromMs), String(bounds.maxEntries), String(Math.max(1, Math.ceil(bounds.ttlSeconds))), ...perEntry];
}

function redisHistoryLog(store: RedisStore): HistoryLog {
  const redis = store.client as WithAppend;
  defineLuaScripts(redis, HISTORY_SCRIPTS);
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
    // With the last-read hash an earlier version kept beside the log, until it expires.
    erase: async (identity) => store.delete(keys.history(identity), keys.historyLastRead(identity)),
  };
}

function memoryHistoryLog(store: Store, now: () => number): HistoryLog {
  type Log = { entries: { json: string; atMs: number }[]; until: number };
  const logs = new Map<string, Log>();
  const live = (identity: string) => {
    const log = logs.get(identity.toLowerCase());
    if (log && log.until <= now()) logs.delete(identity.toLowerCase());
    return log && log.until > now() ? log : undefined;
  };
  const appendOne = (entry: LogEntry, bounds: LogBounds) => {
    const log = live(entry.identity) ?? { entries: [], until: 0 };
    log.entries = [...log.entries, { json: entry.json, atMs: entry.atMs }]
      .filter((kept) => kept.atMs >= bounds.keepFromMs)
      .sort((a, b) => a.atMs - b.atMs || (a.json < b.json ? -1 : a.json > b.json ? 1 : 0))
      .slice(-bounds.maxEntries);
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
    async erase(identity) {
      logs.delete(identity.toLowerCase());
      await store.delete(keys.history(identity), keys.historyLastRead(identity));
    },
  };
}

export function createHistoryLog(store: Store, now: () => number): HistoryLog {
  return store.kind === 'redis' && 'client' in store ? redisHistoryLog(store as RedisStore) : memoryHistoryLog(store, now);
}
