// The access history's bounds, on real Redis and on the demo's memory store alike: entries
// older than historyDays go, at most historyEntries stay (the oldest go first), the log's key
// expires historyDays after its last write, and "last read" follows each grant's newest release.

import { createAccessHistory, type Release } from '../../../../src/domain/history/access_history.js';
import { createHistoryLog } from '../../../../src/domain/history/history_log.js';
import { keys } from '../../../../src/infra/store/keys.js';
import { createMemoryStore } from '../../../../src/infra/store/memory_store.js';
import { createRedisStore, type RedisStore } from '../../../../src/infra/store/redis_store.js';
import type { Store } from '../../../../src/infra/store/store.js';
import { type RedisServer, startRedisServer } from '../../../support/redis_server.js';
import { clusterBackend, redisBackend } from '../../../support/store_backends.js';
import { waitUntil } from '../../../support/wait_until.js';

const IDENTITY = '0x00000000000000000000000000000000000000aa';
const DAY = 86_400_000;
let redis: RedisServer;
let redisStore: RedisStore;

beforeAll(async () => {
  redis = await startRedisServer();
  redisStore = createRedisStore(redis.url);
});

afterAll(async () => {
  await redisStore.close();
  await redis.stop();
});

const release = (n: number, grant = 'g1'): Release => ({
  client_id: 'website',
  grant_id: grant,
  door: 'userinfo',
  fields: [`field${n}`],
  claims: [],
  client_address: '192.0.2.1',
});

function historyOn(store: Store, clock: { now: number }) {
  const lost: unknown[] = [];
  const history = createAccessHistory({
    log: createHistoryLog(store, () => clock.now),
    settings: { historyDays: 2, historyEntries: 10 },
    clientName: (id) => `name of ${id}`,
    now: () => clock.now,
    onLost: (error) => lost.push(error),
  });
  return { history, lost };
}

describe.each([
  ['redis', () => redisStore as Store],
  ['memory', () => createMemoryStore()],
])('on %s', (_kind, storeOf) => {
  test("bounded by count and by age, newest first, with each grant's last read", async () => {
    const store = storeOf();
    await store.delete(keys.history(IDENTITY), keys.historyLastRead(IDENTITY));
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const { history, lost } = historyOn(store, clock);
    for (let n = 0; n < 25; n++) {
      clock.now += 1000;
      history.record(IDENTITY, release(n, n % 2 ? 'odd' : 'even'));
    }
    await waitUntil('25 records were written', async () => (await history.all(IDENTITY)).some((entry) => entry.fields[0] === 'field24'));
    const kept = await history.all(IDENTITY);
    // The newest 10, newest first.
    expect(kept.map((entry) => entry.fields[0])).toEqual(Array.from({ length: 10 }, (_, i) => `field${24 - i}`));
    expect(kept[0]).toMatchObject({ client_name: 'name of website', outcome: 'released', door: 'userinfo' });
    expect(await history.lastReads(IDENTITY)).toEqual({ even: kept[0]!.at, odd: kept[1]!.at });

    // Three days later, one more: the ten older than two days are gone.
    clock.now += 3 * DAY;
    history.record(IDENTITY, release(99));
    await waitUntil('the late record was written', async () => (await history.all(IDENTITY)).length === 1);
    expect((await history.all(IDENTITY)).map((entry) => entry.fields[0])).toEqual(['field99']);
    // A grant's last read is the kept history's: the grants whose releases aged out have none.
    expect(await history.lastReads(IDENTITY)).toEqual({ g1: (await history.all(IDENTITY))[0]!.at });
    expect(lost).toEqual([]);
  });

  test('paged with an opaque cursor, filtered by service', async () => {
    const store = storeOf();
    await store.delete(keys.history(IDENTITY), keys.historyLastRead(IDENTITY));
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const { history } = historyOn(store, clock);
    for (let n = 0; n < 5; n++) {
      clock.now += 1000;
      history.record(IDENTITY, { ...release(n), client_id: n % 2 ? 'analytics' : 'website' });
    }
    await waitUntil('5 records were written', async () => (await history.all(IDENTITY)).length === 5);
    const first = await history.page(IDENTITY as `0x${string}`, { limit: 2, client_id: 'website' });
    expect(first.entries.map((entry) => entry.fields[0])).toEqual(['field4', 'field2']);
    const second = await history.page(IDENTITY as `0x${string}`, { limit: 2, client_id: 'website', cursor: first.next_cursor! });
    expect(second).toMatchObject({ next_cursor: null });
    expect(second.entries.map((entry) => entry.fields[0])).toEqual(['field0']);
    await expect(history.page(IDENTITY as `0x${string}`, { limit: 2, cursor: 'not-a-cursor' })).rejects.toMatchObject({ reason: 'invalid_query' });
  });
});

