// Liveness and readiness for load balancers, containers and compose:
// /healthz answers while the process runs; /readyz only when Redis and the chain both answer
// within a deadline, so an instance that cannot serve logins is taken out of rotation.
import type { Middleware } from 'koa';
import type { PublicClient } from 'viem';
import type { Store } from '../store/store.js';

export type ReadinessDeps = { store: Store; chain: PublicClient; deadlineMs?: number };

type Check = 'ok' | 'unreachable';

/** Settles with the work's outcome, or 'unreachable' when it fails or outlasts the deadline. */
async function probe(work: () => Promise<unknown>, deadlineMs: number): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), deadlineMs);
  });
  try {
    return await Promise.race([work().then((): Check => 'ok', (): Check => 'unreachable'), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes({ store, chain, deadlineMs = 1000 }: ReadinessDeps): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/healthz') {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
      return;
    }
    if (ctx.path !== '/readyz') return next();
    const [storeCheck, chainCheck] = await Promise.all([
      probe(() => store.ping(), deadlineMs),
      probe(() => chain.getBlockNumber({ cacheTime: 0 }), deadlineMs),
    ]);
    const checks = { store: storeCheck, chain: chainCheck };
    ctx.set('Cache-Control', 'no-store');
    if (storeCheck === 'ok' && chainCheck === 'ok') {
      ctx.body = { status: 'ready', checks };
      return;
    }
    ctx.status = 503;
    ctx.body = {
      error: 'temporarily_unavailable',
      error_description: `not ready: ${storeCheck === 'ok' ? 'the chain' : 'the store (Redis)'} does not answer`,
      reason: storeCheck === 'ok' ? 'chain_unavailable' : 'store_unavailable',
      checks,
    };
  };
}
