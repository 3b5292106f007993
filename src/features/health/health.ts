// Liveness and readiness for load balancers, containers and compose:
// /healthz answers while the process runs; /readyz only when Redis and the chain both answer
// within a deadline, so an instance that cannot serve logins is taken out of rotation. With
// several chains each is probed and reported; by default the instance stays ready while any
// chain answers (a down chain refuses only its own logins), or only while all do
// (READY_WITH_CHAINS=all). The process that follows the chain (src/domain/watch/) adds its lag and
// last error: reported, never a reason to fail.
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { SIGNET_VERSION } from '../../base/version.js';
import type { Config } from '../../config/config.js';
import type { ChainWatchReport } from '../../domain/watch/chain_watcher.js';
import { anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { EndpointReport } from '../../infra/chain/rpc_endpoints.js';
import type { Store } from '../../infra/store/store.js';

export type ReadinessDeps = {
  store: Store;
  /** Every chain served, first first. */
  chains: readonly { chainId: number; name: string; client: PublicClient; endpoints?: { report(): EndpointReport[] } }[];
  /** Ready while any chain answers, or only while all do. */
  readyWithChains?: 'any' | 'all';
  deadlineMs?: number;
  /** The chain watcher's state, while this process holds its lease (undefined otherwise). */
  chainWatch?: () => ChainWatchReport | undefined;
  /** With several chains: each chain's watcher, in the chains' order (its report while this process follows that chain). */
  chainWatches?: () => readonly (ChainWatchReport | undefined)[];
};

type Check = 'ok' | 'unreachable';

const TAG = 'Health';

/** Settles with the work's outcome, or 'unreachable' when it fails or outlasts the deadline. */
async function probe(work: () => Promise<unknown>, deadlineMs: number): Promise<Check> {
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

const check = z.enum(['ok', 'unreachable']);
const checks = z.object({
  store: check,
  chain: check.meta({ description: 'The chains as readiness counts them (READY_WITH_CHAINS)' }),
  chains: z
    .array(z.object({ chain_id: z.number().int(), name: z.string(), check }))
    .optional()
    .meta({ description: 'With several chains: each one' }),
});

const chainWatch = z
  .object({
    head: z.number().int(),
    cursor: z.number().int().meta({ description: 'the last block whose events were all handled' }),
    lag_blocks: z.number().int().meta({ description: 'head - cursor' }),
    lag_seconds: z.number().int().optional().meta({ description: 'seconds since the newest fully handled block was made' }),
    settled: z.number().int().meta({ description: 'the newest block taken as settled: the watcher reads nothing past it' }),
    settled_by: z.string().meta({ description: 'what makes a block settled: "<n> confirmations", "safe" or "finalized"' }),
    behind_since: z.string().optional().meta({ description: 'since when the watcher has not reached the settled point' }),
    last_round_at: z.string().optional(),
    last_error: z.object({ stage: z.enum(['chain', 'store', 'handler']), at: z.string() }).optional(),
  })
  .meta({ description: 'Only from the process that follows the chain (holds the chain watcher lease); never makes readiness fail' });

const chainEndpoints = z
  .array(
    z.object({
      chain_id: z.number().int(),
      endpoints: z.array(
        z.object({
          label: z.string().meta({ description: "the operator's label, else the URL's host (never the URL)" }),
          state: z.enum(['up', 'down', 'rate_limited']),
          since: z.string().optional(),
          retry_at: z.string().optional().meta({ description: 'rate limited: when its Retry-After ends' }),
          log_block_range: z.number().int().optional().meta({ description: 'the most blocks one eth_getLogs asks of it, as learned from its refusals' }),
        }),
      ),
    }),
  )
  .meta({ description: "Each chain's RPC endpoints in order of preference: calls go to the first that is up; never makes readiness fail while one answers" });

const chainWatches = z
  .array(
    z.object({
      chain_id: z.number().int(),
      name: z.string(),
      following: z.boolean().meta({ description: "this process holds the chain's watcher lease" }),
      watch: chainWatch.optional(),
    }),
  )
  .meta({ description: "With several chains: each chain's watcher (its state only from the process that follows it); never makes readiness fail" });

function healthRoutes({
  store,
  chains,
  readyWithChains = 'any',
  deadlineMs = 1000,
  chainWatch: watchReport,
  chainWatches: watchReports,
}: ReadinessDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/healthz',
      summary: 'Liveness: the process runs',
      tag: TAG,
      auth: anyone,
      responses: {
        200: {
          description: 'Alive, and which version runs',
          schema: z.object({ status: z.literal('ok'), version: z.string().meta({ description: "Signet's version (package.json; CHANGELOG.md)" }) }),
        },
      },
      handle: async () => ({ body: { status: 'ok', version: SIGNET_VERSION } }),
    }),
    route({
      method: 'get',
      path: '/readyz',
      summary: 'Readiness: Redis and the chain answer within the deadline',
      tag: TAG,
      auth: anyone,
      responses: {
        200: {
          description: 'Ready',
          schema: z.object({
            status: z.literal('ready'),
            checks,
            chain_endpoints: chainEndpoints.optional(),
            chain_watch: chainWatch.optional(),
            chain_watches: chainWatches.optional(),
          }),
        },
        503: {
          description: 'Redis (`store_unavailable`) or the chain (`chain_unavailable`) does not answer',
          schema: z.object({
            error: z.literal('temporarily_unavailable'),
            error_description: z.string(),
            reason: z.enum(['store_unavailable', 'chain_unavailable']),
            checks,
            chain_endpoints: chainEndpoints.optional(),
            chain_watch: chainWatch.optional(),
            chain_watches: chainWatches.optional(),
          }),
        },
      },
      async handle() {
        const [storeCheck, ...chainChecks] = await Promise.all([
          probe(() => store.ping(), deadlineMs),
          ...chains.map(({ client }) => probe(() => client.getBlockNumber({ cacheTime: 0 }), deadlineMs)),
        ]);
        const answering = chainChecks.filter((each) => each === 'ok').length;
        const enough = readyWithChains === 'all' ? answering === chains.length : answering > 0;
        const chainCheck: Check = enough ? 'ok' : 'unreachable';
        const each = chains.map((chain, i) => ({ chain_id: chain.chainId, name: chain.name, check: chainChecks[i]! }));
        const checked = { store: storeCheck!, chain: chainCheck, ...(chains.length > 1 ? { chains: each } : {}) };
        const report = watchReport?.();
        const reports = chains.length > 1 ? watchReports?.() : undefined;
        const withEndpoints = chains.filter((chain) => chain.endpoints);
        const watching = {
          ...(withEndpoints.length
            ? { chain_endpoints: withEndpoints.map((chain) => ({ chain_id: chain.chainId, endpoints: chain.endpoints!.report() })) }
            : {}),
          ...(report ? { chain_watch: report } : {}),
          ...(reports
            ? {
                chain_watches: chains.map((chain, i) => {
                  const watch = reports[i];
                  return { chain_id: chain.chainId, name: chain.name, following: watch !== undefined, ...(watch ? { watch } : {}) };
                }),
              }
            : {}),
        };
        if (storeCheck === 'ok' && chainCheck === 'ok') return { body: { status: 'ready', checks: checked, ...watching } };
        // Not an error thrown: the answer carries which check failed, for the operator.
        return {
          status: 503,
          body: {
            error: 'temporarily_unavailable',
            error_description: `not ready: ${storeCheck === 'ok' ? 'the chain' : 'the store (Redis)'} does not answer`,
            reason: storeCheck === 'ok' ? 'chain_unavailable' : 'store_unavailable',
            checks: checked,
            ...watching,
          },
        };
      },
    }),
  ];
}

type WatchReporter = { report(): ChainWatchReport | undefined };

/** The health routes over the app's store and chains, and each chain's watcher (src/features/consent_end/). */
export function createHealthFeature(deps: {
  store: Store;
  chains: { all: ReadinessDeps['chains'] };
  config: Pick<Config, 'readyWithChains'>;
  watching: { watcher: WatchReporter; watchers: readonly WatchReporter[] };
}) {
  const { watcher, watchers } = deps.watching;
  const routes = healthRoutes({
    store: deps.store,
    chains: deps.chains.all,
    readyWithChains: deps.config.readyWithChains,
    chainWatch: () => watcher.report(),
    chainWatches: () => watchers.map((each) => each.report()),
  });
  return { routes };
}
