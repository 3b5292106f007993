// Store.addToIndexesWithin, the step that admits a registered client into the cap and into its
// address's and network's places at once (decision 72), on every backend: Redis, a real
// three-master Redis Cluster (its keys share one hash slot) and the memory store.
import { keys } from '../../../../src/infra/store/keys.js';
import { clusterBackend, memoryBackend, redisBackend } from '../../../support/store_backends.js';

describe.each([
  ['redis', redisBackend],
  ['redis cluster', clusterBackend],
  ['memory', memoryBackend],
] as const)('addToIndexesWithin (%s store)', (_name, makeBackend) => {
  const backend = makeBackend();
  const all = keys.registeredClients();
  const address = keys.registeredFromAddress('192.0.2.1');
  const network = keys.registeredFromNetwork('192.0.2.0/24');
  const bounds = [
    { key: address, max: 2 },
    { key: network, max: 3 },
    { key: all, max: 4 },
  ];

  beforeAll(async () => {
    await backend.start();
  }, 60_000);

  afterAll(async () => {
    await backend.stop();
  });

  beforeEach(async () => {
    await backend.reset();
  });

  test('all or none: the first full index is named, and nothing is written then', async () => {
    const { store } = backend;
    expect(await store.addToIndexesWithin(bounds, 'a', 60)).toBeUndefined();
    expect(await store.addToIndexesWithin(bounds, 'b', 60)).toBeUndefined();
    expect(await store.addToIndexesWithin(bounds, 'c', 60)).toBe(address);
    for (const key of [address, network, all]) expect((await store.indexMembers(key)).sort()).toEqual(['a', 'b']);
    // Another address of the network fills it; the cap is the last bound.
    const other = [{ key: keys.registeredFromAddress('192.0.2.9'), max: 2 }, ...bounds.slice(1)];
    expect(await store.addToIndexesWithin(other, 'd', 60)).toBeUndefined();
    expect(await store.addToIndexesWithin(other, 'e', 60)).toBe(network);
    const elsewhere = [{ key: keys.registeredFromAddress('198.51.100.1'), max: 2 }, { key: keys.registeredFromNetwork('198.51.100.0/24'), max: 3 }, bounds[2]!];
    expect(await store.addToIndexesWithin(elsewhere, 'f', 60)).toBeUndefined();
    expect(await store.addToIndexesWithin(elsewhere, 'g', 60)).toBe(all);
    expect((await store.indexMembers(all)).sort()).toEqual(['a', 'b', 'd', 'f']);
  });

  test('a member already listed is listed again, whatever the bounds; a member whose time passed frees its place', async () => {
    const { store } = backend;
    const tight = bounds.map((bound) => ({ ...bound, max: 1 }));
    expect(await store.addToIndexesWithin(tight, 'a', 1)).toBeUndefined();
    expect(await store.addToIndexesWithin(tight, 'a', 1)).toBeUndefined();
    expect(await store.addToIndexesWithin(tight, 'b', 60)).toBe(address);
    await backend.expire('the first member gone', 1, async () => (await store.indexMembers(all)).length === 0);
    expect(await store.addToIndexesWithin(tight, 'b', 60)).toBeUndefined();
  });

  test('twenty at once for three places: exactly three are listed', async () => {
    const { store } = backend;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => store.addToIndexesWithin(bounds.slice(1), `m${i}`, 60)));
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(3);
    expect(await store.indexMembers(network)).toHaveLength(3);
    expect(await store.indexMembers(all)).toHaveLength(3);
  });
});
