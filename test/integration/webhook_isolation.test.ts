// Webhook isolation and stopping, against a real redis-server and real HTTP receivers on
// loopback: a receiver that hangs delays only its own events; a stop lets deliveries in flight
// finish (up to a bound) and loses no entry, which the next worker delivers.
import { createServer, type Server } from 'node:http';
import { createMemoryWebhookQueue } from '../../src/domain/webhooks/memory_webhook_queue.js';
import { createRedisWebhookQueue, type RedisWebhookQueueOptions } from '../../src/domain/webhooks/redis_webhook_queue.js';
import type { WebhookEvent, WebhookQueue, WebhookTarget } from '../../src/domain/webhooks/webhook_queue.js';
import { keys } from '../../src/infra/store/keys.js';
import { ISOLATED_DELIVERY_MS, WORKER_RESTART_DELIVERY_MS, WORKER_STOP_SLACK_MS } from '../support/bounds.js';
import { redisForTests } from '../support/redis_for_tests.js';
import { sleep, waitUntil } from '../support/wait_until.js';

const SECRET = 'whsec_isolation_secret_0123';
// How long the slow receiver takes to answer, and the stop bound of the worker that cuts one.
const DELIVERY_MS = 300;
const redis = redisForTests();
const { cleanups } = redis;

type Seen = { id: string; at: number; answered?: number };
type Mode = 'answer' | 'hang' | { delayMs: number };

