// The webhook queue against a real redis-server, a real three-master Redis Cluster and real HTTP
// receivers on loopback: signed delivery, retries, dead letters and replay on every backend;
// restart and crash recovery on Redis and on the cluster; the admin API's routes in a small Koa app,
// every answer checked against their OpenAPI document.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Cluster, Redis } from 'ioredis';
import Koa from 'koa';
import { SignetError } from '../../src/base/errors.js';
import { createMemoryWebhookQueue } from '../../src/domain/webhooks/memory_webhook_queue.js';
import { createRedisWebhookQueue, type RedisWebhookQueueOptions } from '../../src/domain/webhooks/redis_webhook_queue.js';
import type { WebhookEvent, WebhookQueue, WebhookQueueOptions, WebhookTarget } from '../../src/domain/webhooks/webhook_queue.js';
import { signWebhook, verifyWebhookSignature } from '../../src/domain/webhooks/webhook_signature.js';
import { webhookAdminRoutes } from '../../src/features/webhook_admin/webhook_admin_routes.js';
import { errorHandler } from '../../src/http/error_handler.js';
import { mountRoutes } from '../../src/http/mount_routes.js';
import { openApiDocumentOf } from '../../src/http/openapi.js';
import { createLogger, silentLogger } from '../../src/infra/observability/logger.js';
import { keys } from '../../src/infra/store/keys.js';
import { contractCheck } from '../support/contract_check.js';
import { freePort } from '../support/free_port.js';
import { captureLogs } from '../support/log_capture.js';
import { type RedisCluster, startRedisCluster } from '../support/redis_cluster.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { RELAXED_DEADLINES } from '../support/relaxed_deadlines.js';
import { flushCluster } from '../support/store_backends.js';
import { waitUntil } from '../support/wait_until.js';

const SECRET = 'whsec_test_secret_0123456789';
const ADMIN_TOKEN = 'admin-token-for-the-webhook-tests';

type Answer = number | 'no answer';
type Request = { method: string; path: string; headers: IncomingHttpHeaders; body: string; at: number; status?: Answer; answeredAt?: number };
type Receiver = { url: string; requests: Request[]; close(): Promise<void> };

let redisServer: RedisServer;
let admin: Redis;
let cluster: RedisCluster;
let clusterAdmin: Cluster;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  [redisServer, cluster] = await Promise.all([startRedisServer(), startRedisCluster()]);
  admin = new Redis(redisServer.url, { maxRetriesPerRequest: 2 });
  clusterAdmin = new Cluster(cluster.nodes.map(({ host, port }) => ({ host, port })));
}, 30_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await admin.flushall();
  await flushCluster(clusterAdmin);
});

afterAll(async () => {
  await admin.quit();
  await clusterAdmin.quit();
  await redisServer.stop();
  await cluster.stop();
});

