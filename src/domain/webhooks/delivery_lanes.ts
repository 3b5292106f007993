// Runs webhook deliveries side by side: at most `concurrency` at once in all, at most `perTarget`
// to one target (a lane), so a receiver that hangs holds only its own lane. A stop waits for the
// deliveries in flight up to a bound, then aborts those still running.
export type DeliveryLanes = {
  /** True when one more delivery to `lane` may start now. */
  hasRoom(lane: string): boolean;
  /** Starts `work` in `lane` (the caller checked hasRoom); `signal` aborts when a stop gives up on it. */
  start(lane: string, work: (signal: AbortSignal) => Promise<void>): void;
  /** Deliveries running now. */
  readonly running: number;
  /** Resolves when some delivery ends, or after `ms`. */
  nextEnd(ms: number): Promise<void>;
  /** Waits for every running delivery up to `ms`, then aborts the rest and waits for them to unwind. */
  drain(ms: number): Promise<void>;
};

/** `onEnd` runs after each delivery has left its lane, when there is room for the next. */
export function createDeliveryLanes(options: { concurrency: number; perTarget: number; onEnd?: () => void }): DeliveryLanes {
  const { concurrency, perTarget, onEnd } = options;
  if (!(Number.isInteger(concurrency) && concurrency > 0 && Number.isInteger(perTarget) && perTarget > 0)) {
    throw new Error('webhook queue: concurrency and perTargetConcurrency must be positive integers');
  }
  const busy = new Map<string, number>();
  const tasks = new Map<Promise<void>, AbortController>();
  let ended: (() => void)[] = [];

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ended.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  return {
    hasRoom: (lane) => tasks.size < concurrency && (busy.get(lane) ?? 0) < perTarget,
    start(lane, work) {
      const controller = new AbortController();
      busy.set(lane, (busy.get(lane) ?? 0) + 1);
      const task: Promise<void> = work(controller.signal)
        .catch(() => {})
        .finally(() => {
          const left = (busy.get(lane) ?? 1) - 1;
          if (left === 0) busy.delete(lane);
          else busy.set(lane, left);
          tasks.delete(task);
          const waiting = ended;
          ended = [];
          for (const wake of waiting) wake();
          onEnd?.();
        });
      tasks.set(task, controller);
    },
    get running() {
      return tasks.size;
    },
    nextEnd: (ms) => (tasks.size === 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : wait(ms)),
    async drain(ms) {
      const until = Date.now() + ms;
      while (tasks.size > 0 && Date.now() < until) await wait(until - Date.now());
      for (const controller of tasks.values()) controller.abort();
      await Promise.all(tasks.keys());
    },
  };
}
