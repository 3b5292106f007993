// Redis errors are counted: with no Redis at the URL, a read answers store_unavailable and
// the connection errors and the refused command are both counted.
import { createMetrics } from '../../../../src/infra/observability/metrics.js';
import { createRedisStore } from '../../../../src/infra/store/redis_store.js';
import { freePort } from '../../../support/free_port.js';

test('connection errors and commands refused as an outage are counted', async () => {
  const metrics = createMetrics({ processMetrics: false });
  const store = createRedisStore(`redis://127.0.0.1:${await freePort()}`, { onError: (kind) => metrics.redisErrors.inc({ kind }) });
  try {
    await expect(store.get('signet:anything')).rejects.toMatchObject({ reason: 'store_unavailable' });
    const counts = Object.fromEntries((await metrics.redisErrors.get()).values.map((v) => [v.labels.kind, v.value]));
    expect(counts.command).toBe(1);
    expect(counts.connection).toBeGreaterThanOrEqual(1);
  } finally {
    await store.close();
  }
});
