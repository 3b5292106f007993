// The webhook queue in process memory for the demo: the same retries and dead letters as the
// Redis queue, but nothing survives a restart and nothing is shared between processes.
import { notFound } from '../errors.js';
import { createWebhookDelivery, type WebhookJob } from './webhook_delivery.js';
import type { DeadLetter, WebhookQueue, WebhookQueueOptions } from './webhook_queue.js';
import { createWorkerLoop } from './worker_loop.js';

export function createMemoryWebhookQueue(options: WebhookQueueOptions): WebhookQueue {
  const { attempt, pollMs, now } = createWebhookDelivery(options);
  const ready: WebhookJob[] = [];
  const retries: { dueAt: number; job: WebhookJob }[] = [];
  const dead = new Map<string, DeadLetter>();
  let wake: (() => void) | undefined;

  // Sleeps up to pollMs; enqueue, replay and stop cut it short.
  const nap = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = undefined;
        resolve();
      }, pollMs);
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  const moveDueRetries = () => {
    const time = now();
    for (let i = retries.length - 1; i >= 0; i--) {
      const retry = retries[i]!;
      if (retry.dueAt <= time) {
        retries.splice(i, 1);
        ready.push(retry.job);
      }
    }
  };

  const run = async (active: () => boolean) => {
    while (active()) {
      moveDueRetries();
      const job = ready.shift();
      if (!job) {
        await nap();
        continue;
      }
      const outcome = await attempt(job);
      if (outcome.kind === 'retry') retries.push({ dueAt: outcome.dueAt, job: outcome.job });
      else if (outcome.kind === 'dead') dead.set(outcome.letter.event.id, outcome.letter);
    }
  };

  const loop = createWorkerLoop(run, () => wake?.());

  return {
    enqueue: async (event) => {
      // A copy, as the Redis queue keeps JSON: later changes by the caller do not leak in.
      ready.push({ event: JSON.parse(JSON.stringify(event)), attempts: 0 });
      wake?.();
    },
    start: loop.start,
    stop: loop.stop,
    deadLetters: async () => [...dead.values()].sort((a, b) => a.dead_at.localeCompare(b.dead_at)),
    replay: async (eventId) => {
      const letter = dead.get(eventId);
      if (!letter) throw notFound(`no dead letter with event id ${eventId}`);
      dead.delete(eventId);
      ready.push({ event: letter.event, attempts: 0 });
      wake?.();
    },
    close: async () => {
      await loop.stop();
      ready.length = 0;
      retries.length = 0;
      dead.clear();
    },
  };
}
