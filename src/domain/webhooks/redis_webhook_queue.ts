// The webhook queue on Redis Streams, shared by every Signet process, delivering at least once:
// jobs on a stream read through a consumer group, retries in a sorted set, dead letters in a hash.
// The three share one hash tag (keys.ts), so the scripts and the MULTI below work on a Redis
// Cluster too; the connection is the store's kind (server, Sentinel or cluster), fail-fast alike.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { refuse } from '../../base/errors.js';
import { createWorkerLoop } from '../../infra/background/worker_loop.js';
import { keys } from '../../infra/store/keys.js';
import {
  createRedisClient,
  firstConnection,
  REDIS_CLIENT_DEFAULTS,
  type RedisClient,
  type RedisClientTuning,
  type RedisConnection,
} from '../../infra/store/redis_connection.js';
import { defineLuaScripts, readLuaScripts } from '../../infra/store/lua_scripts.js';
import { redisGuard } from '../../infra/store/redis_guard.js';
import { createDeliveryLanes } from './delivery_lanes.js';
import { type AttemptOutcome, createWebhookDelivery, parseJob, type WebhookJob } from './webhook_delivery.js';
import type { DeadLetter, WebhookQueue, WebhookQueueOptions } from './webhook_queue.js';

export type RedisWebhookQueueOptions = WebhookQueueOptions & {
  /** An entry read but unacked for this long belongs to a dead worker and is taken over
   * (default 30000). Keep it well above timeoutMs, or a slow delivery is made twice. */
  claimIdleMs?: number;
  /** This worker's name in the consumer group (default: host, pid and a random suffix). */
  consumer?: string;
  /** The Redis client's deadlines, as the store's (REDIS_COMMAND_TIMEOUT_MS, …). */
  redis?: RedisClientTuning;
};

const GROUP = 'delivery';
const STREAM = keys.webhookStream;
const RETRIES = keys.webhookRetries;
const DEAD = keys.webhookDeadLetters;

// Each step that must not be split between workers is one script (scripts/*.lua).
export const WEBHOOK_SCRIPTS = readLuaScripts(new URL('./scripts/', import.meta.url), {
  'move_due_retries.lua': { numberOfKeys: 2 },
  'replay_dead_letter.lua': { numberOfKeys: 2 },
  'prune_consumers.lua': { numberOfKeys: 1 },
  'put_back_unsettled.lua': { numberOfKeys: 1 },
});

/** The queue's client, with its scripts as commands. */
type ScriptedQueueRedis = Redis & {
  moveDueRetries(retries: string, stream: string, nowMs: string, batch: string): Promise<number>;
  replayDeadLetter(dead: string, stream: string, eventId: string, job: string): Promise<number>;
  pruneConsumers(stream: string, group: string, consumer: string, idleMs: string): Promise<number>;
  putBackUnsettled(stream: string, group: string, consumer: string, ...idsAndJobs: string[]): Promise<number>;
};

type Entry = [id: string, fields: string[] | null];

/** XINFO answers flat [name, value, name, value, …] lists. */
const pairs = (fields: unknown[]) => Array.from({ length: fields.length / 2 }, (_, i) => [String(fields[2 * i]), fields[2 * i + 1]] as const);

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** QUIT, then disconnect: a client still reconnecting answers QUIT at once but keeps trying. */
async function release(redis: RedisClient): Promise<void> {
  await redis.quit().catch(() => {});
  redis.disconnect();
}

function jobOf(fields: string[] | null): WebhookJob | undefined {
  if (!fields) return undefined;
  const at = fields.indexOf('job');
  const text = at >= 0 && at % 2 === 0 ? fields[at + 1] : undefined;
  return text === undefined ? undefined : parseJob(text);
}

