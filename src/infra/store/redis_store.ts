// Store over ioredis, on one server, a Sentinel-watched master or a Redis Cluster. Multi-key
// steps run as Lua scripts (store_scripts.ts, sent as EVALSHA once loaded), so each
// is atomic and costs one round trip. On a cluster a script may only touch one hash slot: the
// keys (keys.ts) put what one step needs under one hash tag, and the steps whose keys cannot
// share a slot (a record and its lookups, the records a revoked grant deletes or a token bound
// evicts, a consumed record and its grant index entry) are split, in an order that keeps their
// guarantee (writes_across_slots.ts). The client fails fast when Redis is
// gone (no offline queue, a command deadline) and reconnects on its own.
import { Cluster, type Redis } from 'ioredis';
import { defaultNumber } from '../../config/config.js';
import {
  bySlot,
  createRedisClient,
  REDIS_CLIENT_DEFAULTS,
  type RedisClient,
  type RedisClientTuning,
  type RedisConnection,
  redisClientOptions,
} from './redis_connection.js';
import { createIndexJoinsInTurn } from './index_joins_in_turn.js';
import { type RedisGuard, redisGuard } from './redis_guard.js';
import { createReplicatedWrite } from './replicated_write.js';
import { boundArgs, seconds, ttlArg } from './script_args.js';
import type { MarkOutcome, RecordWrite, Store } from './store.js';
import { defineStoreScripts } from './store_scripts.js';
import { createWritesAcrossSlots } from './writes_across_slots.js';

export type RedisStoreOptions = RedisClientTuning & {
  /**
   * Replicas that must hold a single-use or revocation write before it counts (WAIT), 0 = none.
   * Replication is asynchronous: without it a failover can lose such a write the master had
   * acknowledged. When fewer acknowledge within half the command deadline: store_unavailable.
   */
  waitReplicas?: number;
  /** Told of each connection error and each command refused as an outage (the metrics count them). */
  onError?: (kind: 'connection' | 'command') => void;
};
export const REDIS_STORE_DEFAULTS = REDIS_CLIENT_DEFAULTS;
export { redisClientOptions };

// Stands for the id in the keys of getViaLookup, to split them around it.
const ID_PLACEHOLDER = '\u0000id\u0000';

/** A Redis store, with its client and its guard for parts that bring their own Redis logic (rate limits). */
export type RedisStore = Store & {
  readonly kind: 'redis';
  /** A server's or a cluster's client (the command API is the same; keys of one step share a slot). */
  readonly client: Redis;
  /** Runs commands on `client` under the store's guard (redis_guard.ts): first connection, deadline, outage = 503. */
  guarded: RedisGuard;
};

/** The store on a connection (a plain string is a REDIS_URL). */
export function createRedisStore(connection: RedisConnection | string, options: RedisStoreOptions = {}): RedisStore {
  const client = createRedisClient(connection, options);
  client.on('error', () => options.onError?.('connection'));
  return wrapRedis(client, options);
}

