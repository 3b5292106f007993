// The rate limits' count (src/infra/rate_limits/scripts/count_attempt.lua), run by the command
// named after its file on a real redis-server: the count, the window's start on the first count,
// and the window's time left only past the limit.
import type { Redis } from 'ioredis';
import { RATE_LIMIT_SCRIPTS } from '../../../../src/infra/rate_limits/rate_limits.js';
import { luaScriptClient } from '../../../support/lua_script_client.js';
import { redisForTests } from '../../../support/redis_for_tests.js';

type Counting = Redis & { countAttempt(key: string, points: string, windowSeconds: string, limit: string): Promise<[number, number]> };

const redis = redisForTests();
const scripted = luaScriptClient<Counting>(redis, RATE_LIMIT_SCRIPTS);

test("the first count opens the window (the counter's life); within the limit the answer is the whole window", async () => {
  expect(await scripted().countAttempt('rl:a', '1', '60', '2')).toEqual([1, 60_000]);
  expect(await redis.admin.ttl('rl:a')).toBe(60);
  await redis.admin.expire('rl:a', 30);
  expect(await scripted().countAttempt('rl:a', '1', '60', '2')).toEqual([2, 60_000]);
  // A count within the limit leaves the window where it was.
  expect(await redis.admin.ttl('rl:a')).toBe(30);
});

test("past the limit, the window's time left", async () => {
  await scripted().countAttempt('rl:a', '1', '60', '1');
  await redis.admin.pexpire('rl:a', 20_000);
  const [count, left] = await scripted().countAttempt('rl:a', '1', '60', '1');
  expect(count).toBe(2);
  expect(left).toBeGreaterThan(15_000);
  expect(left).toBeLessThanOrEqual(20_000);
});

test('a counter past the limit that lost its expiry gets the whole window again', async () => {
  await redis.admin.set('rl:a', '5');
  expect(await scripted().countAttempt('rl:a', '1', '60', '2')).toEqual([6, 60_000]);
  expect(await redis.admin.ttl('rl:a')).toBe(60);
});

test('points above one count as many', async () => {
  expect(await scripted().countAttempt('rl:a', '3', '10', '5')).toEqual([3, 10_000]);
  expect(await redis.admin.ttl('rl:a')).toBe(10);
  expect((await scripted().countAttempt('rl:a', '3', '10', '5'))[0]).toBe(6);
});
