// TRUST_PROXY as the app applies it: production trusts no X-Forwarded-* header unless told
// how many proxies append to it; with n hops the client is the n-th entry from the right.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../../src/app/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { createMemoryWebhookQueue } from '../../../src/domain/webhooks/memory_webhook_queue.js';
import { clientAddress } from '../../../src/http/client_address.js';
import { createChainClient } from '../../../src/infra/chain/chain_client.js';
import { createMemoryStore } from '../../../src/infra/store/memory_store.js';
import { testJwks } from '../../support/signet_harness.js';

const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

function productionApp(env: Record<string, string> = {}) {
  const config = loadConfig({
    NODE_ENV: 'production',
    ISSUER: 'https://id.example.com',
    REDIS_URL: 'redis://127.0.0.1:1',
    CHAIN_RPC_URL: 'https://rpc.example.com',
    CHAIN_ID: '8453',
    IDENTITY_FACTORY: FACTORY,
    JWKS: JSON.stringify(testJwks()),
    COOKIE_KEYS: 'production-cookie-key-one',
    CLIENTS: '[]',
    ...env,
  });
  // Nothing here does I/O: the app is only built, never served.
  return createApp({
    config,
    store: createMemoryStore(),
    chain: {
      settings: { chain_id: 8453, name: 'chain 8453', rpc_url: 'https://rpc.example.com', identity_factory: FACTORY },
      client: createChainClient('https://rpc.example.com', 8453),
    },
    webhooks: createMemoryWebhookQueue({ targetOf: async () => undefined, retryDelaysMs: [1000] }),
  });
}

/** What the app makes of a request from `socket` with these headers. */
function seen(signet: ReturnType<typeof productionApp>, socket: string, headers: Record<string, string>) {
  const req = { headers, socket: { remoteAddress: socket }, url: '/', method: 'GET' } as unknown as IncomingMessage;
  const ctx = signet.app.createContext(req, {} as ServerResponse);
  return { address: clientAddress(ctx), protocol: ctx.protocol, host: ctx.host };
}

const forged = {
  'x-forwarded-for': '6.6.6.6, 10.0.0.9, 198.51.100.7',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'evil.example',
  host: 'id.example.com',
};

test('production without TRUST_PROXY: no X-Forwarded-* header is trusted', () => {
  const signet = productionApp();
  expect([signet.app.proxy, signet.provider.proxy]).toEqual([false, false]);
  expect(seen(signet, '192.0.2.1', forged)).toEqual({ address: '192.0.2.1', protocol: 'http', host: 'id.example.com' });
});

test("TRUST_PROXY=1: the rightmost entry, and the proxy's Proto and Host", () => {
  const signet = productionApp({ TRUST_PROXY: '1' });
  expect([signet.app.proxy, signet.provider.proxy, signet.app.maxIpsCount, signet.provider.maxIpsCount]).toEqual([true, true, 1, 1]);
  expect(seen(signet, '192.0.2.1', forged)).toEqual({ address: '198.51.100.7', protocol: 'https', host: 'evil.example' });
});

test("behind TLS with TRUST_PROXY=0, Signet's cookies are still set, and Secure", async () => {
  const server = createServer(productionApp().app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    // Logging out clears the account cookies: a Set-Cookie with the Secure attribute.
    const response = await fetch(`http://127.0.0.1:${port}/account/logout`, { method: 'POST' });
    expect(response.status).toBe(204);
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/;\s*secure/i);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('TRUST_PROXY=2: the entry the outer of two proxies appended', () => {
  expect(seen(productionApp({ TRUST_PROXY: '2' }), '192.0.2.1', forged).address).toBe('10.0.0.9');
});

test('addresses are counted as IPv4, and IPv6 by its /64', () => {
  const signet = productionApp();
  expect(seen(signet, '::ffff:192.0.2.1', {}).address).toBe('192.0.2.1');
  expect(seen(signet, '2001:db8:1:2:3:4:5:6', {}).address).toBe('2001:db8:1:2::/64');
});

test('a TRUST_PROXY that is not a hop count stops the start, naming it', () => {
  expect(() => productionApp({ TRUST_PROXY: 'yes' })).toThrow('configuration: TRUST_PROXY must be a number of proxy hops (0 to 10)');
  expect(() => productionApp({ TRUST_PROXY: '11' })).toThrow(/^configuration: TRUST_PROXY /);
});

test('the default limits', () => {
  expect(loadConfig({}).rateLimits).toEqual({
    challengesPerAddress: { points: 30, seconds: 60 },
    challengesPerInteraction: { points: 10, seconds: 300 },
    signaturesPerAddress: { points: 30, seconds: 60 },
    signaturesPerInteraction: { points: 10, seconds: 300 },
    failedSignaturesPerChallenge: 5,
    accountSignInsPerAddress: { points: 20, seconds: 600 },
    tokenFailuresPerClient: { points: 10, seconds: 600 },
    accessRequestsPerService: { points: 120, seconds: 60 },
    publicReadsPerAddress: { points: 120, seconds: 60 },
    registrationsPerAddress: { points: 20, seconds: 3600 },
    identityCreationsPerAddress: { points: 5, seconds: 3600 },
    identityCreationsPerWallet: { points: 3, seconds: 86400 },
    authorizationsPerAddress: { points: 300, seconds: 60 },
    pushedRequestsPerAddress: { points: 600, seconds: 60 },
    backchannelStartsPerAddress: { points: 60, seconds: 60 },
    backchannelStartsPerClient: { points: 120, seconds: 60 },
    backchannelStartsPerIdentity: { points: 5, seconds: 600 },
    backchannelPendingPerIdentity: 3,
    grantAttemptsPerAddress: { points: 120, seconds: 60 },
    grantAttemptsPerGrant: { points: 5, seconds: 600 },
  });
});

test('RATE_LIMITS overrides one class and keeps the others', () => {
  const config = loadConfig({ RATE_LIMITS: '{"challengesPerAddress":{"points":50,"seconds":30}}' });
  expect(config.rateLimits.challengesPerAddress).toEqual({ points: 50, seconds: 30 });
  expect(config.rateLimits.identityCreationsPerAddress).toEqual({ points: 5, seconds: 3600 });
  expect(config.rateLimits.failedSignaturesPerChallenge).toBe(5);
  expect(() => loadConfig({ RATE_LIMITS: '{"challengesPerAddress":{"points":0,"seconds":30}}' })).toThrow(
    /^configuration: rateLimits\.challenges_per_address\.points /,
  );
});
