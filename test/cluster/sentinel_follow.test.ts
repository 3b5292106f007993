// How a Sentinel-mode client follows a new master (src/infra/store/sentinel_follower.ts): a
// +switch-master notice moves it only when it names another server than the one the client is
// on. Each Sentinel sends its own notice when it adopts the new master, so a client that had
// already reached it was dropped once per late Sentinel: 503s after Signet had served again.
// A notice heard while the client reconnects is kept for when it is ready again.
import type { Socket } from 'node:net';
import { Redis } from 'ioredis';
import { createRedisClient, parseHostPort } from '../../src/infra/store/redis_connection.js';
import { followSentinels, namesAnotherMaster } from '../../src/infra/store/sentinel_follower.js';
import { type RedisSentinelGroup, SENTINEL_MASTER_NAME, startRedisSentinels } from '../support/redis_sentinel.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp_proxy.js';
import { waitUntil } from '../support/wait_until.js';

let group: RedisSentinelGroup;
let announcer: RedisServer;
const opened: Redis[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  [group, announcer] = await Promise.all([startRedisSentinels(), startRedisServer()]);
}, 30_000);

afterAll(async () => {
  for (const client of opened) client.disconnect();
  await Promise.all([group?.stop(), announcer?.stop(), ...proxies.map((proxy) => proxy.close())]);
});

test('a notice moves the client only when it names another server', () => {
  const on = { address: '::ffff:127.0.0.1', port: 6380 };
  expect(namesAnotherMaster('signet 127.0.0.1 6379 127.0.0.1 6380', 'signet', on)).toBe(false);
  expect(namesAnotherMaster('signet 127.0.0.1 6380 127.0.0.1 6381', 'signet', on)).toBe(true);
  expect(namesAnotherMaster('signet 127.0.0.1 6380 10.0.0.2 6380', 'signet', on)).toBe(true);
  // Another master's notice, or a torn one, is not for this client.
  expect(namesAnotherMaster('other 127.0.0.1 6379 127.0.0.1 6381', 'signet', on)).toBe(false);
  expect(namesAnotherMaster('signet', 'signet', on)).toBe(false);
});

test('late notices naming the master the client is on leave it connected; one naming another server moves it', async () => {
  // The notices come from a plain Redis here (a Sentinel publishes only its own), on the
  // channel and in the format a Sentinel uses; the client is on that same server.
  const client = new Redis(announcer.url);
  opened.push(client);
  client.on('error', () => {});
  const closes: number[] = [];
  client.on('close', () => closes.push(Date.now()));
  await waitUntil('the client is ready', () => client.status === 'ready');
  const announcerAt = parseHostPort(`127.0.0.1:${announcer.port}`);
  const follower = followSentinels(client, { sentinels: [announcerAt], name: SENTINEL_MASTER_NAME, tls: false, reconnectMaxDelayMs: 250 });
  const publisher = new Redis(announcer.url);
  opened.push(publisher);
  // The follower has subscribed once a publish reaches one subscriber.
  await waitUntil('the follower listens', async () => (await publisher.publish('+switch-master', 'ping')) === 1);

  for (let sentinel = 0; sentinel < 3; sentinel++) {
    await publisher.publish('+switch-master', `${SENTINEL_MASTER_NAME} 127.0.0.1 1 127.0.0.1 ${announcer.port}`);
  }
  // Delivered in order on one connection: once the last notice has moved the client, the three
  // before it were heard and did nothing.
  await publisher.publish('+switch-master', `${SENTINEL_MASTER_NAME} 127.0.0.1 ${announcer.port} 127.0.0.1 1`);
  await waitUntil('the client was moved', () => closes.length > 0);
  expect(closes.length).toBe(1);
  await waitUntil('the client is back', () => client.status === 'ready');
  follower.close();
});

