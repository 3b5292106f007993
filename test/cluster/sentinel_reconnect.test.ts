// A failover notice that lands while the client is asking the Sentinels where the master is.
// ioredis's failover detector then closes the connector under the reconnection in flight, and
// the client gives up for good (status "end"): in sentinel_failover that was a Signet that
// answered 503 for the rest of its life after about one failover in four. The race is made
// here on purpose, at the one moment it can happen, against real Sentinels.
import type { Redis } from 'ioredis';
import { createRedisClient, parseHostPort } from '../../src/store/redis_connection.js';
import { type RedisSentinelGroup, SENTINEL_MASTER_NAME, startRedisSentinels } from '../support/redis_sentinel.js';
import { waitUntil } from '../support/wait_until.js';

let group: RedisSentinelGroup;
let client: Redis;

beforeAll(async () => {
  group = await startRedisSentinels();
}, 30_000);

/** As the store closes a Sentinel client: QUIT, then disconnect, which ends its watch on the Sentinels. */
async function close(redis: Redis) {
  await redis.quit().catch(() => {});
  redis.disconnect();
}

afterAll(async () => {
  if (client) await close(client);
  await group?.stop();
});

/** What ioredis's FailoverDetector does on +switch-master: close the connector, not the client. */
const failoverNotice = (redis: Redis) => (redis as unknown as { connector: { disconnect(): void } }).connector.disconnect();

test('a failover notice during a reconnection: the client comes back by itself and serves', async () => {
  client = createRedisClient({ kind: 'sentinel', sentinels: group.seeds.split(',').map(parseHostPort), name: SENTINEL_MASTER_NAME, tls: false }) as Redis;
  await waitUntil('the client is ready', () => client.status === 'ready');
  const statuses: string[] = [];
  for (const status of ['connecting', 'end', 'ready']) client.on(status, () => statuses.push(status));
  // The notice lands while the new connection still waits for the Sentinels' answer.
  const noticed = new Promise<void>((resolve) =>
    client.once('connecting', () => {
      failoverNotice(client);
      resolve();
    }),
  );
  client.disconnect(true);
  await noticed;

  await waitUntil('the client is ready again', () => client.status === 'ready', 5000);
  // The race did happen: ioredis gave the client up before it came back.
  expect(statuses.slice(0, 2)).toEqual(['connecting', 'end']);
  expect(await client.set('signet:test:after-notice', '1')).toBe('OK');
}, 30_000);