/** The queue on a connection (a plain string is a REDIS_URL). */
export function createRedisWebhookQueue(connection: RedisConnection | string, options: RedisWebhookQueueOptions): WebhookQueue {
  const { attempt, pollMs, timeoutMs, stopTimeoutMs, concurrency, perTargetConcurrency, now, logger } = createWebhookDelivery(options);
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const consumer = options.consumer ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  if (!(claimIdleMs > 0)) throw new Error('webhook queue: claimIdleMs must be positive');
  // How often the worker looks for entries abandoned by dead workers.
  const claimEveryMs = Math.max(pollMs, claimIdleMs / 2);
  // Entries read for a target whose lane is full wait here, but only as many as can still be
  // delivered before claimIdleMs passes (or another worker would take them over as abandoned);
  // beyond that they are put off to the retry set, with their attempts unchanged.
  const waitingPerTarget = perTargetConcurrency * Math.max(0, Math.floor(claimIdleMs / timeoutMs) - 2);
  const maxHeld = concurrency * 4;
  const putOffMs = Math.min(timeoutMs, 1000);
  // The command API of a server client and of a cluster client is the same; one type serves both.
  const client = createRedisClient(connection, options.redis);
  defineLuaScripts(client, WEBHOOK_SCRIPTS);
  const redis = client as ScriptedQueueRedis;
  // Fail-fast clients have no offline queue: the first commands wait for the first connection.
  const waitForFirstConnection = firstConnection(client);
  const commandTimeoutMs = options.redis?.commandTimeoutMs ?? REDIS_CLIENT_DEFAULTS.commandTimeoutMs;
  const connectWaitMs = Math.max(1000, commandTimeoutMs);
  // The calls a request makes (enqueue, the admin's reads and replay) answer as the store's do:
  // an outage is 503 store_unavailable, a refused command (a bug) is itself.
  const guard = redisGuard(client, { commandTimeoutMs, firstConnectionMs: connectWaitMs });
  // Each delivery that ends makes room: the next waiting entry of any lane starts then.
  const lanes = createDeliveryLanes({ concurrency, perTarget: perTargetConcurrency, onEnd: () => startWaiting() });
  /** Entries this worker read and has not settled: running, or waiting for their lane. */
  const held = new Map<string, WebhookJob>();
  const waiting = new Map<string, string[]>();

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
    while ((await redis.moveDueRetries(RETRIES, STREAM, String(now()), String(batch))) === batch);
  };

  /** Acks and deletes an entry, keeping its retry, dead letter or put-off job in the same step. */
  const settle = async (id: string, outcome: AttemptOutcome | { kind: 'put off'; job: WebhookJob } | undefined) => {
    const step = redis.multi();
    if (outcome?.kind === 'retry') step.zadd(RETRIES, outcome.dueAt, JSON.stringify(outcome.job));
    else if (outcome?.kind === 'put off') step.zadd(RETRIES, now() + putOffMs, JSON.stringify(outcome.job));
    else if (outcome?.kind === 'dead') step.hset(DEAD, outcome.letter.event.id, JSON.stringify(outcome.letter));
    step.xack(STREAM, GROUP, id).xdel(STREAM, id);
    // A failure here leaves the entry pending: it is claimed again and redelivered (at least once).
    for (const [error] of (await step.exec()) ?? []) if (error) throw error;
  };

  /** Starts the waiting entries whose lanes have room; called again whenever a delivery ends. */
  const startWaiting = () => {
    for (const [lane, ids] of waiting) {
      while (ids.length > 0 && lanes.hasRoom(lane)) {
        const id = ids.shift()!;
        const job = held.get(id)!;
        lanes.start(lane, async (stopping) => {
          try {
            const outcome = await attempt(job, stopping);
            // Cut by a stop: left held, so the stop puts it back on the stream.
            if (outcome.kind === 'interrupted') return;
            await settle(id, outcome);
            held.delete(id);
          } catch (error) {
            // Redis failed to settle: the entry stays pending and is claimed again later.
            logger.error(`webhook worker: could not settle entry ${id}`, error);
            held.delete(id);
          }
        });
      }
      if (ids.length === 0) waiting.delete(lane);
    }
  };

  /** Takes an entry read from the stream: into its lane, or put off when its lane is backed up. */
  const take = async ([id, fields]: Entry) => {
    // Already ours (XAUTOCLAIM may return an entry this worker still works on).
    if (held.has(id)) return;
    const job = jobOf(fields);
    if (!job) {
      // Deleted meanwhile (fields null), or not written by this queue: nothing to deliver.
      if (fields) logger.error(`webhook worker: stream entry ${id} holds no job, dropped`);
      await settle(id, undefined);
      return;
    }
    const lane = job.event.service;
    const queued = waiting.get(lane) ?? [];
    if (!lanes.hasRoom(lane) && queued.length >= waitingPerTarget) {
      await settle(id, { kind: 'put off', job });
      return;
    }
    held.set(id, job);
    waiting.set(lane, [...queued, id]);
    // Started at once when there is room, so the next entry of this lane sees its lane as it is.
    startWaiting();
  };

  /** Entries abandoned by dead workers (idle for claimIdleMs), claimed for this one. */
  let claimCursor = '0-0';
  let nextClaimAt = 0;
  const claimAbandoned = async (count: number): Promise<Entry[]> => {
    if (Date.now() < nextClaimAt) return [];
    const [cursor, claimed] = (await redis.xautoclaim(STREAM, GROUP, consumer, claimIdleMs, claimCursor, 'COUNT', count)) as [string, Entry[]];
    claimCursor = cursor;
    if (cursor === '0-0') {
      // A whole pass over the pending entries is done: rest, and tidy the group meanwhile.
      nextClaimAt = Date.now() + claimEveryMs;
      await redis.pruneConsumers(STREAM, GROUP, consumer, String(2 * claimIdleMs));
    }
    // Redis 6.2 lists an entry deleted meanwhile as nil; 7 leaves it out.
    return claimed.filter(Boolean);
  };

  /** New entries, up to `count`, waiting up to pollMs for some. */
  const readNew = async (reader: Redis, count: number): Promise<Entry[]> => {
    const answer = (await reader.xreadgroup('GROUP', GROUP, consumer, 'COUNT', count, 'BLOCK', pollMs, 'STREAMS', STREAM, '>')) as [string, Entry[]][] | null;
    return answer?.[0]?.[1] ?? [];
  };

  /** After a stop: what was read but not delivered goes back on the stream, for any worker now. */
  const putBackHeld = async () => {
    if (held.size === 0) return;
    const pairs = [...held].flatMap(([id, job]) => [id, JSON.stringify(job)]);
    try {
      await redis.putBackUnsettled(STREAM, GROUP, consumer, ...pairs);
    } catch (error) {
      // Still pending in Redis: another worker claims them after claimIdleMs.
      logger.error('webhook worker: could not put unsettled entries back; they will be claimed later', error);
    }
    held.clear();
    waiting.clear();
  };

  const run = async (active: () => boolean) => {
    // Blocking reads get their own connection so enqueue never waits behind them.
    const reader = redis.duplicate();
    reader.on('error', () => {});
    const readerConnected = firstConnection(reader);
    let groupReady = false;
    let failing = false;
    try {
      while (active()) {
        try {
          await waitForFirstConnection(connectWaitMs);
          await readerConnected(connectWaitMs);
          if (!groupReady) await ensureGroup();
          groupReady = true;
          await moveDueRetries();
          const room = maxHeld - held.size;
          if (room <= 0) {
            // Enough on hand: wait for a delivery to end before reading more.
            await lanes.nextEnd(pollMs);
          } else {
            const claimed = await claimAbandoned(room);
            for (const entry of claimed.length ? claimed : await readNew(reader, room)) await take(entry);
          }
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
      // No new deliveries from here: waiting entries are not started, running ones get up to
      // stopTimeoutMs, and whatever is left unsettled goes back on the stream.
      waiting.clear();
      await lanes.drain(stopTimeoutMs);
      await putBackHeld();
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
    depth: () =>
      guard(async () => {
        // Not yet read by the group (lag), read but not acknowledged (pending), and retries.
        if (!(await redis.exists(STREAM))) return await redis.zcard(RETRIES);
        const [groups, retrying] = await Promise.all([redis.xinfo('GROUPS', STREAM) as Promise<unknown[][]>, redis.zcard(RETRIES)]);
        const group = groups.map((fields) => Object.fromEntries(pairs(fields))).find((fields) => fields.name === GROUP);
        // Before the first worker made the group, every entry of the stream is waiting.
        if (!group) return (await redis.xlen(STREAM)) + retrying;
        return Number(group.pending ?? 0) + Number(group.lag ?? 0) + retrying;
      }),
    deadLetters: () =>
      guard(async () => {
        const letters = (await redis.hvals(DEAD)).map((text) => JSON.parse(text) as DeadLetter);
        return letters.sort((a, b) => a.dead_at.localeCompare(b.dead_at));
      }),
    replay: async (eventId) => {
      const missing = () => refuse('dead_letter_not_found', `no dead letter with event id ${eventId}`);
      const text = await guard(() => redis.hget(DEAD, eventId));
      if (text === null) throw missing();
      const { event } = JSON.parse(text) as DeadLetter;
      const job: WebhookJob = { event, attempts: 0 };
      const replayed = await guard(() => redis.replayDeadLetter(DEAD, STREAM, eventId, JSON.stringify(job)));
      if (replayed !== 1) throw missing();
    },
    close: async () => {
      await loop.stop();
      await release(redis);
    },
  };
}