/** An HTTP endpoint on 127.0.0.1 whose n-th request (from 1) gets `answer(n)` as status. */
async function startReceiver(answer: (n: number) => Answer | Promise<Answer>, port = 0): Promise<Receiver> {
  const requests: Request[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const seen: Request = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      requests.push(seen);
      const status = await answer(requests.length);
      seen.status = status;
      if (status === 'no answer') return;
      response.writeHead(status).end(status < 300 ? '' : 'no');
      seen.answeredAt = Date.now();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  cleanups.push(receiver.close);
  return receiver;
}

let eventCount = 0;
function anEvent(service = 'wallet-app', type = 'access_grant.granted'): WebhookEvent {
  eventCount++;
  return {
    id: `evt_${eventCount}_${Math.random().toString(36).slice(2, 10)}`,
    type,
    service,
    created_at: '2030-01-01T00:00:00.000Z',
    data: {
      grant_id: `grant-${eventCount}`,
      identity: '0x1111111111111111111111111111111111111111',
      scopes: ['openid', 'claim:kyc'],
      nested: { n: 1.5, empty: {} },
    },
  };
}

const to =
  (receiver: Receiver, secret = SECRET) =>
  (service: string): WebhookTarget | undefined =>
    service === 'wallet-app' ? { url: receiver.url, secret } : undefined;

/** A logger whose lines the test reads back as "<level> <message>". */
function collectingLogger() {
  const { destination, lines } = captureLogs<{ level: string; msg: string }>();
  return { lines: () => lines().map((line) => `${line.level} ${line.msg}`), logger: createLogger({ destination }) };
}

type Backend = {
  name: 'redis' | 'redis cluster' | 'memory';
  make(options: WebhookQueueOptions & Partial<RedisWebhookQueueOptions>): WebhookQueue;
  /** What is still queued in Redis (stream entries, pending entries, retries); zeros for memory. */
  leftovers(): Promise<{ stream: number; pending: number; retries: number }>;
};

function track(queue: WebhookQueue): WebhookQueue {
  cleanups.push(() => queue.close());
  return queue;
}

type RedisBackend = Backend & {
  /** A client for inspection (the command API of a cluster client is the same). */
  admin(): Redis;
};

/** What is still queued (stream entries, pending entries, retries), read through `inspect`. */
async function leftoversIn(inspect: Redis) {
  const stream = await inspect.xlen(keys.webhookStream);
  const groups = stream || (await inspect.exists(keys.webhookStream)) ? ((await inspect.xinfo('GROUPS', keys.webhookStream)) as unknown[][]) : [];
  const pending = groups.reduce((sum, group) => sum + Number(group[group.indexOf('pending') + 1]), 0);
  return { stream, pending, retries: await inspect.zcard(keys.webhookRetries) };
}

const redisBackend: RedisBackend = {
  name: 'redis',
  // The receivers are on loopback: the tests allow private targets.
  make: (options) => track(createRedisWebhookQueue(redisServer.url, { pollMs: 20, allowPrivateTargets: true, redis: RELAXED_DEADLINES.redis, ...options })),
  leftovers: () => leftoversIn(admin),
  admin: () => admin,
};

// The stream, its retries and dead letters share one hash tag: the queue's scripts and MULTI
// steps run on the cluster's master for that slot.
const clusterBackend: RedisBackend = {
  name: 'redis cluster',
  make: (options) =>
    track(
      createRedisWebhookQueue(
        { kind: 'cluster', seeds: cluster.nodes.map(({ host, port }) => ({ host, port })), tls: false },
        { pollMs: 20, allowPrivateTargets: true, redis: RELAXED_DEADLINES.redis, ...options },
      ),
    ),
  leftovers: () => leftoversIn(clusterAdmin as unknown as Redis),
  admin: () => clusterAdmin as unknown as Redis,
};

const memoryBackend: Backend = {
  name: 'memory',
  make: (options) => track(createMemoryWebhookQueue({ pollMs: 20, allowPrivateTargets: true, ...options })),
  leftovers: async () => ({ stream: 0, pending: 0, retries: 0 }),
};

const nothingLeft = { stream: 0, pending: 0, retries: 0 };

/**
 * Waits until the queue holds nothing: no event waiting, in flight or waiting for a retry. From
 * then on it cannot deliver anything more, so what the receiver has seen is final (instead of a
 * sleep to see that no second delivery comes).
 */
const settled = (queue: WebhookQueue) => waitUntil('the queue has nothing left to deliver', async () => (await queue.depth()) === 0);

/** A promise the test resolves: a receiver that answers only when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * An injected clock for the queue's `now` (retry due times, dead_at): it moves only in `tick`,
 * which the test calls while it waits, so a retry's delay is counted on this clock, not the host's.
 */
function testClock(start = 1_800_000_000_000) {
  const clock = {
    ms: start,
    now: () => clock.ms,
    /** A waitUntil check that moves the clock 1 ms each time it looks. */
    ticking: (check: () => boolean | Promise<boolean>) => () => {
      clock.ms += 1;
      return check();
    },
  };
  return clock;
}

describe('webhook signature', () => {
  test('signWebhook gives t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")> (known vector)', () => {
    expect(signWebhook(SECRET, '{"id":"evt_1"}', 1_700_000_000)).toBe('t=1700000000,v1=7e9a82a20098cf01f04d9c09f5a7459669bfecf51392ce3adb1445906fceff61');
  });

  test('verifyWebhookSignature accepts the signed body within tolerance and refuses anything else', () => {
    const body = '{"id":"evt_1"}';
    const header = signWebhook(SECRET, body, 1_700_000_000);
    expect(verifyWebhookSignature(SECRET, header, body, 1_700_000_000)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, 1_700_000_300)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, 1_699_999_700)).toBe(true);
    expect(verifyWebhookSignature(SECRET, header, body, 1_700_000_301)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, 1_699_999_699)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, body, 1_700_000_010, 5)).toBe(false);
    expect(verifyWebhookSignature('another-secret-0123456789', header, body, 1_700_000_000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, header, '{"id":"evt_2"}', 1_700_000_000)).toBe(false);
    // The timestamp is signed: moving it breaks the signature.
    expect(verifyWebhookSignature(SECRET, header.replace('t=1700000000', 't=1700000001'), body, 1_700_000_000)).toBe(false);
    const v1 = header.split('v1=')[1]!;
    expect(verifyWebhookSignature(SECRET, `t=1700000000,v1=${'0'.repeat(64)},v1=${v1}`, body, 1_700_000_000)).toBe(true);
    for (const bad of ['', 't=1700000000', `v1=${v1}`, `t=abc,v1=${v1}`, `t=1700000000,v1=${v1.slice(2)}`, `t=1700000000,v1=${'z'.repeat(64)}`]) {
      expect(verifyWebhookSignature(SECRET, bad, body, 1_700_000_000)).toBe(false);
    }
  });
});

