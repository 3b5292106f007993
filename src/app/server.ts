// Boots a production Signet from a Config: the store, the chain client, the app and its HTTP
// server, and a close() that drains. Nothing here knows the demo: src/demo/demo_server.ts
// adds its chain, routes and data through the options.
import type { Server } from 'node:http';
import { ConfigError } from '../base/errors.js';
import type { Config } from '../config/config.js';
import { reportRecoveryFallback } from '../domain/wallet/recover_message_signer.js';
import { type ChainAccess, createChainAccess } from '../infra/chain/chain_client.js';
import { chainEndpointsOf } from '../infra/chain/chains.js';
import type { EndpointSetting } from '../infra/chain/rpc_endpoints.js';
import { learnMulticall3 } from '../infra/chain/multicall3.js';
import { observeChainCalls } from '../infra/observability/chain_calls.js';
import type { Logger } from '../infra/observability/logger.js';
import type { Metrics } from '../infra/observability/metrics.js';
import { createMemoryStore } from '../infra/store/memory_store.js';
import { redisConnectionOf } from '../infra/store/redis_connection.js';
import { createRedisStore } from '../infra/store/redis_store.js';
import type { Store } from '../infra/store/store.js';
import { type AppDeps, createApp, type SignetApp } from './app.js';
import { createBoundedServer } from './http_server.js';
import { createWebhookQueueFor } from './webhook_queue_for.js';

export type RunningSignet = {
  config: Config;
  server: Server;
  signet: SignetApp;
  store: Store;
  chainId: number;
  /** What was set up, in lines for a person. */
  summary: string[];
  /** Stops accepting, lets requests in flight finish (at most ops.shutdownGraceMs), then releases everything. */
  close(): Promise<void>;
};

export type ServerOptions = {
  metrics?: Metrics;
  /** The embedded demo: its built-in wallet on the consent page, its routes, its data. */
  demoWallet?: boolean;
  extraRoutes?: AppDeps['extraRoutes'];
  seed?: (signet: SignetApp) => Promise<void>;
  summary?: string[];
  /** Runs last in close() (the demo stops its chain). */
  onClose?: () => Promise<void>;
};

function summarize(config: Config, store: Store): string[] {
  return [
    `Signet is listening at ${config.issuer}`,
    `  discovery  ${config.issuer}/.well-known/openid-configuration`,
    `  store      ${store.kind === 'memory' ? 'IN MEMORY: a demo, nothing survives a restart (set REDIS_URL)' : `Redis (${redisConnectionOf(config)?.kind})`}`,
  ];
}

/** server.close() refuses new connections; idle keep-alive ones are closed as they go idle; the rest are cut after the grace. */
async function drain(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(idleSweep);
    clearTimeout(deadline);
  }
}

/** A configured chain's client over its endpoints, with their calls and states in the metrics. */
export function chainAccessOf(
  chain: { chainId: number; endpoints: EndpointSetting[] },
  config: Config,
  logger: Logger,
  metrics?: Metrics,
  options: { pollingInterval?: number } = {},
): ChainAccess {
  const chainId = String(chain.chainId);
  for (const { label } of chain.endpoints) metrics?.chainEndpointUp.set({ chain_id: chainId, endpoint: label }, 1);
  return createChainAccess(chain.endpoints, chain.chainId, {
    ...options,
    callTimeoutMs: config.chainTimeouts.callMs,
    probeMs: config.chainTimeouts.probeMs,
    logger,
    observe: metrics ? observeChainCalls(metrics, chain.chainId) : undefined,
    onAttempt: metrics
      ? ({ label, outcome, seconds }) => {
          metrics.chainEndpointCalls.inc({ chain_id: chainId, endpoint: label, outcome });
          metrics.chainEndpointDuration.observe({ chain_id: chainId, endpoint: label }, seconds);
        }
      : undefined,
    onState: metrics ? (label, state) => metrics.chainEndpointUp.set({ chain_id: chainId, endpoint: label }, state === 'up' ? 1 : 0) : undefined,
  });
}

export async function startServer(config: Config, logger: Logger, options: ServerOptions = {}): Promise<RunningSignet> {
  if (config.chains.length === 0) {
    throw new ConfigError('CHAIN_RPC_URL', 'is required, or CHAINS (the embedded chain comes with the demo: npm start)');
  }
  reportRecoveryFallback(logger);
  const redis = redisConnectionOf(config);
  const store = redis ? createRedisStore(redis, { ...config.redis, onError: (kind) => options.metrics?.redisErrors.inc({ kind }) }) : createMemoryStore();
  const webhooks = createWebhookQueueFor(config, store, {
    logger,
    onAttempt: (outcome) => options.metrics?.webhookDeliveries.inc({ outcome }),
  });
  // One client per chain over its endpoints: each chain its own RPC nodes, deadline and failures.
  const chainAccesses = config.chains.map((settings) => ({
    settings,
    access: chainAccessOf({ chainId: settings.chain_id, endpoints: chainEndpointsOf(settings) }, config, logger, options.metrics),
  }));
  // Whether each chain has Multicall3, learned before the first login needs it (src/infra/chain/multicall3.ts).
  for (const { access } of chainAccesses) void learnMulticall3(access.client);
  const closeEndpoints = () => {
    for (const { access } of chainAccesses) access.endpoints.close();
  };
  try {
    await store.ping();
    const signet = createApp({
      config,
      store,
      // One client per chain: each its own RPC node, deadline and failures.
      chain: chainAccesses.map(({ settings, access }) => ({ settings, client: access.client, endpoints: access.endpoints })),
      logger,
      metrics: options.metrics,
      webhooks,
      demoWallet: options.demoWallet ?? false,
      extraRoutes: options.extraRoutes,
    });
    // CLIENTS into the client records before the first request (decision 23).
    await signet.seedClients();
    await options.seed?.(signet);
    if (options.metrics) {
      options.metrics.sources.webhookDeadLetters = async () => (await webhooks.deadLetters()).length;
      options.metrics.sources.webhookQueueDepth = () => webhooks.depth();
    }

    webhooks.start();
    // Erasures whose process died half way are finished here (at start, then on each sweep).
    signet.erasures.start();
    const server = createBoundedServer(signet.app.callback(), config.http, () => options.metrics?.httpConnectionsDropped.inc());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, resolve);
    });
    // One process at a time follows the chain (a lease in the store); the others stand by.
    if (config.chainWatch.enabled) signet.watcher.start();
    return {
      config,
      server,
      signet,
      store,
      chainId: signet.chains.idOf(undefined),
      summary: [...summarize(config, store), ...(options.summary ?? [])],
      close: async () => {
        await drain(server, config.ops.shutdownGraceMs);
        await signet.watcher.stop();
        signet.erasures.stop();
        // The last releases' history entries are written before Redis closes.
        await signet.history.flushed();
        await webhooks.close();
        await store.close();
        closeEndpoints();
        await options.onClose?.();
      },
    };
  } catch (error) {
    closeEndpoints();
    await webhooks.close();
    await store.close();
    await options.onClose?.();
    throw error;
  }
}
