// One background loop at a time: start is idempotent, stop waits for the loop to end, and a
// stop followed at once by a start never leaves the old loop running beside the new one.
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
      worker = Promise.all([worker, run(() => running && generation === mine)]).then(() => {});
    },
    async stop() {
      running = false;
      onStop?.();
      await worker;
    },
  };
}
