// Runs a whole Signet for a test file: a real redis-server (or a real Redis Cluster, or a master
// with a replica and Sentinels), a real anvil with the ONCHAINID contracts, the app on a free
// port (and, on request, more apps on the same store and chain, as more processes behind a load
// balancer), and a clock the test can move forward.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { PublicClient } from 'viem';
import { type AppDeps, createApp, type SignetApp } from '../../src/app/app.js';
import { chainAccessOf } from '../../src/app/server.js';
import { createWebhookQueueFor } from '../../src/app/webhook_queue_for.js';
import { type ChainSetting, type ClientConfig, type Config, type RateLimitSettings, validateConfig } from '../../src/config/config.js';
import type { ChainConsentHandlers } from '../../src/domain/watch/chain_watcher.js';
import type { WebhookQueue } from '../../src/domain/webhooks/webhook_queue.js';
import type { ErasureStep } from '../../src/features/owner_data/erasure_steps.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { learnMulticall3 } from '../../src/infra/chain/multicall3.js';
import type { EndpointSetting, RpcEndpoints } from '../../src/infra/chain/rpc_endpoints.js';
import { type Logger, silentLogger } from '../../src/infra/observability/logger.js';
import type { Metrics } from '../../src/infra/observability/metrics.js';
import type { DialAddress } from '../../src/infra/outbound/pinned_request.js';
import type { ResolveHost } from '../../src/infra/outbound/url_guard.js';
import { createMemoryStore } from '../../src/infra/store/memory_store.js';
import { firstConnection, redisConnectionOf } from '../../src/infra/store/redis_connection.js';
import { createRedisStore, type RedisStore } from '../../src/infra/store/redis_store.js';
import type { Store } from '../../src/infra/store/store.js';
import { type ChainProxy, startChainProxy } from './chain_proxy.js';
import { contractCheck } from './contract_check.js';
import { type RedisCluster, startRedisCluster } from './redis_cluster.js';
import { type RedisSentinelGroup, SENTINEL_MASTER_NAME, startRedisSentinels } from './redis_sentinel.js';
import { type RedisServer, startRedisServer } from './redis_server.js';
import { RELAXED_DEADLINES } from './relaxed_deadlines.js';
import { startTestChain, type TestChain } from './test_chain.js';

export const WEBSITE: ClientConfig = {
  client_id: 'website',
  client_secret: 'website-secret-value',
  client_name: 'Test Website',
  redirect_uris: ['https://website.example/callback'],
  post_logout_redirect_uris: ['https://website.example/bye'],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'client_secret_basic',
};

/** A service that asks for access grants (and gets API keys). */
export const ANALYTICS: ClientConfig = {
  client_id: 'analytics',
  client_secret: 'analytics-secret-value',
  client_name: 'Analytics Co',
  redirect_uris: ['https://analytics.example/callback'],
  post_logout_redirect_uris: [],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'client_secret_basic',
};

// Every test shares one address, so the per-address and per-login limits are lifted, and so
// are those per CIBA identity and per grant, which tests of one owner meet again and again
// (test/integration/door_limits.test.ts holds their defaults); identity creation and wrong
// signatures per challenge keep their production defaults.
const plenty = { points: 100_000, seconds: 60 };
export const RELAXED_RATE_LIMITS: Partial<RateLimitSettings> = {
  challengesPerAddress: plenty,
  challengesPerInteraction: plenty,
  signaturesPerAddress: plenty,
  signaturesPerInteraction: plenty,
  accountSignInsPerAddress: plenty,
  tokenFailuresPerClient: plenty,
  accessRequestsPerService: plenty,
  publicReadsPerAddress: plenty,
  registrationsPerAddress: plenty,
  authorizationsPerAddress: plenty,
  pushedRequestsPerAddress: plenty,
  backchannelStartsPerAddress: plenty,
  backchannelStartsPerClient: plenty,
  grantAttemptsPerAddress: plenty,
  backchannelStartsPerIdentity: plenty,
  backchannelPendingPerIdentity: 1000,
  grantAttemptsPerGrant: plenty,
};

/** What Signet stores its state on: one redis-server, a 3-master Redis Cluster, Sentinels, memory. */
export type StoreKind = 'redis' | 'cluster' | 'sentinel' | 'memory';

let suiteStore: StoreKind = 'redis';

