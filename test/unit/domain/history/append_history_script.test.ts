// The history's append (src/domain/history/scripts/append_history.lua), run by the command named
// after its file on a real redis-server: entries added, each log written trimmed by age and by
// count with its life renewed, and one identity's failure costing its own entries only.
import type { Redis } from 'ioredis';
import { HISTORY_SCRIPTS } from '../../../../src/domain/history/history_log.js';
import { luaScriptClient } from '../../../support/lua_script_client.js';
import { redisForTests } from '../../../support/redis_for_tests.js';

type Appending = Redis & { appendHistory(...keysThenArgs: string[]): Promise<[number, number]> };

const redis = redisForTests();
const scripted = luaScriptClient<Appending>(redis, HISTORY_SCRIPTS);

test('adds each entry to its log, then keeps only the newest entries at or after keep-from, and renews the life', async () => {
  await redis.admin.zadd('log:a', '50', 'too old');
  // keep-from 100, at most 2 entries, ttl 600; entries: log, text, score.
  const answer = await scripted().appendHistory(
    '2',
    'log:a',
    'log:b',
    '100',
    '2',
    '600',
    '1',
    'a1',
    '100',
    '1',
    'a2',
    '200',
    '1',
    'a3',
    '300',
    '2',
    'b1',
    '150',
  );
  expect(answer).toEqual([0, 0]);
  expect(await redis.admin.zrange('log:a', '0', '-1')).toEqual(['a2', 'a3']);
  expect(await redis.admin.zrange('log:b', '0', '-1')).toEqual(['b1']);
  expect(await redis.admin.ttl('log:a')).toBe(600);
  expect(await redis.admin.ttl('log:b')).toBe(600);
});

test("a log of another type loses its own entries and is not trimmed; the others' are written", async () => {
  await redis.admin.set('log:bad', 'a string');
  const answer = await scripted().appendHistory('2', 'log:bad', 'log:ok', '0', '10', '60', '1', 'x1', '1', '1', 'x2', '2', '2', 'y1', '3');
  expect(answer).toEqual([2, 0]);
  expect(await redis.admin.get('log:bad')).toBe('a string');
  expect(await redis.admin.ttl('log:bad')).toBe(-1);
  expect(await redis.admin.zrange('log:ok', '0', '-1')).toEqual(['y1']);
});

test('a log no entry went to is left alone', async () => {
  await redis.admin.zadd('log:idle', '1', 'kept');
  await scripted().appendHistory('2', 'log:a', 'log:idle', '100', '1', '60', '1', 'a1', '200');
  expect(await redis.admin.zrange('log:idle', '0', '-1')).toEqual(['kept']);
  expect(await redis.admin.ttl('log:idle')).toBe(-1);
});
