// Waiting for a condition with a deadline, instead of a fixed sleep standing in for it.
export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Polls `check` every 5 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}
