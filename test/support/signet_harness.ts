// Runs a whole Signet for a test file: a real redis-server, a real anvil with the ONCHAINID
// contracts, the app on a free port, and a clock the test can move forward.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type SignetApp, createApp } from '../../src/app.js';
import { type ClientConfig, type Config, validateConfig } from '../../src/config.js';
import type { WebhookQueue } from '../../src/notify/webhook_queue.js';
import { createWebhookQueueFor } from '../../src/notify/webhook_queue_for.js';
import type { ResolveHost } from '../../src/notify/webhook_url_guard.js';
import { createRedisStore } from '../../src/store/redis_store.js';
import type { Store } from '../../src/store/store.js';
import { type RedisServer, startRedisServer } from './redis_server.js';
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

export type Harness = {
  issuer: string;
  chain: TestChain;
  redis: RedisServer;
  store: Store;
  webhooks: WebhookQueue;
  signet: SignetApp;
  config: Config;
  clock: { now(): number; advance(ms: number): void };
  close(): Promise<void>;
};

export function testJwks() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' }] };
}

export async function startSignet(
  options: {
    clients?: ClientConfig[];
    challengeTtlSeconds?: number;
    /** More settings, given the chain (for contract addresses). */
    configure?: (chain: TestChain) => Record<string, unknown>;
    /** DNS for owners' webhook URLs, at save and at delivery (a test plays a rebinding resolver). */
    resolveHost?: ResolveHost;
  } = {},
): Promise<Harness> {
  const [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const config = validateConfig({
    mode: 'test',
    issuer,
    port,
    redisUrl: redis.url,
    chain: { rpcUrl: chain.anvil.rpcUrl, chainId: chain.anvil.chainId, identityFactory: chain.suite.identityFactory },
    challengeTtlSeconds: options.challengeTtlSeconds ?? 300,
    chainCacheSeconds: 0,
    ttl: { accessToken: 600, idToken: 600, refreshToken: 86400, grant: 86400, session: 86400, interaction: 3600 },
    clients: options.clients ?? [WEBSITE],
    jwks: testJwks(),
    cookieKeys: ['test-cookie-key-0123456789'],
    demo: { enabled: false },
    ...options.configure?.(chain),
  });
  let offset = 0;
  const clock = {
    now: () => Date.now() + offset,
    advance: (ms: number) => {
      offset += ms;
    },
  };
  const store = createRedisStore(redis.url);
  const webhooks = createWebhookQueueFor(config, store, { retryDelaysMs: [50, 100, 200], pollMs: 20, resolveHost: options.resolveHost });
  webhooks.start();
  const signet = createApp({
    config,
    store,
    chain: { client: chain.client, rpcUrl: chain.anvil.rpcUrl, chainId: chain.anvil.chainId, identityFactory: chain.suite.identityFactory },
    now: clock.now,
    webhooks,
    resolveHost: options.resolveHost,
  });
  server.on('request', signet.app.callback());
  return {
    issuer,
    chain,
    redis,
    store,
    webhooks,
    signet,
    config,
    clock,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks.close();
      await store.close();
      await Promise.all([redis.stop(), chain.stop()]);
    },
  };
}
