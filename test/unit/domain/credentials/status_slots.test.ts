// The status-slot allocator on a real Redis: the cost of a slot, counted in Redis commands
// (INFO's total_commands_processed), stays the same however many lists are full, and no slot
// is ever given in a list the status route does not serve. Full lists are filled through Redis
// itself (a script writing every slot key of a list), as years of issuance would leave them.
import { describe, expect, it } from '@jest/globals';
import { SignetError } from '../../../../src/base/errors.js';
import { createStatusLists, STATUS_LIST_SIZE, STATUS_LISTS } from '../../../../src/domain/credentials/status_lists.js';
import { keys } from '../../../../src/infra/store/keys.js';
import { createRedisStore, type RedisStore } from '../../../../src/infra/store/redis_store.js';
import { redisForTests } from '../../../support/redis_for_tests.js';

const redis = redisForTests();
const DAY_MS = 86_400_000;

/** Every slot of these lists taken, as by credentials still standing. */
async function fill(...lists: number[]) {
  const script = "for i = 0, tonumber(ARGV[2]) - 1 do redis.call('SET', ARGV[1] .. i, 'x') end";
  for (const list of lists) await redis.admin.eval(script, 0, keys.statusSlot(list, 0).slice(0, -1), STATUS_LIST_SIZE);
}

/** The commands Redis ran for `work`, the reads of the counter aside. */
async function commandsOf<T>(work: () => Promise<T>): Promise<{ result: T; commands: number }> {
  const count = async () => Number(/total_commands_processed:(\d+)/.exec(await redis.admin.info('stats'))![1]);
  const before = await count();
  const result = await work();
  // The first INFO is counted once it has run: it is the one command that is not the work's.
  return { result, commands: (await count()) - before - 1 };
}

function allocator() {
  const store: RedisStore = createRedisStore(redis.url);
  redis.cleanups.push(() => store.close());
  // Draws in order, so that which slot is free is known: a full list refuses every draw alike.
  let next = 0;
  const lists = createStatusLists(store, Date.now, (size) => next++ % size);
  return { lists, store };
}

describe('status slots', () => {
  it('cost two Redis commands each, with five full lists as with none', async () => {
    const { lists, store } = allocator();
    await store.ping();
    const fresh = await commandsOf(() => lists.take('credential-0', Date.now() + DAY_MS));
    expect(fresh).toEqual({ result: { list: 0, index: 0 }, commands: 2 });

    await redis.admin.flushall();
    await fill(0, 1, 2, 3, 4);
    // The first slot after them moves the open list on through the five (16 draws each, and the move).
    const moving = await commandsOf(() => lists.take('credential-1', Date.now() + DAY_MS));
    expect(moving.result.list).toBe(5);
    expect(moving.commands).toBeLessThanOrEqual(5 * (16 + 3) + 1);
    // Then every slot costs what it cost with no list full: the open list's number, one SET NX.
    const started = performance.now();
    for (let i = 0; i < 100; i++) {
      const taken = await commandsOf(() => lists.take(`credential-${i + 2}`, Date.now() + DAY_MS));
      expect({ list: taken.result.list, commands: taken.commands }).toEqual({ list: 5, commands: 2 });
    }
    console.info(`100 status slots with five full lists: ${(performance.now() - started).toFixed(1)} ms, 2 Redis commands each`);
    expect(await redis.admin.get(keys.statusOpenList())).toBe('5');
    expect(await redis.admin.ttl(keys.statusOpenList())).toBeGreaterThan(366 * 86_400);
  });

  it('never give a slot in a list the status route does not serve: after the last list comes list 0', async () => {
    const { lists } = allocator();
    await redis.admin.set(keys.statusOpenList(), String(STATUS_LISTS - 1));
    await fill(STATUS_LISTS - 1);
    const taken = await lists.take('credential-a', Date.now() + DAY_MS);
    expect(taken.list).toBe(0);
    expect(await redis.admin.get(keys.statusOpenList())).toBe('0');
    // A number that is not a list (written by hand, or by an older Signet) reads as list 0.
    await redis.admin.set(keys.statusOpenList(), String(STATUS_LISTS));
    expect((await lists.take('credential-b', Date.now() + DAY_MS)).list).toBe(0);
  });

  it('are refused, 503 credential_status_full, after eight full lists in one search; the next search goes on from there', async () => {
    const { lists } = allocator();
    await fill(0, 1, 2, 3, 4, 5, 6, 7);
    const refused = await commandsOf(() => lists.take('credential-x', Date.now() + DAY_MS).catch((error: unknown) => error));
    expect(refused.result).toBeInstanceOf(SignetError);
    expect(refused.result).toMatchObject({ status: 503, reason: 'credential_status_full', retryAfterSeconds: 3600 });
    expect(refused.commands).toBeLessThanOrEqual(8 * (16 + 3) + 1);
    const taken = await commandsOf(() => lists.take('credential-y', Date.now() + DAY_MS));
    expect(taken).toEqual({ result: { list: 8, index: expect.any(Number) }, commands: 2 });
  });
});