/** A receiver on 127.0.0.1: answers 204 at once, after a delay, or never (hangs), as told. */
async function startReceiver(initial: Mode) {
  let mode = initial;
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    const entry: Seen = { id: String(request.headers['signet-event-id']), at: Date.now() };
    seen.push(entry);
    request.resume();
    request.on('end', async () => {
      const now = mode;
      if (now === 'hang') return;
      if (now !== 'answer') await sleep(now.delayMs);
      response.writeHead(204).end();
      entry.answered = Date.now();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    seen,
    answered: () => seen.filter((request) => request.answered !== undefined).map((request) => request.id),
    set: (next: Mode) => {
      mode = next;
    },
  };
}

let count = 0;
function anEvent(service: string, type = 'access_request.created'): WebhookEvent {
  count++;
  return { id: `evt_${count}_${Math.random().toString(36).slice(2, 8)}`, type, service, created_at: '2030-01-01T00:00:00.000Z', data: { n: count } };
}

const OWNER = 'owner:0x00000000000000000000000000000000000000aa';

type Make = (options: Omit<RedisWebhookQueueOptions, 'retryDelaysMs'> & { retryDelaysMs?: number[] }) => WebhookQueue;

const backends: { name: string; make: Make }[] = [
  {
    name: 'redis',
    make: (options) => {
      const queue = createRedisWebhookQueue(redis.url, { retryDelaysMs: [1000], pollMs: 20, allowPrivateTargets: true, ...options });
      cleanups.push(() => queue.close());
      return queue;
    },
  },
  {
    name: 'memory',
    make: (options) => {
      const queue = createMemoryWebhookQueue({ retryDelaysMs: [1000], pollMs: 20, allowPrivateTargets: true, ...options });
      cleanups.push(() => queue.close());
      return queue;
    },
  },
];

describe.each(backends)('isolation ($name)', ({ make }) => {
  test("six events to an owner's hanging URL do not hold a service's access_grant.granted: it arrives within 2 s", async () => {
    const hanging = await startReceiver('hang');
    const healthy = await startReceiver('answer');
    // Default concurrency and the default 5 s delivery timeout: what production runs.
    const targetOf = (service: string): WebhookTarget | undefined =>
      service === OWNER ? { url: hanging.url, secret: SECRET } : service === 'analytics' ? { url: healthy.url, secret: SECRET, trusted: true } : undefined;
    const queue = make({ targetOf, stopTimeoutMs: 100 });
    queue.start();
    for (let i = 0; i < 6; i++) await queue.enqueue(anEvent(OWNER));
    const granted = anEvent('analytics', 'access_grant.granted');
    const enqueuedAt = Date.now();
    await queue.enqueue(granted);

    await waitUntil('the service got its event', () => healthy.answered().includes(granted.id), ISOLATED_DELIVERY_MS);
    const tookMs = healthy.seen[0]!.at - enqueuedAt;
    expect(tookMs).toBeLessThan(ISOLATED_DELIVERY_MS);
    // The hanging owner holds at most its own lane (two deliveries by default), nothing more.
    expect(hanging.seen.length).toBeGreaterThanOrEqual(1);
    expect(hanging.seen.length).toBeLessThanOrEqual(2);
    expect(healthy.seen.map((request) => request.id)).toEqual([granted.id]);
  });

  test('deliveries to different targets run side by side; one target gets at most perTargetConcurrency at once', async () => {
    const slowA = await startReceiver({ delayMs: 300 });
    const slowB = await startReceiver({ delayMs: 300 });
    const targetOf = (service: string): WebhookTarget => ({ url: service === 'a' ? slowA.url : slowB.url, secret: SECRET });
    const queue = make({ targetOf, perTargetConcurrency: 1 });
    queue.start();
    await queue.enqueue(anEvent('a'));
    await queue.enqueue(anEvent('a'));
    await queue.enqueue(anEvent('b'));
    await waitUntil('all three delivered', () => slowA.answered().length === 2 && slowB.answered().length === 1);
    // a and b overlapped: b's delivery started before a's first answer.
    expect(slowB.seen[0]!.at).toBeLessThan(slowA.seen[0]!.answered!);
    // a's second started only after its first was answered (one at a time for one target).
    expect(slowA.seen[1]!.at).toBeGreaterThanOrEqual(slowA.seen[0]!.answered!);
  });
});

describe('stopping the Redis worker loses no entries', () => {
  const make = backends[0]!.make;
  // Entries read but not acked; none before the worker has made its group.
  const pending = async () => {
    const groups = (await redis.admin.exists(keys.webhookStream)) ? ((await redis.admin.xinfo('GROUPS', keys.webhookStream)) as unknown[][]) : [];
    return groups.length ? ((await redis.admin.xpending(keys.webhookStream, 'delivery')) as [number])[0] : 0;
  };

  test('close waits for the delivery in flight; entries read but not started are back on the stream for the next worker', async () => {
    const receiver = await startReceiver({ delayMs: DELIVERY_MS });
    const targetOf = (): WebhookTarget => ({ url: receiver.url, secret: SECRET });
    const first = make({ targetOf, perTargetConcurrency: 1 });
    const events = [anEvent('analytics'), anEvent('analytics'), anEvent('analytics')];
    for (const event of events) await first.enqueue(event);
    first.start();
    // All three read (pending in the group), one in flight, two waiting for the lane.
    await waitUntil('three entries read', async () => (await pending()) === 3);
    await waitUntil('the first delivery started', () => receiver.seen.length === 1);

    const closing = Date.now();
    await first.close();
    const closeMs = Date.now() - closing;
    // It waited for the answer (DELIVERY_MS after the request) and no longer.
    expect(receiver.answered()).toEqual([events[0]!.id]);
    expect(closeMs).toBeLessThan(DELIVERY_MS + WORKER_STOP_SLACK_MS);
    expect(receiver.seen).toHaveLength(1);
    expect(await pending()).toBe(0);
    expect(await redis.admin.xlen(keys.webhookStream)).toBe(2);
    expect(await redis.admin.zcard(keys.webhookRetries)).toBe(0);

    // The next worker (a restart) delivers the two at once, not after the 30 s claim delay.
    const restartedAt = Date.now();
    const second = make({ targetOf, perTargetConcurrency: 1 });
    second.start();
    await waitUntil('the other two delivered', () => receiver.answered().length === 3, 3000);
    expect(Date.now() - restartedAt).toBeLessThan(WORKER_RESTART_DELIVERY_MS);
    expect(receiver.answered().sort()).toEqual(events.map((event) => event.id).sort());
    expect(receiver.seen).toHaveLength(3);
    expect(await second.deadLetters()).toEqual([]);
  });

  test('a delivery that outlasts the stop bound is cut, counts for nothing, and is delivered after the restart', async () => {
    const receiver = await startReceiver('hang');
    const targetOf = (): WebhookTarget => ({ url: receiver.url, secret: SECRET });
    const first = make({ targetOf, stopTimeoutMs: DELIVERY_MS });
    const event = anEvent('analytics');
    await first.enqueue(event);
    first.start();
    await waitUntil('the delivery started', () => receiver.seen.length === 1);

    const closing = Date.now();
    await first.close();
    const closeMs = Date.now() - closing;
    expect(closeMs).toBeGreaterThanOrEqual(DELIVERY_MS - 10);
    expect(closeMs).toBeLessThan(DELIVERY_MS + WORKER_STOP_SLACK_MS);
    // Not acked, not a retry, not a dead letter: back on the stream as it was (attempts 0).
    expect(await pending()).toBe(0);
    const entries = (await redis.admin.xrange(keys.webhookStream, '-', '+')) as [string, string[]][];
    expect(entries.map(([, fields]) => JSON.parse(fields[1]!))).toEqual([{ event, attempts: 0 }]);
    expect(await redis.admin.zcard(keys.webhookRetries)).toBe(0);
    expect(await redis.admin.hlen(keys.webhookDeadLetters)).toBe(0);

    receiver.set('answer');
    const second = make({ targetOf });
    second.start();
    await waitUntil('delivered after the restart', () => receiver.answered().includes(event.id), 3000);
    expect(await second.deadLetters()).toEqual([]);
    await waitUntil('acked', async () => (await redis.admin.xlen(keys.webhookStream)) === 0);
  });

  test('a worker that dies without closing leaves its entries pending; another claims and delivers them', async () => {
    const receiver = await startReceiver('hang');
    const targetOf = (): WebhookTarget => ({ url: receiver.url, secret: SECRET });
    const event = anEvent('analytics');
    // The dying worker: reads the entry and starts the delivery, then its process is gone
    // (simulated by never closing it until the end; its entry stays pending under its name).
    // A dead process claims nothing more: with a 60 s claim delay this one does not either
    // within the test (at 400 ms its own claims would keep touching the entry it still holds).
    const dying = make({ targetOf, claimIdleMs: 60_000, consumer: 'dying', timeoutMs: 5000, stopTimeoutMs: 0 });
    await dying.enqueue(event);
    dying.start();
    await waitUntil('the delivery started', () => receiver.seen.length === 1);
    expect(await redis.admin.xpending(keys.webhookStream, 'delivery')).toEqual([1, expect.any(String), expect.any(String), [['dying', '1']]]);

    receiver.set('answer');
    const survivor = make({ targetOf, claimIdleMs: 400, consumer: 'survivor' });
    survivor.start();
    await waitUntil('the survivor delivered it', () => receiver.answered().includes(event.id), 3000);
    expect(receiver.seen.length).toBe(2);
  });

  test('entries beyond what a backed-up lane can deliver before the claim delay are put off, not lost, with no attempt counted', async () => {
    const receiver = await startReceiver({ delayMs: 150 });
    const targetOf = (): WebhookTarget => ({ url: receiver.url, secret: SECRET });
    // claimIdleMs / timeoutMs = 2: no room to wait behind the delivery in flight.
    const queue = make({ targetOf, perTargetConcurrency: 1, timeoutMs: 500, claimIdleMs: 1000, retryDelaysMs: [] });
    const events = [anEvent('analytics'), anEvent('analytics'), anEvent('analytics')];
    for (const event of events) await queue.enqueue(event);
    queue.start();
    await waitUntil('all delivered', () => receiver.answered().length === 3, 5000);
    expect(receiver.answered().sort()).toEqual(events.map((event) => event.id).sort());
    expect(receiver.seen).toHaveLength(3);
    // retryDelaysMs is empty: had a put-off counted as an attempt, these would be dead letters.
    expect(await queue.deadLetters()).toEqual([]);
  });
});

describe('stopping the memory worker', () => {
  const make = backends[1]!.make;

  test('a stop cuts a hanging delivery after the bound, counts no attempt, and the job is delivered once started again', async () => {
    const receiver = await startReceiver('hang');
    const queue = make({ targetOf: () => ({ url: receiver.url, secret: SECRET }), stopTimeoutMs: DELIVERY_MS, retryDelaysMs: [] });
    const event = anEvent('analytics');
    await queue.enqueue(event);
    queue.start();
    await waitUntil('the delivery started', () => receiver.seen.length === 1);
    const stopping = Date.now();
    await queue.stop();
    const stopMs = Date.now() - stopping;
    expect(stopMs).toBeGreaterThanOrEqual(DELIVERY_MS - 10);
    expect(stopMs).toBeLessThan(DELIVERY_MS + WORKER_STOP_SLACK_MS);

    receiver.set('answer');
    queue.start();
    await waitUntil('delivered after the start', () => receiver.answered().includes(event.id));
    // retryDelaysMs is empty: had the cut attempt counted, the event would be a dead letter.
    expect(await queue.deadLetters()).toEqual([]);
    expect(receiver.seen).toHaveLength(2);
  });
});
