// The access history's bounds, on real Redis and on the demo's memory store alike: entries
// older than historyDays go, at most historyEntries stay (the oldest go first), the log's key
// expires historyDays after its last write, and "last read" follows each grant's newest release.

import { createAccessHistory, type Release } from '../../../src/domain/history/access_history.js';
import { createHistoryLog } from '../../../src/domain/history/history_log.js';
import { keys } from '../../../src/infra/store/keys.js';
import { createMemoryStore } from '../../../src/infra/store/memory_store.js';
import { createRedisStore, type RedisStore } from '../../../src/infra/store/redis_store.js';
import type { Store } from '../../../src/infra/store/store.js';
import { type RedisServer, startRedisServer } from '../../support/redis_server.js';
import { waitUntil } from '../../support/wait_until.js';

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

test('on Redis the log and the last-read hash expire historyDays after the last write', async () => {
  const clock = { now: Date.now() };
  const { history } = historyOn(redisStore, clock);
  await redisStore.delete(keys.history(IDENTITY), keys.historyLastRead(IDENTITY));
  history.record(IDENTITY, release(1));
  await waitUntil('the record was written', async () => (await history.all(IDENTITY)).length === 1);
  for (const key of [keys.history(IDENTITY), keys.historyLastRead(IDENTITY)]) {
    const ttl = await redisStore.client.ttl(key);
    expect([key, ttl > 2 * 86400 - 60 && ttl <= 2 * 86400]).toEqual([key, true]);
  }
});

test('a write Redis refuses is reported, not thrown', async () => {
  const clock = { now: Date.now() };
  const { history, lost } = historyOn(redisStore, clock);
  await redisStore.set(keys.history(IDENTITY), 'a string where the sorted set goes');
  expect(() => history.record(IDENTITY, release(1))).not.toThrow();
  await waitUntil('the failure was reported', () => lost.length === 1);
  await redisStore.delete(keys.history(IDENTITY));
});

test('on Redis a read and its release are one step: the entry names the candidates the JSON holds', async () => {
  const clock = { now: Date.now() };
  const { history, lost } = historyOn(redisStore, clock);
  await redisStore.delete(keys.history(IDENTITY), keys.historyLastRead(IDENTITY));
  const profileKey = keys.profile(IDENTITY);
  await redisStore.set(profileKey, JSON.stringify({ given_name: 'Ada', email: 'ada@example.org', address: {} }));
  expect(history.readsWithRecord).toBe(true);
  const { fields: _none, ...rest } = release(1);
  // A client name with the fields mark in it cannot move where the fields go.
  const raw = await history.recordAfterRead(IDENTITY, profileKey, { ...rest, client_address: '"fields":"@fields@"}' }, ['email', 'address', 'website']);
  expect(JSON.parse(raw!)).toEqual({ given_name: 'Ada', email: 'ada@example.org', address: {} });
  const [entry] = await history.all(IDENTITY);
  expect(entry).toEqual(
    expect.objectContaining({
      client_name: 'name of website',
      grant_id: 'g1',
      door: 'userinfo',
      fields: ['email', 'address'],
      claims: [],
      outcome: 'released',
    }),
  );
  expect(entry!.client_address).toBe('"fields":"@fields@"}');
  expect(await history.lastReads(IDENTITY)).toEqual({ g1: entry!.at });
  // No profile: an entry with no fields, and nothing read.
  await redisStore.delete(profileKey);
  clock.now += 1000;
  expect(await history.recordAfterRead(IDENTITY, profileKey, rest, ['email'])).toBeUndefined();
  expect((await history.all(IDENTITY))[0]!.fields).toEqual([]);
  // A write Redis refuses: the read still answers, the loss is reported.
  await redisStore.set(profileKey, JSON.stringify({ email: 'ada@example.org' }));
  await redisStore.delete(keys.historyLastRead(IDENTITY));
  await redisStore.set(keys.history(IDENTITY), 'a string where the sorted set goes');
  expect(JSON.parse((await history.recordAfterRead(IDENTITY, profileKey, rest, ['email']))!)).toEqual({ email: 'ada@example.org' });
  expect(lost).toHaveLength(1);
  await redisStore.delete(keys.history(IDENTITY), profileKey);
});
