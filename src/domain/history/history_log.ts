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

export type HistoryLog = {
  /** Adds one entry (a unique JSON string) and trims the log, in one atomic step. */
  append(identity: string, entry: { json: string; atMs: number; grantId?: string; at: string }, bounds: LogBounds): Promise<void>;
  /** Every kept entry at or after keepFromMs, newest first. */
  read(identity: string, keepFromMs: number): Promise<string[]>;
  /** Grant id -> ISO time of its last release. */
  lastReads(identity: string): Promise<Record<string, string>>;
  erase(identity: string): Promise<void>;
  /**
   * Reads `readKey` (a JSON object) and adds one entry whose `fields` are those of `candidates`
   * the object holds, in one atomic step and one round trip; answers what `readKey` holds. The
   * entry's JSON ends with `"fields":"@fields@"}`, which the step fills. Absent where one step
   * cannot touch both keys (a cluster: another slot) or in memory: read, then append. A write
   * that fails (the read did not) comes back as `lost`, the read's value with it.
   */
  appendAfterRead?(
    identity: string,
    readKey: string,
    entry: { json: string; atMs: number; grantId?: string; at: string },
    candidates: readonly string[],
    bounds: LogBounds,
  ): Promise<{ value: string | undefined; lost?: Error }>;
};

/** How an entry written by appendAfterRead ends before its fields are filled in. */
export const FIELDS_MARK = '"fields":"@fields@"}';

// Writes \`entry\` to the log, trims it by age and by count, and keeps the last read of the grant.
// KEYS: log, last-read hash. ARGV: entry, score, keep-from score, max entries, ttl, grant id ('' none), ISO time.
const WRITE_ENTRY = `
redis.call('ZADD', KEYS[1], ARGV[2], entry)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[4])
if over > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1) end
redis.call('EXPIRE', KEYS[1], ARGV[5])
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[2], ARGV[6], ARGV[7])
  redis.call('EXPIRE', KEYS[2], ARGV[5])
end`;

const APPEND = `
local entry = ARGV[1]
${WRITE_ENTRY}
return 1`;

// KEYS: log, last-read hash, the JSON read. ARGV: as APPEND (the entry ending with the fields
// mark), then the candidate field names. The entry's fields: the candidates the JSON holds.
const APPEND_AFTER_READ = `
local raw = redis.call('GET', KEYS[3])
local held = {}
if raw then
  local ok, decoded = pcall(cjson.decode, raw)
  if ok and type(decoded) == 'table' then
    for i = 8, #ARGV do
      if decoded[ARGV[i]] ~= nil and decoded[ARGV[i]] ~= cjson.null then held[#held + 1] = '"' .. ARGV[i] .. '"' end
    end
  end
end
local mark = '${FIELDS_MARK}'
local entry = ARGV[1]
if string.sub(entry, -#mark) ~= mark then return {raw, 'history entry without its fields mark'} end
entry = string.sub(entry, 1, #entry - #mark) .. '"fields":[' .. table.concat(held, ',') .. ']}'
-- The read is answered whatever happens to the write: a failed write is reported, never the read's failure.
local function write()
${WRITE_ENTRY}
end
local written, problem = pcall(write)
if written then return {raw} end
return {raw, tostring(problem)}`;

type WithAppend = Redis & {
  appendHistory(log: string, last: string, ...args: string[]): Promise<number>;
  appendHistoryAfterRead(log: string, last: string, read: string, ...args: string[]): Promise<[string | null, string?]>;
};

function redisHistoryLog(store: RedisStore): HistoryLog {
  const redis = store.client as WithAppend;
  redis.defineCommand('appendHistory', { numberOfKeys: 2, lua: APPEND });
  redis.defineCommand('appendHistoryAfterRead', { numberOfKeys: 3, lua: APPEND_AFTER_READ });
  /** The entry's and the bounds' arguments, in the order both scripts' WRITE_ENTRY reads them. */
  const entryArgs = (entry: Parameters<HistoryLog['append']>[1], bounds: LogBounds) => [
    entry.json,
    String(entry.atMs),
    String(bounds.keepFromMs),
    String(bounds.maxEntries),
    String(Math.max(1, Math.ceil(bounds.ttlSeconds))),
    entry.grantId ?? '',
    entry.at,
  ];
  // A script touches one slot: on a cluster the read key is elsewhere, so no appendAfterRead.
  const oneSlot = !(store.client instanceof Cluster);
  return {
    ...(oneSlot
      ? {
          appendAfterRead: (identity: string, readKey: string, entry: Parameters<HistoryLog['append']>[1], candidates: readonly string[], bounds: LogBounds) =>
            store.guarded(async () => {
              const [raw, problem] = await redis.appendHistoryAfterRead(
                keys.history(identity),
                keys.historyLastRead(identity),
                readKey,
                ...entryArgs(entry, bounds),
                ...candidates,
              );
              return { value: raw ?? undefined, ...(problem ? { lost: new Error(`the history entry was not written: ${problem}`) } : {}) };
            }),
        }
      : {}),
    append: (identity, entry, bounds) =>
      store.guarded(async () => {
        await redis.appendHistory(keys.history(identity), keys.historyLastRead(identity), ...entryArgs(entry, bounds));
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
