// Liveness and readiness for load balancers, containers and compose:
// /healthz answers while the process runs; /readyz only when Redis and the chain both answer
// within a deadline, so an instance that cannot serve logins is taken out of rotation. With
// several chains each is probed and reported; by default the instance stays ready while any
// chain answers (a down chain refuses only its own logins), or only while all do
// (READY_WITH_CHAINS=all). The process that follows the chain (src/domain/watch/) adds its lag and
// last error: reported, never a reason to fail. Every answer comes from one probe shared per
// process and at most a second old (readiness_probe.ts), and the public answer says only ready
// or not and which check failed: the endpoints' states and the watcher's, which name the
// operator's providers and how far behind the chain Signet is, are the admin's
// (GET /admin/readiness, ADMIN_TOKEN).
import type { PublicClient } from 'viem';
import { z } from 'zod';
import { SIGNET_VERSION } from '../../base/version.js';
import type { Config } from '../../config/config.js';
import type { ChainWatchReport } from '../../domain/watch/chain_watcher.js';
import { adminToken, anyone } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { EndpointReport } from '../../infra/chain/rpc_endpoints.js';
import type { Store } from '../../infra/store/store.js';
import { createReadinessProbe, type ReadinessChecks } from './readiness_probe.js';

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
  /** The clock the probe's result ages by. */
  now: () => number;
  /** The admin API's token: the details' route is off without it. */
  adminToken?: string;
};

const TAG = 'Health';

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

const notReady = z.object({
  error: z.literal('temporarily_unavailable'),
  error_description: z.string(),
  reason: z.enum(['store_unavailable', 'chain_unavailable']),
});

function healthRoutes({
  store,
  chains,
  readyWithChains = 'any',
  deadlineMs = 1000,
  chainWatch: watchReport,
  chainWatches: watchReports,
  now,
  adminToken: token,
}: ReadinessDeps): AnyRoute[] {
  const probe = createReadinessProbe({
    ping: () => store.ping(),
    chainHeads: chains.map(
      ({ client }) =>
        () =>
          client.getBlockNumber({ cacheTime: 0 }),
    ),
    readyWithChains,
    deadlineMs,
    now,
  });
  /** The checks as answered: each chain's only with several. */
  const checked = (result: ReadinessChecks) => ({
    store: result.store,
    chain: result.chain,
    ...(chains.length > 1 ? { chains: chains.map((chain, i) => ({ chain_id: chain.chainId, name: chain.name, check: result.chains[i]! })) } : {}),
  });
  const ready = (result: ReadinessChecks) => result.store === 'ok' && result.chain === 'ok';
  const whyNot = (result: ReadinessChecks) => ({
    error: 'temporarily_unavailable' as const,
    error_description: `not ready: ${result.store === 'ok' ? 'the chain' : 'the store (Redis)'} does not answer`,
    reason: result.store === 'ok' ? ('chain_unavailable' as const) : ('store_unavailable' as const),
  });
  /** What only the operator reads: the endpoints' and the watchers' states, read from memory at each request. */
  const details = () => {
    const report = watchReport?.();
    const reports = chains.length > 1 ? watchReports?.() : undefined;
    const withEndpoints = chains.filter((chain) => chain.endpoints);
    return {
      ...(withEndpoints.length ? { chain_endpoints: withEndpoints.map((chain) => ({ chain_id: chain.chainId, endpoints: chain.endpoints!.report() })) } : {}),
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
  };

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
      summary: 'Readiness: Redis and the chain answer within the deadline (a result at most a second old, shared by every caller)',
      tag: TAG,
      auth: anyone,
      responses: {
        200: { description: 'Ready', schema: z.object({ status: z.literal('ready'), checks }) },
        503: {
          description: 'Redis (`store_unavailable`) or the chain (`chain_unavailable`) does not answer',
          schema: notReady.extend({ checks }),
        },
      },
      async handle() {
        const result = await probe.current();
        if (ready(result)) return { body: { status: 'ready', checks: checked(result) } };
        // Not an error thrown: the answer carries which check failed, for the load balancer's logs.
        return { status: 503, body: { ...whyNot(result), checks: checked(result) } };
      },
    }),
    route({
      method: 'get',
      path: '/admin/readiness',
      summary: "Readiness with its details: each chain's endpoints and watcher, as this process sees them",
      tag: 'Admin: health',
      auth: adminToken(token),
      responses: {
        200: {
          description: 'The same probe as /readyz, and what this process knows of its endpoints and its chain watchers (answered 200 whether ready or not)',
          schema: z.object({
            status: z.enum(['ready', 'not_ready']),
            reason: z.enum(['store_unavailable', 'chain_unavailable']).optional().meta({ description: 'Not ready: which check failed' }),
            checks,
            chain_endpoints: chainEndpoints.optional(),
            chain_watch: chainWatch.optional(),
            chain_watches: chainWatches.optional(),
          }),
        },
      },
      async handle() {
        const result = await probe.current();
        const status = ready(result) ? ('ready' as const) : ('not_ready' as const);
        return { body: { status, ...(status === 'ready' ? {} : { reason: whyNot(result).reason }), checks: checked(result), ...details() } };
      },
    }),
  ];
}

type WatchReporter = { report(): ChainWatchReport | undefined };

/** The health routes over the app's store and chains, and each chain's watcher (src/features/consent_end/). */
export function createHealthFeature(deps: {
  store: Store;
  chains: { all: ReadinessDeps['chains'] };
  config: Pick<Config, 'readyWithChains' | 'adminToken'>;
  now: () => number;
  watching: { watcher: WatchReporter; watchers: readonly WatchReporter[] };
}) {
  const { watcher, watchers } = deps.watching;
  const routes = healthRoutes({
    store: deps.store,
    chains: deps.chains.all,
    readyWithChains: deps.config.readyWithChains,
    now: deps.now,
    adminToken: deps.config.adminToken,
    chainWatch: () => watcher.report(),
    chainWatches: () => watchers.map((each) => each.report()),
  });
  return { routes };
}
