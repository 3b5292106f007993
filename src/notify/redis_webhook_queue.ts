// The webhook queue on Redis Streams, shared by every Signet process, delivering at least once:
// jobs on a stream read through a consumer group, retries in a sorted set, dead letters in a hash.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { notFound, unavailable } from '../errors.js';
import { keys } from '../store/keys.js';
import { createWebhookDelivery, parseJob, type WebhookJob } from './webhook_delivery.js';
import type { DeadLetter, WebhookQueue, WebhookQueueOptions } from './webhook_queue.js';
import { createWorkerLoop } from './worker_loop.js';

export type RedisWebhookQueueOptions = WebhookQueueOptions & {
  /** An entry read but unacked for this long belongs to a dead worker and is taken over
   * (default 30000). Keep it above timeoutMs, or a slow delivery is made twice. */
  claimIdleMs?: number;
  /** This worker's name in the consumer group (default: host, pid and a random suffix). */
  consumer?: string;
};

const GROUP = 'delivery';
const STREAM = keys.webhookStream;
const RETRIES = keys.webhookRetries;
const DEAD = keys.webhookDeadLetters;

// Due retries go back onto the stream in one step, so two workers never both move one.
const MOVE_DUE_RETRIES = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, job in ipairs(due) do
  redis.call('XADD', KEYS[2], '*', 'job', job)
  redis.call('ZREM', KEYS[1], job)
end
return #due`;