test('a notice heard while the client reconnects moves it as soon as it is ready on another server', async () => {
  // The client reaches the announcer through a proxy that can hold what it sends: a held
  // reconnection stays short of ready (its ready check waits) while the notice is heard.
  let held: { chunk: Buffer; upstream: Socket }[] | undefined;
  const proxy = await startTcpProxy(announcer.url, (chunk, upstream) => (held ? held.push({ chunk, upstream }) : upstream.write(chunk)));
  proxies.push(proxy);
  const client = new Redis({ host: '127.0.0.1', port: proxy.port, retryStrategy: () => 20 });
  opened.push(client);
  client.on('error', () => {});
  const events: string[] = [];
  for (const event of ['ready', 'close'] as const) client.on(event, () => events.push(event));
  await waitUntil('the client is ready', () => client.status === 'ready');
  const publisher = new Redis(announcer.url);
  opened.push(publisher);
  // The last test's follower has left: the one subscriber below is this test's.
  await waitUntil('no follower listens', async () => (await publisher.publish('+switch-master', 'ping')) === 0);
  const follower = followSentinels(client, {
    sentinels: [parseHostPort(`127.0.0.1:${announcer.port}`)],
    name: SENTINEL_MASTER_NAME,
    tls: false,
    reconnectMaxDelayMs: 250,
  });
  await waitUntil('the follower listens', async () => (await publisher.publish('+switch-master', 'ping')) === 1);

  held = [];
  client.disconnect(true);
  await waitUntil('the reconnection waits on its ready check', () => client.status === 'connect' && held!.length > 0);
  // The reconnection asked a Sentinel not yet told: it is on the old master (the proxy) when
  // the notice naming another server arrives.
  await publisher.publish('+switch-master', `${SENTINEL_MASTER_NAME} 127.0.0.1 ${proxy.port} 127.0.0.1 1`);
  await waitUntil('the follower heard the notice', () => follower.announced()?.port === 1);
  events.length = 0;
  const waiting = held;
  held = undefined;
  for (const { chunk, upstream } of waiting) upstream.write(chunk);
  await waitUntil('the client left the server once ready on it', () => events.join(',').startsWith('ready,close'));

  // Announced as master again, the proxy's server keeps the client.
  await publisher.publish('+switch-master', `${SENTINEL_MASTER_NAME} 127.0.0.1 1 127.0.0.1 ${proxy.port}`);
  await waitUntil('the follower heard it', () => follower.announced()?.port === proxy.port);
  await waitUntil('the client is ready on it', () => client.status === 'ready');
  expect(await client.set('signet:test:held', '1')).toBe('OK');
  follower.close();
});

test('a failover with the old master alive: the client moves to the new master before any write is refused', async () => {
  const client = createRedisClient({
    kind: 'sentinel',
    sentinels: group.seeds.split(',').map(parseHostPort),
    name: SENTINEL_MASTER_NAME,
    tls: false,
  }) as Redis;
  opened.push(client);
  await waitUntil('the client is ready', () => client.status === 'ready');
  const port = () => (client.stream as { remotePort?: number } | undefined)?.remotePort;
  expect(port()).toBe(group.master.port);
  expect(await client.set('signet:test:before', '1')).toBe('OK');
  // Held by the replica before the switch (replication is asynchronous otherwise).
  expect(await client.call('WAIT', '1', '2000')).toBe(1);

  // A switch the operator asks for: nothing drops the client's connection but the notice.
  const sentinel = new Redis({ host: group.sentinels[0]!.host, port: group.sentinels[0]!.port });
  opened.push(sentinel);
  await sentinel.call('SENTINEL', 'FAILOVER', SENTINEL_MASTER_NAME);
  await waitUntil('the Sentinels name the replica', async () => (await group.currentMaster()) === `127.0.0.1:${group.replica.port}`, 15_000);
  await waitUntil('the client is on the new master', () => client.status === 'ready' && port() === group.replica.port, 10_000);
  expect(await client.set('signet:test:after', '1')).toBe('OK');
  expect(await client.get('signet:test:before')).toBe('1');
}, 40_000);
