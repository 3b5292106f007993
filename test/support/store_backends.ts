// The Store backends for suites that must hold on each: Redis on a real redis-server, Redis
// Cluster on three real masters, and the memory store with a clock the test moves.
import { Cluster, Redis } from 'ioredis';
import { createMemoryStore } from '../../src/store/memory_store.js';
import { createRedisStore } from '../../src/store/redis_store.js';
import type { Store } from '../../src/store/store.js';
import { type RedisCluster, startRedisCluster } from './redis_cluster.js';
import { type RedisServer, startRedisServer } from './redis_server.js';

export interface StoreBackend {
  /** The store under test; replaced by reset(). */
  readonly store: Store;
  start(): Promise<void>;
  /** Empties the store before each test. */
  reset(): Promise<void>;
  /** Lets `seconds` pass as the store sees time (real time for Redis, the clock for memory). */
  elapse(seconds: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

export function redisBackend(): StoreBackend {
  let server: RedisServer | undefined;
  let admin: Redis | undefined;
  let store: Store | undefined;
  return {
    get store() {
      return store!;
    },
    async start() {
      server = await startRedisServer();
      store = createRedisStore(server.url);
      admin = new Redis(server.url, { maxRetriesPerRequest: 2 });
    },
    async reset() {
      await admin!.flushall();
    },
    elapse: (seconds) => sleep(seconds * 1000),
    async stop() {
      await store?.close();
      await admin?.quit();
      await server?.stop();
    },
  };
}

/** Empties every master of a cluster (FLUSHALL reaches one node only). */
export async function flushCluster(admin: Cluster): Promise<void> {
  if (admin.status !== 'ready') await new Promise((ready) => admin.once('ready', ready));
  await Promise.all(admin.nodes('master').map((node) => node.flushall()));
}

/** A client for test set-up and inspection on a cluster, with an offline queue (not fail-fast). */
export function clusterAdmin(cluster: RedisCluster): Cluster {
  return new Cluster(cluster.nodes.map(({ host, port }) => ({ host, port })));
}

export function clusterBackend(): StoreBackend {
  let cluster: RedisCluster | undefined;
  let admin: Cluster | undefined;
  let store: Store | undefined;
  return {
    get store() {
      return store!;
    },
    async start() {
      cluster = await startRedisCluster();
      const seeds = cluster.nodes.map(({ host, port }) => ({ host, port }));
      store = createRedisStore({ kind: 'cluster', seeds, tls: false });
      admin = clusterAdmin(cluster);
      await store.ping();
    },
    async reset() {
      await flushCluster(admin!);
    },
    elapse: (seconds) => sleep(seconds * 1000),
    async stop() {
      await store?.close();
      await admin?.quit();
      await cluster?.stop();
    },
  };
}

export function memoryBackend(): StoreBackend {
  let clock = Date.UTC(2030, 0, 1);
  let store = createMemoryStore(() => clock);
  return {
    get store() {
      return store;
    },
    async start() {},
    async reset() {
      clock = Date.UTC(2030, 0, 1);
      store = createMemoryStore(() => clock);
    },
    async elapse(seconds) {
      clock += seconds * 1000;
    },
    async stop() {
      await store.close();
    },
  };
}
