// The webhook queue in process memory for the demo: the same retries and dead letters as the
// Redis queue, but nothing survives a restart and nothing is shared between processes.
import { refuse } from '../../base/errors.js';
import { createWorkerLoop } from '../../infra/background/worker_loop.js';
import { createDeliveryLanes } from './delivery_lanes.js';
import { createWebhookDelivery, type WebhookJob } from './webhook_delivery.js';
import type { DeadLetter, WebhookQueue, WebhookQueueOptions } from './webhook_queue.js';

export function createMemoryWebhookQueue(options: WebhookQueueOptions): WebhookQueue {
  const { attempt, pollMs, now, concurrency, perTargetConcurrency, stopTimeoutMs } = createWebhookDelivery(options);
  // A delivery that ends makes room: the loop looks at the ready jobs again.
  const lanes = createDeliveryLanes({ concurrency, perTarget: perTargetConcurrency, onEnd: () => wake?.() });
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

  /** Starts, in queue order, every ready job whose target has room. */
  const startReady = () => {
    for (let i = 0; i < ready.length; ) {
      const job = ready[i]!;
      const lane = job.event.service;
      if (!lanes.hasRoom(lane)) {
        i++;
        continue;
      }
      ready.splice(i, 1);
      lanes.start(lane, async (stopping) => {
        const outcome = await attempt(job, stopping);
        if (outcome.kind === 'retry') retries.push({ dueAt: outcome.dueAt, job: outcome.job });
        else if (outcome.kind === 'dead') dead.set(outcome.letter.event.id, outcome.letter);
        // Cut by a stop: first in line when the worker starts again.
        else if (outcome.kind === 'interrupted') ready.unshift(job);
      });
    }
  };

  const run = async (active: () => boolean) => {
    while (active()) {
      moveDueRetries();
      startReady();
      await nap();
    }
    await lanes.drain(stopTimeoutMs);
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
    // In flight are counted by the lanes; waiting and retrying here.
    depth: async () => ready.length + retries.length + lanes.running,
    deadLetters: async () => [...dead.values()].sort((a, b) => a.dead_at.localeCompare(b.dead_at)),
    replay: async (eventId) => {
      const letter = dead.get(eventId);
      if (!letter) throw refuse('dead_letter_not_found', `no dead letter with event id ${eventId}`);
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
