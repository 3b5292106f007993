// One guard for the Redis calls of a request (src/infra/store/redis_guard.ts), on a real redis-server,
// through the store and the webhook queue alike: a command Redis refuses as wrong (WRONGTYPE, an
// error raised inside a script) is a bug, answered 500 and logged, never counted as an outage;
// a killed Redis is 503 store_unavailable, with Retry-After.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { SignetError } from '../../src/base/errors.js';
import { createRedisWebhookQueue } from '../../src/domain/webhooks/redis_webhook_queue.js';
import type { WebhookEvent, WebhookQueue } from '../../src/domain/webhooks/webhook_queue.js';
import { errorHandler } from '../../src/http/error_handler.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { keys } from '../../src/infra/store/keys.js';
import { createRedisClient, type RedisClient } from '../../src/infra/store/redis_connection.js';
import { redisGuard } from '../../src/infra/store/redis_guard.js';
import { createRedisStore, type RedisStore } from '../../src/infra/store/redis_store.js';
import { captureLogs } from '../support/log_capture.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';

let server: RedisServer;
let admin: Redis;
let client: RedisClient;
let guard: ReturnType<typeof redisGuard>;
let store: RedisStore;
let queue: WebhookQueue;
let http: Server;
let base: string;
const outages: string[] = [];
const logs = captureLogs<{ level: string; msg: string; err?: { message: string } }>();

const event = (): WebhookEvent => ({ id: crypto.randomUUID(), type: 'test.event', service: 'svc', created_at: new Date().toISOString(), data: {} });

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url, { disconnectTimeout: 500 });
  client = createRedisClient(server.url);
  guard = redisGuard(client, { commandTimeoutMs: 1000, onOutage: () => outages.push('guard') });
  store = createRedisStore(server.url, { onError: (kind) => kind === 'command' && outages.push('store') });
  queue = createRedisWebhookQueue(server.url, { targetOf: () => undefined, retryDelaysMs: [] });
  // The two calls a request makes on the queue, behind Signet's error handler.
  const app = new Koa();
  app.use(errorHandler(() => {}, createLogger({ destination: logs.destination })));
  app.use(async (ctx) => {
    if (ctx.path === '/enqueue') await queue.enqueue(event());
    else await queue.replay('letter-1');
    ctx.status = 204;
  });
  http = createServer(app.callback());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await queue.close();
  await store.close();
  client.disconnect();
  admin.disconnect();
  await server.stop();
});

/** What a call rejected with: an outage's reason, or the error's own message. */
async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error === undefined) throw new Error('the call did not fail');
  if (error instanceof SignetError) return `${error.status} ${error.reason}`;
  return (error as Error).message;
}

async function post(path: string) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { accept: 'application/json' } });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), reason: ((await response.json()) as { reason: string }).reason };
}

test('WRONGTYPE and an error inside a script are the errors themselves, not an outage', async () => {
  await admin.hset('signet:test:hash', 'field', 'value');
  expect(await refusal(guard(() => client.get('signet:test:hash')))).toMatch(/^WRONGTYPE/);
  expect(await refusal(guard(() => client.eval("return redis.error_reply('ERR a bug in the script')", 0)))).toMatch(/^ERR a bug in the script/);
  expect(await refusal(guard(() => client.eval('return undefined_global.field', 0)))).toMatch(/^ERR /);
  // The store: a record read where a hash is.
  expect(await refusal(store.get('signet:test:hash'))).toMatch(/^WRONGTYPE/);

  // The queue: its stream is a string, so XADD fails, by itself (enqueue) and inside the replay script.
  await admin.set(keys.webhookStream, 'not a stream');
  await admin.hset(keys.webhookDeadLetters, 'letter-1', JSON.stringify({ event: event(), attempts: 1, last_error: 'x', dead_at: new Date().toISOString() }));
  expect(await refusal(queue.enqueue(event()))).toMatch(/^WRONGTYPE/);
  expect(await refusal(queue.replay('letter-1'))).toMatch(/^WRONGTYPE.*script/s);
  expect(outages).toEqual([]);

  // A request that meets one: 500 server_error, and the cause in the log.
  logs.written.length = 0;
  await admin.hset(keys.webhookDeadLetters, 'letter-1', JSON.stringify({ event: event(), attempts: 1, last_error: 'x', dead_at: new Date().toISOString() }));
  expect(await post('/enqueue')).toEqual({ status: 500, retryAfter: null, reason: 'server_error' });
  expect(await post('/replay')).toEqual({ status: 500, retryAfter: null, reason: 'server_error' });
  expect(logs.lines().map((line) => [line.level, line.err?.message.split(' ')[0]])).toEqual([
    ['error', 'WRONGTYPE'],
    ['error', 'WRONGTYPE'],
  ]);
  await admin.del(keys.webhookStream, keys.webhookDeadLetters, 'signet:test:hash');
});

test('a killed Redis is store_unavailable (503, Retry-After) through the guard, the store and the queue', async () => {
  await queue.enqueue(event());
  expect(await store.get('signet:test:absent')).toBeUndefined();
  expect(await guard(() => client.get('signet:test:absent'))).toBeNull();
  await server.kill();
  expect(await refusal(guard(() => client.get('signet:test:absent')))).toBe('503 store_unavailable');
  expect(await refusal(store.get('signet:test:absent'))).toBe('503 store_unavailable');
  expect(await refusal(queue.enqueue(event()))).toBe('503 store_unavailable');
  expect(await refusal(queue.replay('letter-1'))).toBe('503 store_unavailable');
  expect(outages).toEqual(['guard', 'store']);
  expect(await post('/enqueue')).toEqual({ status: 503, retryAfter: '1', reason: 'store_unavailable' });
});
