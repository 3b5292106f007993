// One readiness probe per process, shared: /readyz answers from a result at most `freshMs` old
// (plus the probe's own deadline), and requests that come while a probe is out wait for it
// rather than send their own. So a stranger asking /readyz as fast as they like costs Redis and
// each chain one call per `freshMs`, not one per request (a metered RPC plan is not theirs to spend).
import { LRUCache } from 'lru-cache';

export type Check = 'ok' | 'unreachable';

export type ReadinessChecks = {
  store: Check;
  /** The chains as readiness counts them (any or all). */
  chain: Check;
  /** Each chain's own check, in the chains' order. */
  chains: Check[];
};

/** How long a probe's result is served (ms): a load balancer polling every few seconds sees every change. */
export const READINESS_FRESH_MS = 1000;

/** Settles with the work's outcome, or 'unreachable' when it fails or outlasts the deadline. */
async function within(work: () => Promise<unknown>, deadlineMs: number): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), deadlineMs);
  });
  try {
    return await Promise.race([
      work().then(
        (): Check => 'ok',
        (): Check => 'unreachable',
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createReadinessProbe(deps: {
  ping: () => Promise<unknown>;
  /** One call per chain: its current block, read fresh. */
  chainHeads: readonly (() => Promise<unknown>)[];
  readyWithChains: 'any' | 'all';
  deadlineMs: number;
  now: () => number;
  freshMs?: number;
}): { current(): Promise<ReadinessChecks> } {
  const run = async (): Promise<ReadinessChecks> => {
    const [store, ...chains] = await Promise.all([within(deps.ping, deps.deadlineMs), ...deps.chainHeads.map((head) => within(head, deps.deadlineMs))]);
    const answering = chains.filter((each) => each === 'ok').length;
    const enough = deps.readyWithChains === 'all' ? answering === chains.length : answering > 0;
    return { store: store!, chain: enough ? 'ok' : 'unreachable', chains };
  };
  // One entry; the cache's fetch shares the probe in flight with every request that comes meanwhile.
  const results = new LRUCache<'readiness', ReadinessChecks>({
    max: 1,
    ttl: deps.freshMs ?? READINESS_FRESH_MS,
    perf: { now: deps.now },
    // Read the clock at every request: the age is the subject, so no rounding of it.
    ttlResolution: 0,
    fetchMethod: run,
  });
  return {
    current: async () => (await results.fetch('readiness'))!,
  };
}
