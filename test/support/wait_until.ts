// Waiting for a condition with a deadline, instead of a fixed sleep standing in for it.
export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * Polls `get` every 5 ms until it gives a value (anything but undefined or false) and returns
 * it; fails naming `what` after `timeoutMs`.
 */
export async function waitFor<T>(what: string, get: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await get();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

/** Polls `check` every 5 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  await waitFor(what, check, timeoutMs);
}
