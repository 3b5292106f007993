// WAIT on a Redis Cluster: REDIS_WAIT_REPLICAS sends WAIT in one pipeline with the write (the
// pipeline goes to the master of the write's slot). The test cluster's masters have no
// replicas: WAIT 1 cannot be met, and the write is refused as the store's outage. (Without
// replicas this cannot tell which master answered WAIT; the Sentinel test shows WAIT met.)
import { Redis } from 'ioredis';
import { keys } from '../../src/infra/store/keys.js';
import { createOidcAdapter } from '../../src/infra/store/oidc_adapter.js';
import { createRedisStore } from '../../src/infra/store/redis_store.js';
import type { Store } from '../../src/infra/store/store.js';
import { OUTAGE_ANSWER_MS } from '../support/bounds.js';
import { type RedisCluster, startRedisCluster } from '../support/redis_cluster.js';

let cluster: RedisCluster;
let waiting: Store;

beforeAll(async () => {
  cluster = await startRedisCluster();
  waiting = createRedisStore({ kind: 'cluster', seeds: cluster.nodes.map(({ host, port }) => ({ host, port })), tls: false }, { waitReplicas: 1 });
}, 30_000);

afterAll(async () => {
  await waiting.close();
  await cluster.stop();
});

test('a consume waited for on a master without replicas: 503 store_unavailable after half the deadline, the mark written', async () => {
  const codes = new (createOidcAdapter(waiting))('AuthorizationCode');
  await codes.upsert('cluster-code', { grantId: 'cluster-grant', kind: 'AuthorizationCode' }, 60);
  const started = Date.now();
  const refused = await codes.consume('cluster-code').catch((error: unknown) => error as { code?: string; reason?: string });
  const ms = Date.now() - started;
  expect({ code: refused?.code, reason: refused?.reason, afterTheWait: ms >= 240 && ms < OUTAGE_ANSWER_MS }).toEqual({
    code: 'temporarily_unavailable',
    reason: 'store_unavailable',
    afterTheWait: true,
  });
  expect(await waiting.get(keys.consumed(keys.model('AuthorizationCode', 'cluster-code')))).toEqual(expect.stringMatching(/^\d+$/));
});

/** WAIT commands the cluster's nodes have run so far (INFO commandstats). */
async function waitsRun(): Promise<number> {
  let total = 0;
  for (const node of cluster.nodes) {
    const client = new Redis({ host: node.host, port: node.port, lazyConnect: true });
    try {
      const stats = await client.info('commandstats');
      total += Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
    } finally {
      client.disconnect();
    }
  }
  return total;
}

test('writes that need no replica are not waited for', async () => {
  const before = await waitsRun();
  await waiting.set('signet:test:plain', 'v', 60);
  expect(await waiting.get('signet:test:plain')).toBe('v');
  expect(await waitsRun()).toBe(before);
  // The count moves for a write that needs its replica (refused here: no replica to count).
  const codes = new (createOidcAdapter(waiting))('AuthorizationCode');
  await codes.upsert('counted-code', { grantId: 'counted-grant', kind: 'AuthorizationCode' }, 60);
  await expect(codes.consume('counted-code')).rejects.toMatchObject({ reason: 'store_unavailable' });
  expect(await waitsRun()).toBe(before + 1);
});