test('on Redis the log expires historyDays after the last write, and is the only key a release writes', async () => {
  const clock = { now: Date.now() };
  const { history } = historyOn(redisStore, clock);
  await redisStore.delete(keys.history(IDENTITY), keys.historyLastRead(IDENTITY));
  history.record(IDENTITY, release(1));
  await waitUntil('the record was written', async () => (await history.all(IDENTITY)).length === 1);
  const ttl = await redisStore.client.ttl(keys.history(IDENTITY));
  expect(ttl > 2 * 86400 - 60 && ttl <= 2 * 86400).toBe(true);
  expect(await redisStore.client.exists(keys.historyLastRead(IDENTITY))).toBe(0);
});

test('a write Redis refuses is reported, not thrown', async () => {
  const clock = { now: Date.now() };
  const { history, lost } = historyOn(redisStore, clock);
  await redisStore.set(keys.history(IDENTITY), 'a string where the sorted set goes');
  expect(() => history.record(IDENTITY, release(1))).not.toThrow();
  await waitUntil('the failure was reported', () => lost.length === 1);
  await redisStore.delete(keys.history(IDENTITY));
});

describe.each([
  ['redis', redisBackend],
  ['redis cluster (one write per identity: its keys share a slot, different identities do not)', clusterBackend],
] as const)('the releases of one stretch go in one write (%s)', (_kind, makeBackend) => {
  const backend = makeBackend();
  beforeAll(() => backend.start());
  afterAll(() => backend.stop());
  const [first, second, broken] = [
    '0x00000000000000000000000000000000000000b1',
    '0x00000000000000000000000000000000000000b2',
    '0x00000000000000000000000000000000000000b3',
  ] as const;

  function batchedHistory() {
    const clock = { now: Date.now() };
    const log = createHistoryLog(backend.store, () => clock.now);
    const writes: number[] = [];
    const scheduled: (() => void)[] = [];
    const lost: unknown[] = [];
    const history = createAccessHistory({
      log: {
        ...log,
        append: (entries, bounds) => {
          writes.push(entries.length);
          return log.append(entries, bounds);
        },
      },
      settings: { historyDays: 2, historyEntries: 3 },
      clientName: (id) => `name of ${id}`,
      now: () => (clock.now += 1),
      onLost: (error) => lost.push(error),
      schedule: (flush) => scheduled.push(flush),
    });
    return { history, writes, scheduled, lost };
  }

  beforeEach(() => backend.reset());

  test('nothing is written before the stretch ends; then every identity in one write, each log bounded, a broken log losing its own entries alone', async () => {
    const { history, writes, scheduled, lost } = batchedHistory();
    await backend.store.set(keys.history(broken), 'a string where the sorted set goes');
    for (let n = 0; n < 12; n++) history.record([first, second, broken][n % 3]!, release(n, `grant${n % 3}`));
    // One flush asked for, none run: nothing reached Redis.
    expect([scheduled.length, writes]).toEqual([1, []]);
    scheduled[0]!();
    await history.flushed();
    // One call to the log; on a cluster it sends one script per identity.
    expect(writes).toEqual([12]);
    expect((await history.all(first)).map((entry) => entry.fields[0])).toEqual(['field9', 'field6', 'field3']);
    expect((await history.all(second)).map((entry) => entry.fields[0])).toEqual(['field10', 'field7', 'field4']);
    expect(Object.keys(await history.lastReads(first))).toEqual(['grant0']);
    expect(lost.map(String)).toEqual(['Error: 4 of 12 access history entries were not written (a key of another type)']);
    expect(await (backend.store as RedisStore).client.ttl(keys.history(first))).toBeGreaterThan(86_400);
  });

  test('an erasure takes the releases still waiting with it: they never bring the log back', async () => {
    const { history, writes } = batchedHistory();
    history.record(first, release(1));
    history.record(second, release(2));
    await history.erase(first);
    await history.flushed();
    expect(writes).toEqual([1]);
    expect(await history.all(first)).toEqual([]);
    expect((await history.all(second)).map((entry) => entry.fields[0])).toEqual(['field2']);
  });

  test("the owner's read writes what still waits for them first; another identity's waits on", async () => {
    const { history, writes, scheduled } = batchedHistory();
    history.record(first, release(1));
    history.record(second, release(2));
    expect((await history.page(first, { limit: 10 })).entries.map((entry) => entry.fields[0])).toEqual(['field1']);
    // The stretch's one write carried both: the other identity's entry is written, not lost.
    expect(writes).toEqual([2]);
    expect(scheduled).toHaveLength(1);
    expect((await history.all(second)).map((entry) => entry.fields[0])).toEqual(['field2']);
  });

  test('a busy stretch goes in writes of 500 releases at most, without waiting for its end', async () => {
    const { history, writes, scheduled } = batchedHistory();
    for (let n = 0; n < 1001; n++) history.record([first, second][n % 2]!, release(n));
    await history.flushed();
    expect(writes).toEqual([500, 500, 1]);
    expect(scheduled.length).toBeLessThanOrEqual(3);
  });
});
