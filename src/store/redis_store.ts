// Store over ioredis. The two multi-step operations run as Lua scripts so they stay atomic.
import { Redis } from 'ioredis';
import { unavailable } from '../errors.js';
import type { Store } from './store.js';

// SADD, then raise the TTL only if it is shorter than asked (-1 means none: set it).
const ADD_TO_INDEX = `
redis.call('SADD', KEYS[1], ARGV[1])
local left = redis.call('TTL', KEYS[1])
if left < tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1`;

export function createRedisStore(url: string): Store {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  // ioredis reconnects by itself; the error event only needs a listener so it does not crash.
  redis.on('error', () => {});
  return wrapRedis(redis);
}

export function wrapRedis(redis: Redis): Store {
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw unavailable('the store (Redis) is unreachable', error);
    }
  };
  return {
    kind: 'redis',
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
        await redis.eval(ADD_TO_INDEX, 1, key, member, String(Math.max(1, Math.ceil(ttl))));
      }),
    indexMembers: (key) => guard(() => redis.smembers(key)),
    ping: () =>
      guard(async () => {
        await redis.ping();
      }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