/**
 * The store of every harness this test file starts without naming one: a file that imports a
 * whole suite after calling this runs that suite on another store (test/cluster/*).
 */
export function runSuitesOn(store: StoreKind): void {
  suiteStore = store;
}

/** One more Signet process: its own app, store client and webhook worker, on its own port. */
export type Peer = { url: string; signet: SignetApp; store: Store; webhooks: WebhookQueue };

/** A service with no logins of its own: it manages Shared Signals streams with its client credentials. */
export const RISK: ClientConfig = {
  client_id: 'risk',
  client_secret: 'risk-secret-value',
  client_name: 'Risk Engine',
  redirect_uris: [],
  post_logout_redirect_uris: [],
  grant_types: ['client_credentials'],
  token_endpoint_auth_method: 'client_secret_basic',
};

/** A kiosk that asks for logins by the identity's address (OpenID CIBA, poll mode). */
export const KIOSK: ClientConfig = {
  client_id: 'kiosk',
  client_secret: 'kiosk-secret-value',
  client_name: 'Bank Kiosk',
  redirect_uris: [],
  post_logout_redirect_uris: [],
  grant_types: ['urn:openid:params:grant-type:ciba'],
  token_endpoint_auth_method: 'client_secret_basic',
  backchannel_token_delivery_mode: 'poll',
};

/** The Authorization header of a confidential client (RFC 6749 §2.3.1: each part form-encoded). */
export function basicAuth(client: ClientConfig): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret!)}`).toString('base64')}`;
}

export type Harness = {
  issuer: string;
  chain: TestChain;
  /** The redis-server (started in every mode; the one Signet uses with store 'redis'). */
  redis: RedisServer;
  /** With store 'cluster': the cluster's nodes. */
  cluster?: RedisCluster;
  /** With store 'sentinel': the master, its replica and the Sentinels. */
  sentinels?: RedisSentinelGroup;
  /** The other processes asked for with `peers`, behind the same issuer. */
  peers: Peer[];
  store: Store;
  webhooks: WebhookQueue;
  signet: SignetApp;
  config: Config;
  clock: { now(): number; advance(ms: number): void };
  /** The HTTP server; a test may hand its requests to another app (a restart with new keys). */
  server: Server;
  /** With `chainProxy: true`: the proxy between Signet and anvil that a test can cut or silence. */
  chainProxy?: ChainProxy;
  /** With `rpcEndpoints`: the first chain's endpoints as Signet reads them (their state, the learned ranges). */
  endpoints?: RpcEndpoints;
  /** With `otherChains`: the chains served after the first (CHAINS), each its own anvil and ONCHAINID. */
  otherChains: TestChain[];
  close(): Promise<void>;
};

/** Answers off /openapi.json of every app this file started (test/support/contract_check.ts). */
const answersOffContract: string[][] = [];
// Registered when a test file imports the harness: the file fails if any answer was off the
// document, and its own afterAll hooks still close what it started. The bench imports the
// harness outside jest (no afterAll) and checks no answer.
(globalThis as { afterAll?: (hook: () => void) => void }).afterAll?.(() => {
  const offContract = [...new Set(answersOffContract.flat())];
  if (offContract.length) throw new Error(`answers off /openapi.json:\n${offContract.join('\n')}`);
});

export function testJwks() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] };
}

