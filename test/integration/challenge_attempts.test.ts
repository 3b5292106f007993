// A challenge read with its attempt counted (Store.readCountingAttempt), on a real redis-server,
// a real cluster and in memory: counted only for a record that exists, unused, for the same
// binding; 30 readers at once, on two clients, get the counts 1 to 30 once each; the counter
// dies with its record.
import { keys } from '../../src/infra/store/keys.js';
import { createRedisStore } from '../../src/infra/store/redis_store.js';
import type { Store } from '../../src/infra/store/store.js';
import { startRedisServer } from '../support/redis_server.js';
import { backendForTests, clusterBackend, memoryBackend, redisBackend } from '../support/store_backends.js';

const NONCE = 'n0nce';
const [RECORD, MARK, COUNTER] = [keys.challenge(NONCE), keys.usedChallenge(NONCE), keys.challengeAttempts(NONCE)];
const mine = { field: 'binding', equals: 'interaction:mine', fallbackSeconds: 300 };
const read = (store: Store, only = mine) => store.readCountingAttempt(RECORD, MARK, COUNTER, only);

describe.each([redisBackend, clusterBackend, memoryBackend])('a challenge read with its attempt counted ($name)', (backend) => {
  const b = backendForTests(backend);

  const issue = () => b.store.set(RECORD, JSON.stringify({ nonce: NONCE, binding: 'interaction:mine' }), 60);

  test('a nonce never issued reads as missing and makes no counter', async () => {
    expect(await read(b.store)).toEqual({ attempts: 0 });
    expect(await b.store.get(COUNTER)).toBeUndefined();
  });

  test('another binding reads the record but counts nothing; the same binding counts one per read', async () => {
    await issue();
    const other = await read(b.store, { ...mine, equals: 'interaction:other' });
    expect(other).toEqual({ record: expect.stringContaining('interaction:mine'), attempts: 0 });
    expect(await b.store.get(COUNTER)).toBeUndefined();
    expect((await read(b.store)).attempts).toBe(1);
    expect((await read(b.store)).attempts).toBe(2);
    // The counter lives no longer than the record.
    const [record, counter] = [await b.store.ttl(RECORD), await b.store.ttl(COUNTER)];
    expect(counter).toBeGreaterThan(0);
    expect(counter).toBeLessThanOrEqual(record!);
  });

  test('a used or burnt challenge reads with its mark and counts nothing', async () => {
    await issue();
    expect((await read(b.store)).attempts).toBe(1);
    expect(await b.store.markOnce(RECORD, MARK, 'burnt')).toBe('marked');
    expect(await read(b.store)).toEqual({ record: expect.any(String), mark: 'burnt', attempts: 0 });
    expect(await b.store.get(COUNTER)).toBe('1');
  });

  test('the counter expires with its record', async () => {
    await b.store.set(RECORD, JSON.stringify({ binding: 'interaction:mine' }), 1);
    expect((await read(b.store)).attempts).toBe(1);
    await b.expire('the counter is gone with the record', 1, async () => (await b.store.get(COUNTER)) === undefined);
  });
});

test('30 readers at once on two clients of one redis-server get each count from 1 to 30 once', async () => {
  const server = await startRedisServer();
  const [one, two] = [createRedisStore(server.url), createRedisStore(server.url)];
  try {
    await one.set(RECORD, JSON.stringify({ binding: 'interaction:mine' }), 60);
    const counts = await Promise.all(Array.from({ length: 30 }, (_, i) => read(i % 2 ? two : one).then((answer) => answer.attempts)));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  } finally {
    await Promise.all([one.close(), two.close()]);
    await server.stop();
  }
});
