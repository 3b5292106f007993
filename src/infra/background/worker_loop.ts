// One background loop at a time: start is idempotent, stop waits for the loop to end, and a
// stop followed at once by a start never runs the new loop beside the old one's ending.
export type WorkerLoop = { start(): void; stop(): Promise<void> };

/** `run` loops while `active()` is true; `onStop` wakes it if it is asleep. */
export function createWorkerLoop(run: (active: () => boolean) => Promise<void>, onStop?: () => void): WorkerLoop {
  let running = false;
  let generation = 0;
  let worker: Promise<void> | undefined;
  return {
    start() {
      if (running) return;
      running = true;
      const mine = ++generation;
      const previous = worker;
      // The new loop starts only once the old one has ended (its stop puts back what it held).
      worker = (async () => {
        await previous;
        if (running && generation === mine) await run(() => running && generation === mine);
      })();
    },
    async stop() {
      running = false;
      onStop?.();
      await worker;
    },
  };
}
