// Store over ioredis. Multi-key steps run as Lua scripts registered with defineCommand (sent
// as EVALSHA once loaded), so each is atomic and costs one round trip. The client fails fast
// when Redis is gone (no offline queue, a command deadline) and reconnects on its own.
import { Redis, type RedisOptions } from 'ioredis';
import { SignetError } from '../errors.js';
import type { RecordWrite, Store } from './store.js';

export type RedisStoreOptions = {
  /** A command without an answer after this long fails (a silent or stalled Redis). */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts: bounds how long recovery takes. */
  reconnectMaxDelayMs?: number;
  /** Told of each connection error and each command refused as an outage (the metrics count them). */
  onError?: (kind: 'connection' | 'command') => void;
};

export const REDIS_STORE_DEFAULTS = { commandTimeoutMs: 500, reconnectMaxDelayMs: 250 } as const;

// SADD, then never shorten the set's life: a new set gets the TTL asked (0 = none); an
// existing one keeps no expiry if it has none, and is raised if its TTL is shorter.
const ADD_TO_INDEX_LUA = `
local function add_to_index(key, member, ttl)
  local existed = redis.call('EXISTS', key)
  redis.call('SADD', key, member)
  local left = redis.call('TTL', key)
  if ttl == 0 then
    redis.call('PERSIST', key)
  elseif existed == 0 or (left ~= -1 and left < ttl) then
    redis.call('EXPIRE', key, ttl)
  end
end`;

const ADD_TO_INDEX = `${ADD_TO_INDEX_LUA}
add_to_index(KEYS[1], ARGV[1], tonumber(ARGV[2]))
return 1`;

// KEYS: record, unless ('' slot unused when absent), then clear…, alias…, index… keys.
// ARGV: value, ttl (0 = none), has_unless, #clear, #aliases, #indexes, alias values….
const PUT_RECORD = `${ADD_TO_INDEX_LUA}
local ttl = tonumber(ARGV[2])
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
local clears, aliases, indexes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local at = 3
for i = 1, clears do redis.call('DEL', KEYS[at]); at = at + 1 end
for i = 1, aliases do
  if ttl > 0 then
    redis.call('SET', KEYS[at], ARGV[6 + i], 'EX', ttl)
  else
    redis.call('SET', KEYS[at], ARGV[6 + i])
  end
  at = at + 1
end
for i = 1, indexes do add_to_index(KEYS[at], KEYS[1], ttl); at = at + 1 end
return 1`;

// The mark inherits the record's remaining life to the millisecond, so it never outlives it.
const MARK_ONCE = `
local left = redis.call('PTTL', KEYS[1])
if left == -2 then return 'missing' end
local marked
if left == -1 then
  marked = redis.call('SET', KEYS[2], ARGV[1], 'NX')
else
  marked = redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', left)
end
if marked then return 'marked' end
return 'already_marked'`;

const CLOSE_INDEX = `
redis.call('SET', KEYS[2], '1', 'EX', ARGV[1])
local members = redis.call('SMEMBERS', KEYS[1])
redis.call('DEL', KEYS[1])
return members`;

// GET, and SET (keeping the TTL) when the value is one of the expected ones.
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, false} end
for i = 2, #ARGV do
  if current == ARGV[i] then
    redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
    return {1, current}
  end
end
return {0, current}`;

// INCR, and a TTL on the counter's first count only: a window never slides.
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count`;

type Scripted = Redis & {
  addToIndex(key: string, member: string, ttl: string): Promise<number>;
  putRecord(numberOfKeys: number, ...args: string[]): Promise<number>;
  markOnce(record: string, mark: string, value: string): Promise<'marked' | 'already_marked' | 'missing'>;
  closeIndex(index: string, tombstone: string, ttl: string): Promise<string[]>;
  compareAndSet(key: string, next: string, ...expected: string[]): Promise<[number, string | null]>;
  incrementOnce(key: string, ttl: string): Promise<number>;
};

function defineScripts(redis: Redis): Scripted {
  redis.defineCommand('addToIndex', { numberOfKeys: 1, lua: ADD_TO_INDEX });
  redis.defineCommand('putRecord', { lua: PUT_RECORD });
  redis.defineCommand('markOnce', { numberOfKeys: 2, lua: MARK_ONCE });
  redis.defineCommand('closeIndex', { numberOfKeys: 2, lua: CLOSE_INDEX });
  redis.defineCommand('compareAndSet', { numberOfKeys: 1, lua: COMPARE_AND_SET });
  redis.defineCommand('incrementOnce', { numberOfKeys: 1, lua: INCREMENT });
  return redis as Scripted;
}

/** The client settings that make an outage fail fast and a recovery quick. */
export function redisClientOptions(options: RedisStoreOptions = {}): RedisOptions {
  const { commandTimeoutMs, reconnectMaxDelayMs } = { ...REDIS_STORE_DEFAULTS, ...options };
  return {
    // While disconnected a command fails at once instead of waiting in a queue; requests then
    // answer 503 in milliseconds, and nothing queued runs late after the client gave up.
    enableOfflineQueue: false,
    // Commands issued in the same tick (concurrent requests) leave in one socket write: a
    // write per command was the largest CPU cost of a login under load (docs/performance.md).
    enableAutoPipelining: true,
    // Commands in flight when the connection drops fail at once, and are not sent again.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // The command deadline is the store's own (withDeadline), which tolerates a busy event loop.
    connectTimeout: Math.max(1000, commandTimeoutMs),
    retryStrategy: (attempt) => Math.min(50 * attempt, reconnectMaxDelayMs),
  };
}