export async function startSignet(
  options: {
    clients?: ClientConfig[];
    challengeTtlSeconds?: number;
    /** Rate limits over the relaxed ones below (every test comes from 127.0.0.1). */
    rateLimits?: Partial<RateLimitSettings>;
    /** TRUST_PROXY: X-Forwarded-* hops trusted (default 0). */
    trustProxy?: number;
    /** The chain client Signet reads with (to count its calls), each chain's with `otherChains`; the test chain's by default. `rpcUrl`: the proxy's, with chainProxy. */
    chainClient?: (chain: TestChain, rpcUrl: string) => PublicClient;
    /** Signet reads the first chain through these endpoints, in order (provider proxies: test/support/provider_proxy.ts). */
    rpcEndpoints?: (chain: TestChain) => EndpointSetting[] | Promise<EndpointSetting[]>;
    /** More settings, given the chain (for contract addresses). */
    configure?: (chain: TestChain) => Record<string, unknown>;
    /** Where the app and its webhook worker log (silent by default), and the app's metrics. */
    logger?: Logger;
    metrics?: Metrics;
    /** 'memory' runs Signet on the in-memory store (the demo's), 'cluster' on a 3-master Redis
     * Cluster, 'sentinel' on a Sentinel-watched master; default 'redis' (or runSuitesOn's). */
    store?: StoreKind;
    /** How many more Signet processes to run on the same store and chain (default 0). */
    peers?: number;
    /** The redis-server keeps an append-only file, so its data survives a kill and a start. */
    redisAppendOnly?: boolean;
    /** Signet reads the chain through a proxy the test controls (test/support/chain_proxy.ts). */
    chainProxy?: boolean;
    /** The issuer URL, when another address stands in front of the server (a proxy the test controls); default: the server's own. */
    issuer?: string;
    /** The anvil (with ONCHAINID) to read, shared with another harness that started it; default: one of its own, stopped at close. */
    chain?: TestChain;
    /** Chain ids of more chains Signet serves after the first (31337), configured as CHAINS. */
    otherChains?: number[];
    /** DNS for every URL given at run time (webhooks, SSF endpoints, clients' URLs the engine fetches), at save and at each connection (a test plays a rebinding resolver). */
    resolveHost?: ResolveHost;
    /** Where the engine's socket for an address the guard approved really goes: a local server standing in for a public address (the internet as the test plays it). */
    dialAddress?: DialAddress;
    /** More route declarations in the app's table (the embedded demo's). */
    extraRoutes?: AppDeps['extraRoutes'];
    /** 'production': the shipped Redis command and chain deadlines, for tests that time an
     * outage. By default they are relaxed (see RELAXED_DEADLINES). */
    deadlines?: 'production' | 'relaxed';
    /** Erasure job timing (a short lease and sweep for the tests that cut a process mid-erasure). */
    erasureSettings?: AppDeps['erasureSettings'];
    /** Runs before each erasure step in process `process` (0 the first, then the peers). */
    beforeErasureStep?: (step: ErasureStep, process: number) => Promise<void>;
    /** Starts every process's chain watcher (src/domain/watch/), off by default. */
    watchChain?: boolean;
    /** Signet reaches its redis-server at the URL this gives for the real one (a counting proxy); store 'redis' only. */
    redisUrlFor?: (url: string) => string | Promise<string>;
    /** false: the webhook queue's worker is not started, so only requests reach Redis (default true). */
    webhookWorker?: boolean;
    /** How long a client record is served from each process's memory (default: the app's one second). */
    clientCacheMs?: number;
    /** When the access history's waiting releases are written (AppDeps.historySchedule; default: each turn's end). */
    historySchedule?: (flush: () => void) => void;
    /** The chain watcher's handlers in process `process` (AppDeps.consentEnds); implies watchChain. */
    chainConsentHandlers?: (process: number) => ChainConsentHandlers;
    /** false: answers are not checked against /openapi.json (the bench times requests; default true). */
    checkContract?: boolean;
  } = {},
): Promise<Harness> {
  const storeKind = options.store ?? suiteStore;
  // allSettled: when one fails (no redis-server, say), the others have started or failed too,
  // and those that started are stopped before the failure goes out. The caller never gets a
  // harness to close, so a set-up that fails half way must leave nothing running itself.
  const starts = await Promise.allSettled([
    startRedisServer({ appendOnly: options.redisAppendOnly }),
    options.chain ?? startTestChain(),
    storeKind === 'cluster' ? startRedisCluster() : undefined,
    storeKind === 'sentinel' ? startRedisSentinels() : undefined,
    Promise.all((options.otherChains ?? []).map((chainId) => startTestChain({ chainId }))),
  ]);
  const failed = starts.find((each) => each.status === 'rejected');
  if (failed) {
    const started = starts.flatMap((each) => (each.status === 'fulfilled' && each.value !== options.chain ? [each.value].flat() : []));
    await Promise.all(started.map((each) => each?.stop()));
    throw failed.reason;
  }
  const [redis, chain, cluster, sentinels, otherChains] = starts.map((each) => (each as PromiseFulfilledResult<unknown>).value) as [
    RedisServer,
    TestChain,
    RedisCluster | undefined,
    RedisSentinelGroup | undefined,
    TestChain[],
  ];
  const running: Running = { redis, chain, ownsChain: !options.chain, cluster, sentinels, otherChains, servers: [], processes: [] };
  try {
    return await startProcesses(options, storeKind, running);
  } catch (error) {
    await closeRunning(running).catch(() => {}); // the set-up's failure is the one to report
    throw error;
  }
}

