// The Store backends for suites that must hold on each: Redis on a real redis-server, Redis
// Cluster on three real masters, and the memory store with a clock the test moves.
import { Cluster, Redis } from 'ioredis';
import { createMemoryStore } from '../../src/infra/store/memory_store.js';
import { createRedisStore } from '../../src/infra/store/redis_store.js';
import type { Store } from '../../src/infra/store/store.js';
import { type RedisCluster, startRedisCluster } from './redis_cluster.js';
import { type RedisServer, startRedisServer } from './redis_server.js';
import { sleep, waitUntil } from './wait_until.js';

export interface StoreBackend {
  /** The store under test; replaced by reset(). */
  readonly store: Store;
  start(): Promise<void>;
  /** Empties the store before each test. */
  reset(): Promise<void>;
  /**
   * Lets `seconds` pass as the store sees time, for a test whose subject is a TTL: the memory
   * store's clock moves on at once; Redis keeps time on its own clock, so there this is a real
   * sleep, and the callers give the shortest span that shows what they test.
   */
  elapse(seconds: number): Promise<void>;
  /**
   * Until `expired` holds, once a TTL of at most `seconds` has run out: the memory store's clock
   * moves on by `seconds` and it must hold then; Redis is polled until it has expired the keys on
   * its own clock (failing `seconds` + 5 s on).
   */
  expire(what: string, seconds: number, expired: () => Promise<boolean>): Promise<void>;
  stop(): Promise<void>;
}

/** On Redis: a real wait for its own clock (see StoreBackend). */
const redisTime = {
  elapse: (seconds: number) => sleep(seconds * 1000),
  expire: (what: string, seconds: number, expired: () => Promise<boolean>) => waitUntil(what, expired, seconds * 1000 + 5000),
};

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
    ...redisTime,
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
    ...redisTime,
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
    async expire(what, seconds, expired) {
      clock += seconds * 1000;
      if (!(await expired())) throw new Error(`not so ${seconds} s on: ${what}`);
    },
    async stop() {
      await store.close();
    },
  };
}

/** A backend for one describe block: started before its tests, emptied before each, stopped after. */
export function backendForTests(make: () => StoreBackend): StoreBackend {
  const backend = make();
  beforeAll(() => backend.start(), 60_000);
  afterAll(() => backend.stop());
  beforeEach(() => backend.reset());
  return backend;
}
