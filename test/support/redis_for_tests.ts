// A redis-server for a test file (or a describe block): started before its tests, flushed after
// each once the cleanups the test registered have run (newest first), stopped after the last.
import { Redis } from 'ioredis';
import { type RedisServer, startRedisServer } from './redis_server.js';

export type RedisForTests = {
  readonly url: string;
  /** A client for the tests' own reads of what Signet wrote. */
  readonly admin: Redis;
  /** Run after each test, newest first, before the flush. */
  readonly cleanups: (() => Promise<void>)[];
};

export function redisForTests(): RedisForTests {
  let server: RedisServer | undefined;
  let admin: Redis | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { maxRetriesPerRequest: 2 });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await admin!.flushall();
  });
  afterAll(async () => {
    await admin?.quit();
    await server?.stop();
  });
  return {
    get url() {
      return server!.url;
    },
    get admin() {
      return admin!;
    },
    cleanups,
  };
}