/** What a harness runs, so far: close() stops it all, and so does a set-up that fails half way. */
type Running = {
  redis: RedisServer;
  chain: TestChain;
  /** false: the chain is another harness's, which stops it. */
  ownsChain: boolean;
  cluster: RedisCluster | undefined;
  sentinels: RedisSentinelGroup | undefined;
  otherChains: TestChain[];
  chainProxy?: ChainProxy;
  endpoints?: RpcEndpoints;
  servers: Server[];
  processes: Omit<Peer, 'url'>[];
};

async function closeRunning(running: Running): Promise<void> {
  for (const each of running.servers) {
    each.closeAllConnections();
    await new Promise<void>((resolve) => each.close(() => resolve()));
  }
  for (const each of running.processes) {
    await each.signet.watcher.stop();
    each.signet.erasures.stop();
    await each.webhooks.close();
    await each.store.close();
  }
  await running.chainProxy?.close();
  running.endpoints?.close();
  const { redis, chain, cluster, sentinels, otherChains } = running;
  await Promise.all([
    redis.stop(),
    running.ownsChain ? chain.stop() : undefined,
    cluster?.stop(),
    sentinels?.stop(),
    ...otherChains.map((other) => other.stop()),
  ]);
}

/** A test chain as its CHAINS entry says it (what createApp takes beside its client). */
const chainSettingOf = (chain: TestChain, rpcUrl: string): ChainSetting => ({
  chain_id: chain.anvil.chainId,
  name: `Test chain ${chain.anvil.chainId}`,
  rpc_url: rpcUrl,
  identity_factory: chain.suite.identityFactory,
});