// Only the caller that removes the dead letter puts it back, so a double replay queues it once.
const REPLAY = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('XADD', KEYS[2], '*', 'job', ARGV[2])
return 1`;

// Consumers of restarted processes pile up in the group: drop those holding nothing and idle far
// longer than a live worker ever is. Atomic, so none reads an entry between check and removal.
const PRUNE_CONSUMERS = `
local removed = 0
for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local info = {}
  for i = 1, #consumer, 2 do info[consumer[i]] = consumer[i + 1] end
  if info['name'] ~= ARGV[2] and info['pending'] == 0 and info['idle'] > tonumber(ARGV[3]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    removed = removed + 1
  end
end
return removed`;

type Entry = [id: string, fields: string[] | null];

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

function connect(url: string): Redis {
  // disconnectTimeout: closing a client that never reached Redis otherwise holds the process 2 s.
  const redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, disconnectTimeout: 500 });
  // ioredis reconnects by itself; the error event only needs a listener so it does not crash.
  redis.on('error', () => {});
  return redis;
}

/** QUIT, then disconnect: a client still reconnecting answers QUIT at once but keeps trying. */
async function release(redis: Redis): Promise<void> {
  await redis.quit().catch(() => {});
  redis.disconnect();
}

function jobOf(fields: string[] | null): WebhookJob | undefined {
  if (!fields) return undefined;
  const at = fields.indexOf('job');
  const text = at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
  return text === undefined ? undefined : parseJob(text);
}

export function createRedisWebhookQueue(redisUrl: string, options: RedisWebhookQueueOptions): WebhookQueue {
  const { attempt, pollMs, now, logger } = createWebhookDelivery(options);
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const consumer = options.consumer ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  if (!(claimIdleMs > 0)) throw new Error('webhook queue: claimIdleMs must be positive');
  // How often the worker looks for entries abandoned by dead workers.
  const claimEveryMs = Math.max(pollMs, claimIdleMs / 2);
  const redis = connect(redisUrl);

  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw unavailable('the webhook queue (Redis) is unreachable', error);
    }
  };

  const ensureGroup = async () => {
    try {
      // From id 0: events enqueued before any worker ever ran are delivered too.
      await redis.xgroup('CREATE', STREAM, GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) throw error;
    }
  };

  const moveDueRetries = async () => {
    const batch = 100;
    while ((await redis.eval(MOVE_DUE_RETRIES, 2, RETRIES, STREAM, String(now()), String(batch))) === batch);
  };

  /** Delivers one entry, then acks and deletes it, keeping a retry or a dead letter in the same step. */
  const handle = async ([id, fields]: Entry) => {
    const job = jobOf(fields);
    // Deleted meanwhile (fields null), or not written by this queue: nothing to deliver.
    if (!job && fields) logger.error(`webhook worker: stream entry ${id} holds no job, dropped`);
    const outcome = job ? await attempt(job) : undefined;
    const settle = redis.multi();
    if (outcome?.kind === 'retry') settle.zadd(RETRIES, outcome.dueAt, JSON.stringify(outcome.job));
    else if (outcome?.kind === 'dead') settle.hset(DEAD, outcome.letter.event.id, JSON.stringify(outcome.letter));
    settle.xack(STREAM, GROUP, id).xdel(STREAM, id);
    // A failure here leaves the entry pending: it is claimed again and redelivered (at least once).
    for (const [error] of (await settle.exec()) ?? []) if (error) throw error;
  };

  /** One entry abandoned by a dead worker (idle for claimIdleMs), claimed for this one. */
  let claimCursor = '0-0';
  let nextClaimAt = 0;
  const claimAbandoned = async (): Promise<Entry | undefined> => {
    if (Date.now() < nextClaimAt) return undefined;
    const [cursor, claimed] = (await redis.xautoclaim(STREAM, GROUP, consumer, claimIdleMs, claimCursor, 'COUNT', 1)) as [
      string,
      Entry[],
    ];
    claimCursor = cursor;
    if (cursor === '0-0') {
      // A whole pass over the pending entries is done: rest, and tidy the group meanwhile.
      nextClaimAt = Date.now() + claimEveryMs;
      await redis.eval(PRUNE_CONSUMERS, 1, STREAM, GROUP, consumer, String(2 * claimIdleMs));
    }
    // Redis 6.2 lists an entry deleted meanwhile as nil; 7 leaves it out.
    return claimed[0] ?? undefined;
  };

  /** The next new entry, waiting up to pollMs for one. */
  const readNew = async (reader: Redis): Promise<Entry | undefined> => {
    const answer = (await reader.xreadgroup('GROUP', GROUP, consumer, 'COUNT', 1, 'BLOCK', pollMs, 'STREAMS', STREAM, '>')) as
      | [string, Entry[]][]
      | null;
    return answer?.[0]?.[1][0];
  };

  const run = async (active: () => boolean) => {
    // Blocking reads get their own connection so enqueue never waits behind them.
    const reader = redis.duplicate();
    reader.on('error', () => {});
    let groupReady = false;
    let failing = false;
    try {
      while (active()) {
        try {
          if (!groupReady) await ensureGroup();
          groupReady = true;
          await moveDueRetries();
          const entry = (await claimAbandoned()) ?? (await readNew(reader));
          if (entry) await handle(entry);
          if (failing) logger.info('webhook worker: Redis answers again');
          failing = false;
        } catch (error) {
          // The group is gone when the stream was deleted (FLUSHALL): create it again.
          if (String(error).includes('NOGROUP')) groupReady = false;
          if (!failing) logger.error('webhook worker: Redis failed; retrying every poll', error);
          failing = true;
          await sleep(pollMs);
        }
      }
    } finally {
      await release(reader);
    }
  };

  const loop = createWorkerLoop(run);

  return {
    enqueue: (event) =>
      guard(async () => {
        const job: WebhookJob = { event, attempts: 0 };
        await redis.xadd(STREAM, '*', 'job', JSON.stringify(job));
      }),
    start: loop.start,
    stop: loop.stop,
    deadLetters: () =>
      guard(async () => {
        const letters = (await redis.hvals(DEAD)).map((text) => JSON.parse(text) as DeadLetter);
        return letters.sort((a, b) => a.dead_at.localeCompare(b.dead_at));
      }),
    replay: async (eventId) => {
      const missing = () => notFound(`no dead letter with event id ${eventId}`);
      const text = await guard(() => redis.hget(DEAD, eventId));
      if (text === null) throw missing();
      const { event } = JSON.parse(text) as DeadLetter;
      const job: WebhookJob = { event, attempts: 0 };
      const replayed = await guard(() => redis.eval(REPLAY, 2, DEAD, STREAM, eventId, JSON.stringify(job)));
      if (replayed !== 1) throw missing();
    },
    close: async () => {
      await loop.stop();
      await release(redis);
    },
  };
}