export function wrapRedis(client: RedisClient, options: RedisStoreOptions = {}): RedisStore {
  const redis = defineStoreScripts(client);
  // A cluster serves each slot from its own master: multi-key commands are split per slot.
  const sharded = client instanceof Cluster;
  const { commandTimeoutMs } = { ...REDIS_STORE_DEFAULTS, ...options };
  const guard = redisGuard(client, { commandTimeoutMs, onOutage: () => options.onError?.('command') });
  const waitReplicas = options.waitReplicas ?? defaultNumber('redis.waitReplicas');
  const waitTimeoutMs = Math.max(10, Math.floor(commandTimeoutMs / 2));
  const replicated = createReplicatedWrite(redis, waitReplicas, waitTimeoutMs);
  const { putRecordAcrossSlots, markOnceAcrossSlots } = createWritesAcrossSlots(redis, replicated, () => options.onError?.('command'));
  const joinInTurn = createIndexJoinsInTurn(redis);

  return {
    kind: 'redis',
    guarded: guard,
    client: redis,
    get: (key) => guard(() => redis.get(key).then((value) => value ?? undefined)),
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
    take: (key) => guard(async () => (await replicated<string | null>('getdel', key)) ?? undefined),
    delete: (...keys) =>
      guard(async () => {
        if (!keys.length) return;
        // On a cluster one DEL per slot, all at once: each is atomic on its own master.
        await Promise.all((sharded ? bySlot(keys) : [keys]).map((group) => replicated('del', ...group)));
      }),
    ttl: (key) =>
      guard(async () => {
        const left = await redis.ttl(key);
        if (left === -2) return undefined;
        return left === -1 ? Number.POSITIVE_INFINITY : left;
      }),
    addToIndex: (key, member, ttl, options) =>
      guard(async () => {
        const args = [member, String(ttl > 0 ? seconds(ttl) : 0), options?.onlyLater ? '1' : '0'] as const;
        if (sharded) await redis.addToIndexes(1, key, ...args);
        else await joinInTurn(key, args);
      }),
    // One index is the case of one bound (add_to_indexes_within.lua answers 0 when listed).
    addToIndexWithin: (key, member, ttl, max) =>
      guard(async () => (await redis.addToIndexesWithin(1, key, member, String(ttl > 0 ? seconds(ttl) : 0), String(max))) === 0),
    addToIndexesWithin: (bounds, member, ttl) =>
      guard(async () => {
        const args = [member, String(ttl > 0 ? seconds(ttl) : 0), ...bounds.map(({ max }) => String(max))];
        const full = await redis.addToIndexesWithin(bounds.length, ...bounds.map(({ key }) => key), ...args);
        return full === 0 ? undefined : bounds[full - 1]!.key;
      }),
    indexMembers: (key) => guard(() => redis.indexMembersLive(key)),
    removeFromIndex: (key, ...members) =>
      guard(async () => {
        if (members.length) await redis.removeFromIndex(key, ...members);
      }),
    compareAndSet: (key, expected, next, ttl) =>
      guard(async () => {
        const life = ttl === undefined ? '-' : ttl > 0 ? String(seconds(ttl)) : '0';
        const [swapped, current] = await replicated<[number, string | null]>('compareAndSet', key, next, life, ...expected);
        return { swapped: swapped === 1, current: current ?? undefined };
      }),
    getMany: (keys) => {
      if (!keys.length) return Promise.resolve([]);
      // One server (or one key): one MGET, its answers in the keys' order.
      if (!sharded || keys.length === 1) return guard(() => redis.mget(...keys).then((values) => values.map((value) => value ?? undefined)));
      return guard(async () => {
        const groups = bySlot(keys);
        // One MGET per slot (one in all for a record and its mark, which share a tag).
        const read = new Map<string, string | null>();
        await Promise.all(
          groups.map(async (group) => {
            const values = await redis.mget(...group);
            for (const [i, key] of group.entries()) read.set(key, values[i] ?? null);
          }),
        );
        return keys.map((key) => read.get(key) ?? undefined);
      });
    },
    getViaLookup: (lookupKey, keysOf) =>
      guard(async () => {
        if (sharded) {
          const id = (await redis.get(lookupKey)) ?? undefined;
          if (id === undefined) return undefined;
          const values = await Promise.all(keysOf(id).map(async (key) => (await redis.get(key)) ?? undefined));
          return { id, values };
        }
        const parts = keysOf(ID_PLACEHOLDER).flatMap((key) => {
          const [before, after, ...more] = key.split(ID_PLACEHOLDER);
          if (after === undefined || more.length) throw new Error(`getViaLookup: ${key} must hold the id once`);
          return [before!, after];
        });
        const [id, ...values] = await redis.getViaLookup(lookupKey, ...parts);
        return id ? { id, values: values.map((value) => value || undefined) } : undefined;
      }),
    putRecord: (write: RecordWrite) =>
      guard(async () => {
        if (sharded) return putRecordAcrossSlots(write);
        const clear = write.clear ?? [];
        const aliases = write.aliases ?? [];
        const indexes = write.indexes ?? [];
        // A record alone (an Interaction, a Grant) is one SET: no script, nothing to keep together.
        if (!write.unless && !clear.length && !aliases.length && !indexes.length && !write.bounded) {
          const ttl = ttlArg(write);
          await (ttl === '0' ? redis.set(write.key, write.value) : redis.set(write.key, write.value, 'EX', Number(ttl)));
          return true;
        }
        const bounded = write.bounded ? [write.bounded.key] : [];
        const keys = [write.key, write.unless ?? write.key, ...clear, ...aliases.map((alias) => alias.key), ...indexes, ...bounded];
        const args = [
          write.value,
          ttlArg(write),
          write.unless ? '1' : '0',
          String(clear.length),
          String(aliases.length),
          String(indexes.length),
          ...aliases.map((alias) => alias.value),
          ...boundArgs(write.bounded),
        ];
        return (await redis.putRecord(keys.length, ...keys, ...args)) === 1;
      }),
    markOnce: (recordKey, markKey, value, keep) =>
      guard(async () => {
        const keepMs = keep ? String(seconds(keep.seconds) * 1000) : '0';
        if (!keep?.index) return replicated<MarkOutcome>('markOnce', 2, recordKey, markKey, value, keepMs);
        if (sharded) return markOnceAcrossSlots(recordKey, markKey, value, keepMs, { index: keep.index, bounded: keep.bounded });
        const bounded = keep.bounded ? [keep.bounded.key] : [];
        const bound = keep.bounded ? boundArgs(keep.bounded) : [];
        return replicated<MarkOutcome>('markOnce', 3 + bounded.length, recordKey, markKey, keep.index, ...bounded, value, keepMs, ...bound);
      }),
    readCountingAttempt: (recordKey, markKey, counterKey, only) =>
      guard(async () => {
        const fallbackMs = String(seconds(only.fallbackSeconds) * 1000);
        const [record, mark, attempts] = await redis.readCountingAttempt(recordKey, markKey, counterKey, only.field, only.equals, fallbackMs);
        return { record: record ?? undefined, mark: mark ?? undefined, attempts };
      }),
    closeIndexes: (indexKeys, tombstoneKey, ttl) => {
      const all = [tombstoneKey, ...indexKeys];
      if (sharded && bySlot(all).length > 1) throw new Error(`closeIndexes: ${all.join(', ')} must share one hash tag`);
      return guard(() => replicated('closeIndexes', all.length, ...all, String(seconds(ttl))));
    },
    ping: () =>
      guard(async () => {
        await redis.ping();
      }),
    close: async () => {
      // QUIT, then disconnect: a Sentinel client's watch on the Sentinels ends only with disconnect.
      await redis.quit().catch(() => {});
      redis.disconnect();
    },
  };
}