/** The rest of startSignet, once Redis and the chain run: the proxy, the servers, the Signet processes. */
async function startProcesses(options: Parameters<typeof startSignet>[0] & {}, storeKind: StoreKind, running: Running): Promise<Harness> {
  const { redis, chain, cluster, sentinels } = running;
  const chainProxy = options.chainProxy ? await startChainProxy(chain.anvil.rpcUrl) : undefined;
  running.chainProxy = chainProxy;
  const rpcUrl = chainProxy?.rpcUrl ?? chain.anvil.rpcUrl;
  const server: Server = createServer();
  running.servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const issuer = options.issuer ?? `http://127.0.0.1:${port}`;
  const config = validateConfig({
    mode: 'test',
    issuer,
    port,
    redisUrl: storeKind === 'redis' ? await (options.redisUrlFor?.(redis.url) ?? redis.url) : undefined,
    ...(cluster ? { redisServers: { cluster: cluster.seeds.split(',') } } : {}),
    ...(sentinels ? { redisServers: { sentinels: sentinels.seeds.split(','), sentinelName: SENTINEL_MASTER_NAME } } : {}),
    ...(running.otherChains.length
      ? {
          chains: [chain, ...running.otherChains].map((each, i) => ({
            chain_id: each.anvil.chainId,
            name: `Test chain ${each.anvil.chainId}`,
            rpc_url: i === 0 ? rpcUrl : each.anvil.rpcUrl,
            identity_factory: each.suite.identityFactory,
          })),
          chain: {},
        }
      : { chain: { rpcUrl, chainId: chain.anvil.chainId, identityFactory: chain.suite.identityFactory } }),
    challengeTtlSeconds: options.challengeTtlSeconds ?? 300,
    chainCacheSeconds: 0,
    ttl: { accessToken: 600, idToken: 600, refreshToken: 86400, grant: 86400, session: 86400, interaction: 600 },
    clients: options.clients ?? [WEBSITE],
    jwks: testJwks(),
    cookieKeys: ['test-cookie-key-0123456789'],
    demo: { enabled: false },
    rateLimits: { ...RELAXED_RATE_LIMITS, ...options.rateLimits },
    trustProxy: options.trustProxy ?? 0,
    ...(options.deadlines === 'production' ? {} : RELAXED_DEADLINES),
    ...options.configure?.(chain),
  });
  let offset = 0;
  const clock = {
    now: () => Date.now() + offset,
    advance: (ms: number) => {
      offset += ms;
    },
  };
  const connection = redisConnectionOf(config);
  // As src/app/server.ts makes a configured chain's client: its endpoints' calls and states in the metrics.
  const access = options.rpcEndpoints
    ? chainAccessOf({ chainId: chain.anvil.chainId, endpoints: await options.rpcEndpoints(chain) }, config, options.logger ?? silentLogger, options.metrics, {
        pollingInterval: 50,
      })
    : undefined;
  running.endpoints = access?.endpoints;
  const chainClient =
    access?.client ??
    options.chainClient?.(chain, rpcUrl) ??
    (chainProxy ? createChainClient(rpcUrl, chain.anvil.chainId, { pollingInterval: 50, callTimeoutMs: config.chainTimeouts.callMs }) : chain.client);
  /** One Signet process on the configured store: its own client, webhook worker and app. */
  let processes = 0;
  const startProcess = (on: Server) => {
    const index = processes++;
    const store = connection ? createRedisStore(connection, config.redis) : createMemoryStore();
    const webhooks = createWebhookQueueFor(config, store, {
      retryDelaysMs: [50, 100, 200],
      pollMs: 20,
      resolveHost: options.resolveHost,
      logger: options.logger,
    });
    if (options.webhookWorker !== false) webhooks.start();
    const signet = createApp({
      config,
      store,
      chain: [
        {
          settings: chainSettingOf(chain, rpcUrl),
          client: chainClient,
          endpoints: access?.endpoints,
        },
        ...running.otherChains.map((other) => ({
          settings: chainSettingOf(other, other.anvil.rpcUrl),
          client: options.chainClient?.(other, other.anvil.rpcUrl) ?? other.client,
        })),
      ],
      now: clock.now,
      webhooks,
      logger: options.logger,
      metrics: options.metrics,
      resolveHost: options.resolveHost,
      dialAddress: options.dialAddress,
      clientCacheMs: options.clientCacheMs,
      historySchedule: options.historySchedule,
      extraRoutes: options.extraRoutes,
      erasureSettings: options.erasureSettings,
      beforeErasureStep: options.beforeErasureStep ? (step) => options.beforeErasureStep!(step, index) : undefined,
      consentEnds: options.chainConsentHandlers?.(index),
    });
    if (options.watchChain || options.chainConsentHandlers) signet.watcher.start();
    // First in the chain: it sees every answer as it leaves, refusals included.
    if (options.checkContract !== false) {
      const contract = contractCheck(signet.openApi, signet.routes);
      signet.app.middleware.unshift(contract.middleware);
      answersOffContract.push(contract.violations);
    }
    on.on('request', signet.app.callback());
    running.processes.push({ store, webhooks, signet });
    return { store, webhooks, signet };
  };
  const { store, webhooks, signet } = startProcess(server);
  // As src/app/server.ts does at start: whether the chain has Multicall3, learned before the first login.
  await learnMulticall3(chainClient);
  // A test starts once Signet's store is connected: its first request is no place to wait for
  // a cluster or a Sentinel-named master that a loaded host takes seconds to reach.
  const connected = async (one: Store) => {
    if (one.kind !== 'redis') return;
    const { client } = one as RedisStore;
    await firstConnection(client)(30_000);
    if (client.status !== 'ready') throw new Error(`Signet did not connect to its store within 30 s (client ${client.status})`);
  };
  await connected(store);
  // As a process does before it serves (src/app/server.ts): CLIENTS written to the client records.
  await signet.seedClients();
  const peers: Peer[] = [];
  for (let i = 0; i < (options.peers ?? 0); i++) {
    const peerServer = createServer();
    running.servers.push(peerServer);
    await new Promise<void>((resolve) => peerServer.listen(0, '127.0.0.1', resolve));
    peers.push({ url: `http://127.0.0.1:${(peerServer.address() as { port: number }).port}`, ...startProcess(peerServer) });
    await connected(peers.at(-1)!.store);
    await peers.at(-1)!.signet.seedClients();
  }
  return {
    issuer,
    chain,
    redis,
    cluster,
    sentinels,
    peers,
    store,
    webhooks,
    signet,
    config,
    clock,
    server,
    chainProxy,
    endpoints: access?.endpoints,
    otherChains: running.otherChains,
    close: () => closeRunning(running),
  };
}