describe.each([redisBackend, clusterBackend, memoryBackend])('webhook queue ($name)', (backend) => {
  test('delivers the event once: POST, exact headers and body, a signature the receiver verifies', async () => {
    const nowMs = 1_800_000_000_123;
    const receiver = await startReceiver(() => 204);
    const queue = backend.make({ targetOf: to(receiver), retryDelaysMs: [30], now: () => nowMs });
    queue.start();
    const event = anEvent();
    await queue.enqueue(event);
    await waitUntil('delivered', () => receiver.requests[0]?.status === 204);
    await settled(queue);

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests as [Request];
    const body = JSON.stringify(event);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks');
    expect(request.body).toBe(body);
    expect(JSON.parse(request.body)).toEqual(event);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['signet-event-id']).toBe(event.id);
    expect(request.headers['signet-event-type']).toBe('access_grant.granted');
    const signature = request.headers['signet-signature'] as string;
    expect(signature).toBe(signWebhook(SECRET, body, 1_800_000_000));
    expect(signature).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(SECRET, signature, request.body, 1_800_000_000)).toBe(true);
    expect(verifyWebhookSignature('the-wrong-secret-0123456789', signature, request.body, 1_800_000_000)).toBe(false);
    expect(verifyWebhookSignature(SECRET, signature, request.body, 1_800_000_000 + 301)).toBe(false);
    expect(await queue.deadLetters()).toEqual([]);
    expect(await backend.leftovers()).toEqual(nothingLeft);
  });

  test('depth counts the events not yet settled: three queued before the worker starts, none once delivered', async () => {
    const receiver = await startReceiver(() => 204);
    const queue = backend.make({ targetOf: to(receiver), retryDelaysMs: [30] });
    expect(await queue.depth()).toBe(0);
    for (let i = 0; i < 3; i++) await queue.enqueue(anEvent());
    expect(await queue.depth()).toBe(3);
    queue.start();
    await waitUntil('three delivered', () => receiver.requests.filter((r) => r.status === 204).length === 3);
    await waitUntil('depth back to 0', async () => (await queue.depth()) === 0);
  });

  test('a receiver failing twice (500) then recovering gets the event exactly once more, after 3 attempts', async () => {
    const clock = testClock();
    const seenAt: number[] = [];
    const receiver = await startReceiver((n) => {
      seenAt.push(clock.ms);
      return n <= 2 ? 500 : 200;
    });
    const queue = backend.make({ targetOf: to(receiver), retryDelaysMs: [30, 30, 30], now: clock.now });
    queue.start();
    const event = anEvent();
    await queue.enqueue(event);
    await waitUntil(
      'the third attempt succeeded',
      clock.ticking(() => receiver.requests[2]?.status === 200),
    );
    await settled(queue);

    expect(receiver.requests.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(receiver.requests.map((r) => r.headers['signet-event-id'])).toEqual([event.id, event.id, event.id]);
    expect(receiver.requests.map((r) => r.body)).toEqual([JSON.stringify(event), JSON.stringify(event), JSON.stringify(event)]);
    // Each retry waited for its delay, on the queue's clock.
    expect(seenAt[1]! - seenAt[0]!).toBeGreaterThanOrEqual(30);
    expect(seenAt[2]! - seenAt[1]!).toBeGreaterThanOrEqual(30);
    expect(await queue.deadLetters()).toEqual([]);
    expect(await backend.leftovers()).toEqual(nothingLeft);
  });

  test('after the last attempt the event is a dead letter; replay delivers it with attempts reset', async () => {
    const receiver = await startReceiver((n) => (n <= 4 ? 500 : 204));
    const queue = backend.make({ targetOf: to(receiver), retryDelaysMs: [20, 20] });
    queue.start();
    const event = anEvent('wallet-app', 'access_grant.revoked');
    const before = Date.now();
    await queue.enqueue(event);
    await waitUntil('a dead letter', async () => (await queue.deadLetters()).length === 1);
    await settled(queue);

    expect(receiver.requests.map((r) => r.status)).toEqual([500, 500, 500]);
    const letters = await queue.deadLetters();
    expect(letters).toEqual([{ event, attempts: 3, last_error: 'HTTP 500 Internal Server Error', dead_at: expect.any(String) }]);
    const deadAt = Date.parse(letters[0]!.dead_at);
    expect(new Date(deadAt).toISOString()).toBe(letters[0]!.dead_at);
    expect(deadAt).toBeGreaterThanOrEqual(before);
    expect(deadAt).toBeLessThanOrEqual(Date.now());
    expect(await backend.leftovers()).toEqual(nothingLeft);

    // Replayed, it gets three attempts again: one more failure (the 4th request), then delivered.
    await queue.replay(event.id);
    expect(await queue.deadLetters()).toEqual([]);
    await waitUntil('the replay was delivered', () => receiver.requests[4]?.status === 204);
    await settled(queue);
    expect(receiver.requests.map((r) => r.status)).toEqual([500, 500, 500, 500, 204]);
    expect(receiver.requests[4]!.body).toBe(JSON.stringify(event));
    expect(await queue.deadLetters()).toEqual([]);
    expect(await backend.leftovers()).toEqual(nothingLeft);
    await expect(queue.replay(event.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  test('replay of an unknown event id is refused with a not_found SignetError', async () => {
    const queue = backend.make({ targetOf: () => undefined, retryDelaysMs: [] });
    const refused = queue.replay('evt_unknown');
    await expect(refused).rejects.toBeInstanceOf(SignetError);
    await expect(refused).rejects.toMatchObject({ code: 'not_found', status: 404, reason: 'dead_letter_not_found' });
  });

  test('a refused connection and a receiver that never answers are failed attempts, named in last_error', async () => {
    // Port 1: nothing here listens there, where a free port found now could be bound by another
    // test file's server before the delivery connects.
    const closedPort = 1;
    const silent = await startReceiver(() => 'no answer');
    const queue = backend.make({
      targetOf: (service) =>
        service === 'down'
          ? { url: `http://127.0.0.1:${closedPort}/hooks`, secret: SECRET }
          : service === 'slow'
            ? { url: silent.url, secret: SECRET }
            : undefined,
      retryDelaysMs: [],
      // Long enough that a refused connect (answered at once) never loses to the timer on a
      // stalled host; the silent receiver still shows the timeout.
      timeoutMs: 1000,
    });
    queue.start();
    const down = anEvent('down');
    const slow = anEvent('slow');
    await queue.enqueue(down);
    await queue.enqueue(slow);
    await waitUntil('two dead letters', async () => (await queue.deadLetters()).length === 2, 5000);

    const letters = new Map((await queue.deadLetters()).map((letter) => [letter.event.id, letter]));
    expect(letters.get(down.id)).toEqual({ event: down, attempts: 1, last_error: 'connection failed (ECONNREFUSED)', dead_at: expect.any(String) });
    expect(letters.get(slow.id)).toEqual({ event: slow, attempts: 1, last_error: 'no answer within 1000 ms', dead_at: expect.any(String) });
    expect(silent.requests).toHaveLength(1);
  });

  test('an event for a service without a webhook target is dropped as delivered, and logged', async () => {
    const receiver = await startReceiver(() => 204);
    const { lines, logger } = collectingLogger();
    const queue = backend.make({ targetOf: to(receiver), retryDelaysMs: [20], logger });
    queue.start();
    const orphan = anEvent('no-webhook-service');
    const kept = anEvent();
    await queue.enqueue(orphan);
    await queue.enqueue(kept);
    await waitUntil('the second event was delivered', () => receiver.requests[0]?.status === 204);
    await settled(queue);

    expect(receiver.requests.map((r) => r.headers['signet-event-id'])).toEqual([kept.id]);
    expect(lines()).toEqual([`info webhook ${orphan.id} (access_grant.granted): service no-webhook-service has no webhook URL, dropped`]);
    expect(await queue.deadLetters()).toEqual([]);
    expect(await backend.leftovers()).toEqual(nothingLeft);
  });

  test('stop waits for the delivery in flight; a stopped queue still takes events, delivered once started again', async () => {
    // The first answer waits until the test has called stop: the delivery is in flight then.
    const stopCalled = gate();
    const receiver = await startReceiver(async (n) => {
      if (n === 1) await stopCalled.opened;
      return 204;
    });
    const queue = backend.make({ targetOf: to(receiver), retryDelaysMs: [20] });
    queue.start();
    queue.start();
    const first = anEvent();
    await queue.enqueue(first);
    await waitUntil('the delivery started', () => receiver.requests.length === 1);
    const stopping = queue.stop();
    stopCalled.open();
    await stopping;
    expect(receiver.requests[0]!.status).toBe(204);
    expect(await backend.leftovers()).toEqual(nothingLeft);

    // stop() ended the worker: the new event waits, undelivered, until a start.
    const second = anEvent();
    await queue.enqueue(second);
    expect(await queue.depth()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    queue.start();
    await waitUntil('the second event was delivered', () => receiver.requests[1]?.status === 204);
    await settled(queue);
    expect(receiver.requests.map((r) => r.headers['signet-event-id'])).toEqual([first.id, second.id]);
  });
});

describe.each([redisBackend, clusterBackend])('$name webhook queue: restarts, crashes, several workers', (redisBackend) => {
  const make = redisBackend.make;
  let admin: Redis;
  beforeAll(() => {
    admin = redisBackend.admin();
  });

  test('an event enqueued while no worker ran is delivered by a new queue instance on the same Redis', async () => {
    const receiver = await startReceiver(() => 204);
    const before = make({ targetOf: to(receiver), retryDelaysMs: [30] });
    const event = anEvent();
    await before.enqueue(event);
    await before.stop();
    await before.close();
    expect(await admin.xlen(keys.webhookStream)).toBe(1);
    expect(receiver.requests).toHaveLength(0);

    const after = make({ targetOf: to(receiver), retryDelaysMs: [30] });
    after.start();
    await waitUntil('delivered after the restart', () => receiver.requests[0]?.status === 204);
    await settled(after);
    expect(receiver.requests.map((r) => r.body)).toEqual([JSON.stringify(event)]);
    expect(await redisBackend.leftovers()).toEqual(nothingLeft);
  });

  test('a retry scheduled before a restart (receiver down) is delivered by the new instance', async () => {
    const port = await freePort();
    const target = () => ({ url: `http://127.0.0.1:${port}/hooks`, secret: SECRET });
    const before = make({ targetOf: target, retryDelaysMs: [200, 200] });
    before.start();
    const event = anEvent();
    await before.enqueue(event);
    await waitUntil('the first attempt failed and a retry waits', async () => (await admin.zcard(keys.webhookRetries)) === 1);
    await before.close();

    const receiver = await startReceiver(() => 204, port);
    const after = make({ targetOf: target, retryDelaysMs: [200, 200] });
    after.start();
    await waitUntil('delivered after the restart', () => receiver.requests[0]?.status === 204);
    await settled(after);
    expect(receiver.requests.map((r) => r.body)).toEqual([JSON.stringify(event)]);
    expect(await after.deadLetters()).toEqual([]);
    expect(await redisBackend.leftovers()).toEqual(nothingLeft);
  });

  test('an entry read by consumer A that died unacked is delivered by consumer B through XAUTOCLAIM', async () => {
    const receiver = await startReceiver(() => 204);
    const producer = make({ targetOf: to(receiver), retryDelaysMs: [] });
    await admin.xgroup('CREATE', keys.webhookStream, 'delivery', '0', 'MKSTREAM');
    const event = anEvent();
    await producer.enqueue(event);
    // Consumer A reads the entry, then "crashes": it never acks. (The time is taken before the
    // read: Redis counts the entry's idle time from the read, so it cannot be earlier than this.)
    const readAt = Date.now();
    const read = (await admin.xreadgroup('GROUP', 'delivery', 'consumer-A', 'COUNT', 10, 'STREAMS', keys.webhookStream, '>')) as [
      string,
      [string, string[]][],
    ][];
    expect(read[0]![1]).toHaveLength(1);
    const [entryId, fields] = read[0]![1][0]!;
    expect(fields[0]).toBe('job');
    expect(JSON.parse(fields[1]!)).toEqual({ event, attempts: 0 });
    expect(await admin.xpending(keys.webhookStream, 'delivery')).toEqual([1, entryId, entryId, [['consumer-A', '1']]]);

    const b = make({ targetOf: to(receiver), retryDelaysMs: [], claimIdleMs: 250, consumer: 'consumer-B' });
    b.start();
    await waitUntil('delivered by consumer B', () => receiver.requests[0]?.status === 204);
    // Not before the entry was idle for claimIdleMs: B took it over, it did not read it anew. A
    // lower bound only, which a slow host cannot break (1 ms for the two clocks' rounding).
    expect(receiver.requests[0]!.at - readAt).toBeGreaterThanOrEqual(250 - 1);
    expect(receiver.requests[0]!.body).toBe(JSON.stringify(event));
    await waitUntil('B acked it', async () => (await admin.xlen(keys.webhookStream)) === 0);
    expect(await admin.xpending(keys.webhookStream, 'delivery')).toEqual([0, null, null, null]);
    // Consumer A holds nothing now: once idle long enough it is removed from the group.
    const consumers = async () => ((await admin.xinfo('CONSUMERS', keys.webhookStream, 'delivery')) as string[][]).map((c) => c[1]);
    await waitUntil('consumer A was pruned', async () => (await consumers()).join() === 'consumer-B');
    await settled(b);
    expect(receiver.requests).toHaveLength(1);
  });

  test('dead letters are kept in Redis across a restart and can be replayed by the new instance', async () => {
    let up = false;
    const receiver = await startReceiver(() => (up ? 204 : 503));
    const before = make({ targetOf: to(receiver), retryDelaysMs: [] });
    before.start();
    const event = anEvent();
    await before.enqueue(event);
    await waitUntil('a dead letter', async () => (await admin.hlen(keys.webhookDeadLetters)) === 1);
    const letters = await before.deadLetters();
    expect(letters).toEqual([{ event, attempts: 1, last_error: 'HTTP 503 Service Unavailable', dead_at: expect.any(String) }]);
    await before.close();

    const after = make({ targetOf: to(receiver), retryDelaysMs: [] });
    expect(await after.deadLetters()).toEqual(letters);
    up = true;
    after.start();
    await after.replay(event.id);
    await waitUntil('the replay was delivered', () => receiver.requests[1]?.status === 204);
    await settled(after);
    expect(receiver.requests.map((r) => r.status)).toEqual([503, 204]);
    expect(await admin.hlen(keys.webhookDeadLetters)).toBe(0);
    expect(await redisBackend.leftovers()).toEqual(nothingLeft);
  });

  test('two workers on one Redis share the events and deliver each exactly once', async () => {
    // The receiver holds its answers until two deliveries are in flight at once: with one
    // delivery at a time per worker, that is each worker delivering, however slowly either starts
    // (a cluster client takes longer to connect: it reads the slot map first).
    const bothDelivering = gate();
    const receiver = await startReceiver(async () => {
      await bothDelivering.opened;
      return 204;
    });
    // One delivery at a time each: a worker then holds at most four entries, so neither can take
    // the whole burst and both must take part.
    const one = make({ targetOf: to(receiver), retryDelaysMs: [], concurrency: 1, perTargetConcurrency: 1 });
    const two = make({ targetOf: to(receiver), retryDelaysMs: [], concurrency: 1, perTargetConcurrency: 1 });
    one.start();
    two.start();
    const events = Array.from({ length: 20 }, () => anEvent());
    await Promise.all(events.map((event) => (events.indexOf(event) % 2 ? one : two).enqueue(event)));
    await waitUntil('both workers deliver at once', () => receiver.requests.length === 2);
    bothDelivering.open();
    await waitUntil('all delivered', () => receiver.requests.filter((r) => r.status === 204).length === 20);
    await settled(one);
    expect(receiver.requests.map((r) => r.headers['signet-event-id']).sort()).toEqual(events.map((e) => e.id).sort());
    expect(await redisBackend.leftovers()).toEqual(nothingLeft);
    const consumers = (await admin.xinfo('CONSUMERS', keys.webhookStream, 'delivery')) as unknown[][];
    expect(consumers).toHaveLength(2);
  });

  test('enqueue with Redis unreachable is refused with temporarily_unavailable', async () => {
    const port = await freePort();
    const queue = track(createRedisWebhookQueue(`redis://127.0.0.1:${port}`, { targetOf: () => undefined, retryDelaysMs: [] }));
    await expect(queue.enqueue(anEvent())).rejects.toMatchObject({ code: 'temporarily_unavailable', status: 503, reason: 'store_unavailable' });
  });
});

describe('webhook admin routes', () => {
  const offContract: string[][] = [];
  afterAll(() => expect(offContract.flat()).toEqual([]));

  async function startAdminApp(queue: WebhookQueue, adminToken: string | undefined) {
    const app = new Koa();
    const routes = webhookAdminRoutes(queue, adminToken);
    const contract = contractCheck(openApiDocumentOf(routes));
    offContract.push(contract.violations);
    app.use(contract.middleware);
    const renderPage = (ctx: Koa.Context) => {
      ctx.body = 'an error page';
    };
    app.use(errorHandler(renderPage, silentLogger));
    const router = mountRoutes(routes, { consumeAll: async () => {} });
    app.use(router.routes());
    app.use(router.allowedMethods());
    const server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/admin/webhooks`;
    return async (method: 'GET' | 'POST', path: string, token: string | undefined = adminToken) => {
      const response = await fetch(`${base}${path}`, { method, headers: token ? { authorization: `Bearer ${token}` } : {} });
      return { status: response.status, json: (await response.json()) as unknown };
    };
  }

  const invalidToken = { error: 'invalid_token', error_description: expect.any(String), reason: 'admin_token_invalid' };

  test('lists dead letters and replays one, behind the admin token', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 500 : 204));
    const queue = memoryBackend.make({ targetOf: to(receiver), retryDelaysMs: [] });
    queue.start();
    const event = anEvent();
    await queue.enqueue(event);
    await waitUntil('a dead letter', async () => (await queue.deadLetters()).length === 1);
    const call = await startAdminApp(queue, ADMIN_TOKEN);

    expect(await call('GET', '/dead-letters', 'not-the-admin-token')).toEqual({ status: 401, json: invalidToken });
    expect(await call('GET', '/dead-letters', '')).toEqual({ status: 401, json: invalidToken });
    expect(await call('POST', `/dead-letters/${event.id}/replay`, 'not-the-admin-token')).toEqual({ status: 401, json: invalidToken });
    expect(await queue.deadLetters()).toHaveLength(1);

    expect(await call('GET', '/dead-letters')).toEqual({
      status: 200,
      json: { dead_letters: [{ event, attempts: 1, last_error: 'HTTP 500 Internal Server Error', dead_at: (await queue.deadLetters())[0]!.dead_at }] },
    });
    expect(await call('POST', '/dead-letters/evt_nope/replay')).toEqual({
      status: 404,
      json: { error: 'not_found', error_description: expect.any(String), reason: 'dead_letter_not_found' },
    });
    expect(await call('POST', `/dead-letters/${'x'.repeat(129)}/replay`)).toEqual({
      status: 400,
      json: { error: 'invalid_request', error_description: expect.any(String), reason: 'invalid_path' },
    });
    expect(await call('POST', `/dead-letters/${event.id}/replay`)).toEqual({ status: 202, json: { id: event.id, status: 'queued' } });
    await waitUntil('the replay was delivered', () => receiver.requests[1]?.status === 204);
    expect(receiver.requests[1]!.body).toBe(JSON.stringify(event));
    expect(await call('GET', '/dead-letters')).toEqual({ status: 200, json: { dead_letters: [] } });
  });

  test('without an admin token the admin API does not exist', async () => {
    const queue = memoryBackend.make({ targetOf: () => undefined, retryDelaysMs: [] });
    const call = await startAdminApp(queue, undefined);
    expect(await call('GET', '/dead-letters', 'anything')).toEqual({
      status: 404,
      json: { error: 'not_found', error_description: expect.any(String), reason: 'admin_api_off' },
    });
  });
});
