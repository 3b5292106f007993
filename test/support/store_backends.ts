// The two Store backends for suites that must hold on both: Redis on a real redis-server, and
// the memory store with a clock the test moves.
import { Redis } from 'ioredis';
import { createMemoryStore } from '../../src/store/memory_store.js';
import { createRedisStore } from '../../src/store/redis_store.js';
import type { Store } from '../../src/store/store.js';
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
