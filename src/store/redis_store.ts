// Store over ioredis. The two multi-step operations run as Lua scripts so they stay atomic.
import { Redis } from 'ioredis';
import { unavailable } from '../errors.js';
import type { Store } from './store.js';

// SADD, then never shorten the set's life: a new set gets the TTL asked (0 = none); an
// existing one keeps no expiry if it has none, and is raised if its TTL is shorter.
const ADD_TO_INDEX = `
local existed = redis.call('EXISTS', KEYS[1])
redis.call('SADD', KEYS[1], ARGV[1])
local ttl = tonumber(ARGV[2])
local left = redis.call('TTL', KEYS[1])
if ttl == 0 then
  redis.call('PERSIST', KEYS[1])
elseif existed == 0 or (left ~= -1 and left < ttl) then
  redis.call('EXPIRE', KEYS[1], ttl)
end
return 1`;

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

/** A Redis store, with its client for the parts that bring their own Redis logic (rate limits). */
export type RedisStore = Store & { readonly kind: 'redis'; readonly client: Redis };

export function createRedisStore(url: string): RedisStore {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  // ioredis reconnects by itself; the error event only needs a listener so it does not crash.
  redis.on('error', () => {});
  return wrapRedis(redis);
}

export function wrapRedis(redis: Redis): RedisStore {
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw unavailable('the store (Redis) is unreachable', error);
    }
  };
  return {
    kind: 'redis',
    client: redis,
    get: (key) => guard(async () => (await redis.get(key)) ?? undefined),
    set: (key, value, ttl) =>
      guard(async () => {
        if (ttl) await redis.set(key, value, 'EX', Math.max(1, Math.ceil(ttl)));
        else await redis.set(key, value);
      }),
    setIfAbsent: (key, value, ttl) =>
      guard(async () => {
        const result = ttl
          ? await redis.set(key, value, 'EX', Math.max(1, Math.ceil(ttl)), 'NX')
          : await redis.set(key, value, 'NX');
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
        await redis.eval(ADD_TO_INDEX, 1, key, member, String(ttl > 0 ? Math.max(1, Math.ceil(ttl)) : 0));
      }),
    indexMembers: (key) => guard(() => redis.smembers(key)),
    increment: (key, ttl) =>
      guard(async () => Number(await redis.eval(INCREMENT, 1, key, String(Math.max(1, Math.ceil(ttl)))))),
    compareAndSet: (key, expected, next) =>
      guard(async () => {
        const [swapped, current] = (await redis.eval(COMPARE_AND_SET, 1, key, next, ...expected)) as [number, string | null];
        return { swapped: swapped === 1, current: current ?? undefined };
      }),
    ping: () =>
      guard(async () => {
        await redis.ping();
      }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
