// A client of a test file's redis-server (redisForTests) with a list of Lua scripts registered
// as commands, as Signet's own clients have them: for the tests that run each script by name.
import { Redis } from 'ioredis';
import { defineLuaScripts, type LuaScript } from '../../src/infra/store/lua_scripts.js';
import type { RedisForTests } from './redis_for_tests.js';

/** Made before the file's tests, closed after them; `client()` is valid in between. */
export function luaScriptClient<T extends Redis>(redis: RedisForTests, scripts: readonly LuaScript[]): () => T {
  let client: Redis | undefined;
  beforeAll(() => {
    client = new Redis(redis.url);
    defineLuaScripts(client, scripts);
  });
  afterAll(() => {
    client?.disconnect();
  });
  return () => client as T;
}
