// Where Signet's Redis is and how to reach it: one server (REDIS_URL), a Redis Cluster
// (REDIS_CLUSTER) or a master watched by Sentinels (REDIS_SENTINELS). One factory builds the
// ioredis client for every user (the store, the webhook queue, the rate limiter) with the same
// fail-fast settings, so an outage answers the same way everywhere.
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { type Config, defaultNumber } from '../../config/config.js';
import { followSentinels } from './sentinel_follower.js';

export type HostPort = { host: string; port: number };

export type RedisConnection =
  | { kind: 'server'; url: string; password?: string }
  | { kind: 'cluster'; seeds: HostPort[]; password?: string; tls: boolean }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string; password?: string; sentinelPassword?: string; tls: boolean };

/** A client of one server (or of a Sentinel-watched master), or of a whole cluster: the commands are the same. */
export type RedisClient = Redis | Cluster;

export type RedisClientTuning = {
  /** A command without an answer after this long fails (a silent or stalled Redis). */
  commandTimeoutMs?: number;
  /** Longest pause between reconnection attempts: bounds how long recovery takes. */
  reconnectMaxDelayMs?: number;
};

export const REDIS_CLIENT_DEFAULTS = {
  commandTimeoutMs: defaultNumber('redis.commandTimeoutMs'),
  reconnectMaxDelayMs: defaultNumber('redis.reconnectMaxDelayMs'),
} as const;

/** "host:port" to its parts (the form of REDIS_CLUSTER and REDIS_SENTINELS entries). */
export function parseHostPort(text: string): HostPort {
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(text.slice(at + 1)) };
}

/** The connection the configuration names, or undefined when Signet runs on the memory store. */
export function redisConnectionOf(config: Config): RedisConnection | undefined {
  const { cluster, sentinels, sentinelName, password, sentinelPassword, tls } = config.redisServers;
  if (config.redisUrl) return { kind: 'server', url: config.redisUrl, password };
  if (cluster) return { kind: 'cluster', seeds: cluster.map(parseHostPort), password, tls };
  if (sentinels) {
    return { kind: 'sentinel', sentinels: sentinels.map(parseHostPort), name: sentinelName!, password, sentinelPassword, tls };
  }
  return undefined;
}

/** The client settings that make an outage fail fast and a recovery quick. */
export function redisClientOptions(tuning: RedisClientTuning = {}): RedisOptions {
  const { commandTimeoutMs, reconnectMaxDelayMs } = { ...REDIS_CLIENT_DEFAULTS, ...tuning };
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
    // Closing a client that never reached Redis otherwise holds the process 2 s.
    disconnectTimeout: 500,
    retryStrategy: (attempt) => Math.min(50 * attempt, reconnectMaxDelayMs),
  };
}

/** Builds the client for a connection (a plain string is a REDIS_URL). */
export function createRedisClient(connection: RedisConnection | string, tuning: RedisClientTuning = {}): RedisClient {
  const target: RedisConnection = typeof connection === 'string' ? { kind: 'server', url: connection } : connection;
  const failFast = redisClientOptions(tuning);
  const { reconnectMaxDelayMs } = { ...REDIS_CLIENT_DEFAULTS, ...tuning };
  const password = target.password ? { password: target.password } : {};
  let client: RedisClient;
  if (target.kind === 'server') {
    client = new Redis(target.url, { ...failFast, ...password });
  } else if (target.kind === 'cluster') {
    const { retryStrategy, enableOfflineQueue, enableAutoPipelining: _perServer, ...perNode } = failFast;
    client = new Cluster(target.seeds, {
      enableOfflineQueue,
      // Off on a cluster: batches of commands for different slots were refused as an outage
      // (every cluster test failed with it on).
      enableAutoPipelining: false,
      clusterRetryStrategy: retryStrategy,
      // A slot moving or a cluster electing: retried shortly, within the command deadline.
      retryDelayOnFailover: 50,
      retryDelayOnClusterDown: 50,
      retryDelayOnTryAgain: 50,
      redisOptions: { ...perNode, ...password, ...(target.tls ? { tls: {} } : {}) },
    });
  } else {
    client = new Redis({
      ...failFast,
      ...password,
      // Off behind Sentinels too: one failover test run after it was turned on never served
      // again; unproven as the cause, but its gain is under load on one server, not in a switch.
      enableAutoPipelining: false,
      sentinels: target.sentinels,
      name: target.name,
      ...(target.sentinelPassword ? { sentinelPassword: target.sentinelPassword } : {}),
      ...(target.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
      sentinelRetryStrategy: (attempt) => Math.min(50 * attempt, reconnectMaxDelayMs),
      // The Sentinels' +switch-master notices are followed by sentinel_follower.ts, which moves
      // the client only when it is not on the new master yet; ioredis's detector moved it on
      // every Sentinel's notice, after it had already arrived.
      failoverDetector: false,
      // A write refused by a demoted master whose notice was missed: reconnect (the Sentinels
      // then name the new master); the refused command fails, as any command in a switch.
      reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 1 : false),
    });
    followSentinels(client, { ...target, reconnectMaxDelayMs });
  }
  // ioredis reconnects by itself; the error event only needs a listener so it does not crash.
  client.on('error', () => {});
  return client;
}

/** A wait for the first connection (at most `ms`), and `done()`: whether it has come, so there is nothing to wait for. */
export type FirstConnection = { (ms: number): Promise<void>; done(): boolean };

/**
 * Waits for the client's first connection, at most `ms`. Without an offline queue a command
 * sent before it would fail; later outages fail fast, as they should.
 */
export function firstConnection(client: RedisClient): FirstConnection {
  let connected = client.status === 'ready';
  const ready = new Promise<void>((resolve) => {
    if (connected) return resolve();
    client.once('ready', () => {
      connected = true;
      resolve();
    });
  });
  const wait = async (ms: number) => {
    if (connected) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ready, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  };
  return Object.assign(wait, { done: () => connected });
}

/**
 * The hash slot group of a key: its hash tag (the text between the first "{" and the next "}")
 * or, without one, the whole key. Keys of one group are in one slot of a Redis Cluster.
 */
export function slotGroup(key: string): string {
  const open = key.indexOf('{');
  if (open >= 0) {
    const close = key.indexOf('}', open + 1);
    if (close > open + 1) return key.slice(open + 1, close);
  }
  return key;
}

/** Keys grouped so each group lies in one slot, in first-seen order. */
export function bySlot(keys: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const group = slotGroup(key);
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  return [...groups.values()];
}
