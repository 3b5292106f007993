// The webhook queue's scripts (src/domain/webhooks/scripts/), each run by the command named after
// its file on a real redis-server, on a stream read through a consumer group as the queue does.
import type { Redis } from 'ioredis';
import { WEBHOOK_SCRIPTS } from '../../../../src/domain/webhooks/redis_webhook_queue.js';
import { luaScriptClient } from '../../../support/lua_script_client.js';
import { redisForTests } from '../../../support/redis_for_tests.js';

type Queueing = Redis & {
  moveDueRetries(retries: string, stream: string, nowMs: string, batch: string): Promise<number>;
  replayDeadLetter(dead: string, stream: string, eventId: string, job: string): Promise<number>;
  pruneConsumers(stream: string, group: string, consumer: string, idleMs: string): Promise<number>;
  putBackUnsettled(stream: string, group: string, consumer: string, ...idsAndJobs: string[]): Promise<number>;
};

const redis = redisForTests();
const scripted = luaScriptClient<Queueing>(redis, WEBHOOK_SCRIPTS);

/** The jobs on the stream, oldest first. */
const jobsOn = async (stream: string) => (await redis.admin.xrange(stream, '-', '+')).map(([, fields]) => fields[1]);

type Read = [stream: string, entries: [id: string, fields: string[]][]][];

test('moveDueRetries moves the due retries, at most a batch, onto the stream, and answers how many', async () => {
  await redis.admin.zadd('retries', '100', 'job-1', '200', 'job-2', '300', 'job-3', '900', 'later');
  expect(await scripted().moveDueRetries('retries', 'stream', '500', '2')).toBe(2);
  expect(await scripted().moveDueRetries('retries', 'stream', '500', '2')).toBe(1);
  expect(await scripted().moveDueRetries('retries', 'stream', '500', '2')).toBe(0);
  expect(await jobsOn('stream')).toEqual(['job-1', 'job-2', 'job-3']);
  expect(await redis.admin.zrange('retries', '0', '-1')).toEqual(['later']);
});

test('replayDeadLetter queues a dead letter once: a second replay finds it gone', async () => {
  await redis.admin.hset('dead', 'event-1', 'letter');
  expect(await scripted().replayDeadLetter('dead', 'stream', 'event-1', 'job-1')).toBe(1);
  expect(await scripted().replayDeadLetter('dead', 'stream', 'event-1', 'job-1')).toBe(0);
  expect(await jobsOn('stream')).toEqual(['job-1']);
  expect(await redis.admin.hexists('dead', 'event-1')).toBe(0);
});

test('pruneConsumers drops the idle consumers holding nothing, never the caller nor one holding an entry', async () => {
  await redis.admin.xgroup('CREATE', 'stream', 'group', '0', 'MKSTREAM');
  await redis.admin.xadd('stream', '*', 'job', 'job-1');
  for (const consumer of ['idle', 'me']) await redis.admin.xgroup('CREATECONSUMER', 'stream', 'group', consumer);
  await redis.admin.xreadgroup('GROUP', 'group', 'holding', 'COUNT', '1', 'STREAMS', 'stream', '>');
  // Idle for at least 0 ms: every consumer is idle enough, so only what it holds and who asks decide.
  expect(await scripted().pruneConsumers('stream', 'group', 'me', '-1')).toBe(1);
  const left = ((await redis.admin.xinfo('CONSUMERS', 'stream', 'group')) as unknown[][]).map((info) => String(info[1]));
  expect(left.sort()).toEqual(['holding', 'me']);
  // A consumer idle for less than asked stays.
  await redis.admin.xgroup('CREATECONSUMER', 'stream', 'group', 'fresh');
  expect(await scripted().pruneConsumers('stream', 'group', 'me', '600000')).toBe(0);
});

test('putBackUnsettled puts back only what is still pending under this consumer, as new entries', async () => {
  await redis.admin.xgroup('CREATE', 'stream', 'group', '0', 'MKSTREAM');
  await redis.admin.xadd('stream', '*', 'job', 'job-1');
  await redis.admin.xadd('stream', '*', 'job', 'job-2');
  const read = (await redis.admin.xreadgroup('GROUP', 'group', 'me', 'COUNT', '2', 'STREAMS', 'stream', '>')) as Read;
  const [first, second] = read[0]![1].map(([id]) => id);
  // Another worker took the second over meanwhile.
  await redis.admin.xclaim('stream', 'group', 'other', 0, second!);
  expect(await scripted().putBackUnsettled('stream', 'group', 'me', first!, 'job-1', second!, 'job-2')).toBe(1);
  expect(await jobsOn('stream')).toEqual(['job-2', 'job-1']);
  const pending = (await redis.admin.xpending('stream', 'group', '-', '+', 10)) as [string, string][];
  expect(pending.map(([id, consumer]) => [id, consumer])).toEqual([[second, 'other']]);
});
