// Waiting for a condition with a deadline, instead of a fixed sleep standing in for it.
export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Waits at least `ms` by the monotonic clock (a timer may fire a little early): time let pass on purpose. */
export async function sleepAtLeast(ms: number): Promise<void> {
  const until = performance.now() + ms;
  for (let left = ms; left > 0; left = until - performance.now()) await sleep(Math.ceil(left));
}

export type WaitOptions = {
  /** How long to keep trying: 5000 ms unless told. */
  timeoutMs?: number;
  /** The pause between tries: 5 ms unless told (longer where one try is costly: a process run, a round of requests). */
  everyMs?: number;
  /** The state last seen, added to the timeout's message so that a failure says why. */
  detail?: () => string;
};

/**
 * Polls `get` until it gives a value (anything but undefined or false) and returns it; fails
 * naming `what` (and the options' `detail`) after the timeout. `within`: the timeout in ms, or options.
 */
export async function waitFor<T>(
  what: string,
  get: () => T | undefined | false | Promise<T | undefined | false>,
  within: number | WaitOptions = 5000,
): Promise<T> {
  const { timeoutMs = 5000, everyMs = 5, detail } = typeof within === 'number' ? { timeoutMs: within } : within;
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}${detail ? `: ${detail()}` : ''}`);
    await sleep(everyMs);
  }
}

/** Polls `check` until it holds; fails naming `what` after the timeout (`within`: as for waitFor). */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, within: number | WaitOptions = 5000): Promise<void> {
  await waitFor(what, check, within);
}