/**
 * Fails `work` if it has not settled `ms` after it started. When the timer fires the verdict
 * waits one more turn of the event loop: after a stretch of busy CPU the timer runs before the
 * socket is read, and a reply that did arrive in time must not count as an outage.
 */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) reject(new Error(`Redis did not answer within ${ms} ms`));
      });
    }, ms);
    work.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** An answer from Redis that means it cannot serve now, not that the command was wrong. */
const OUTAGE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM|NOREPLICAS)\b/;

function isOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // A reply error is Redis refusing the command: a bug here unless Redis says it is unwell.
  if (error.name === 'ReplyError') return OUTAGE_REPLIES.test(error.message);
  return true;
}

export function storeUnavailable(cause: unknown): SignetError {
  return new SignetError('temporarily_unavailable', 'the store (Redis) is unreachable: try again in a moment', {
    cause,
    reason: 'store_unavailable',
    retryAfterSeconds: 1,
  });
}

/** A Redis store, with its client and its guard for parts that bring their own Redis logic (rate limits). */
export type RedisStore = Store & {
  readonly kind: 'redis';
  readonly client: Redis;
  /** Runs commands on `client` under the store's rules: first connection, deadline, outage = 503. */
  guarded<T>(work: () => Promise<T>): Promise<T>;
};

export function createRedisStore(url: string, options: RedisStoreOptions = {}): RedisStore {
  const redis = new Redis(url, redisClientOptions(options));
  // ioredis reconnects by itself; the error event only needs a listener so it does not crash.
  redis.on('error', () => options.onError?.('connection'));
  return wrapRedis(redis, options);
}

export function wrapRedis(client: Redis, options: RedisStoreOptions = {}): RedisStore {
  const redis = defineScripts(client);
  const { commandTimeoutMs } = { ...REDIS_STORE_DEFAULTS, ...options };
  // Without an offline queue a command sent before the first connection would fail: the very
  // first commands wait for it, at most one command deadline. Later outages fail fast.
  let connected = redis.status === 'ready';
  const firstConnection = new Promise<void>((resolve) => {
    if (connected) return resolve();
    redis.once('ready', () => {
      connected = true;
      resolve();
    });
  });
  const waitForFirstConnection = async () => {
    if (connected) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([firstConnection, new Promise<void>((resolve) => (timer = setTimeout(resolve, commandTimeoutMs)))]);
    clearTimeout(timer);
  };
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      await waitForFirstConnection();
      return await withDeadline(work(), commandTimeoutMs);
    } catch (error) {
      if (isOutage(error)) {
        options.onError?.('command');
        throw storeUnavailable(error);
      }
      throw error;
    }
  };
  const seconds = (ttl: number) => Math.max(1, Math.ceil(ttl));
  return {
    kind: 'redis',
    guarded: guard,
    client: redis,
    get: (key) => guard(async () => (await redis.get(key)) ?? undefined),
    set: (key, value, ttl) =>
      guard(async () => {
        if (ttl) await redis.set(key, value, 'EX', seconds(ttl));
        else await redis.set(key, value);
      }),
    setIfAbsent: (key, value, ttl) =>
      guard(async () => {
        const result = ttl ? await redis.set(key, value, 'EX', seconds(ttl), 'NX') : await redis.set(key, value, 'NX');
        return result === 'OK';
      }),
    take: (key) => guard(async () => (await redis.getdel(key)) ?? undefined),
    delete: (...keys) =>
      guard(async () => {
        if (keys.length) await redis.del(...keys);
      }),
    ttl: (key) =>
      guard(async () => {
        const left = await redis.ttl(key);
        if (left === -2) return undefined;
        return left === -1 ? Number.POSITIVE_INFINITY : left;
      }),
    addToIndex: (key, member, ttl) =>
      guard(async () => {
        await redis.addToIndex(key, member, String(ttl > 0 ? seconds(ttl) : 0));
      }),
    indexMembers: (key) => guard(() => redis.smembers(key)),
    increment: (key, ttl) => guard(async () => Number(await redis.incrementOnce(key, String(seconds(ttl))))),
    compareAndSet: (key, expected, next) =>
      guard(async () => {
        const [swapped, current] = await redis.compareAndSet(key, next, ...expected);
        return { swapped: swapped === 1, current: current ?? undefined };
      }),
    getMany: (keys) =>
      guard(async () => (keys.length ? (await redis.mget(...keys)).map((value) => value ?? undefined) : [])),
    putRecord: (write: RecordWrite) =>
      guard(async () => {
        const clear = write.clear ?? [];
        const aliases = write.aliases ?? [];
        const indexes = write.indexes ?? [];
        const keys = [write.key, write.unless ?? write.key, ...clear, ...aliases.map((alias) => alias.key), ...indexes];
        const args = [
          write.value,
          String(write.ttlSeconds && write.ttlSeconds > 0 ? seconds(write.ttlSeconds) : 0),
          write.unless ? '1' : '0',
          String(clear.length),
          String(aliases.length),
          String(indexes.length),
          ...aliases.map((alias) => alias.value),
        ];
        return (await redis.putRecord(keys.length, ...keys, ...args)) === 1;
      }),
    markOnce: (recordKey, markKey, value) => guard(() => redis.markOnce(recordKey, markKey, value)),
    closeIndex: (indexKey, tombstoneKey, ttl) => guard(() => redis.closeIndex(indexKey, tombstoneKey, String(seconds(ttl)))),
    ping: () =>
      guard(async () => {
        await redis.ping();
      }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
