// Boots a whole Signet from a Config: the embedded demo chain when no chain is configured,
// the store, the app and its HTTP server. main.ts calls it; the demo's tests do too.
import { createServer, type Server } from 'node:http';
import { privateKeyToAccount } from 'viem/accounts';
import { createApp, type SignetApp } from './app.js';
import { createChainClient } from './chain/chain_client.js';
import { type Config, validateConfig } from './config.js';
import { DEMO_OWNER_KEY, DEPLOYER_KEY } from './demo/demo_accounts.js';
import { type DemoChain, startDemoChain } from './demo/demo_chain.js';
import { DEMO_PROFILE, demoClaims } from './demo/demo_profile.js';
import { createDemoRouter } from './demo/demo_router.js';
import type { Logger } from './http/error_handler.js';
import { createWebhookQueueFor } from './notify/webhook_queue_for.js';
import { createMemoryStore } from './store/memory_store.js';
import { createRedisStore } from './store/redis_store.js';
import type { Store } from './store/store.js';

export type RunningSignet = {
  config: Config;
  server: Server;
  signet: SignetApp;
  store: Store;
  chainId: number;
  demo?: DemoChain;
  /** What was set up, in lines for a person. */
  summary: string[];
  close(): Promise<void>;
};

function summarize(config: Config, demo: DemoChain | undefined, store: Store, chainId: number): string[] {
  const lines = [`Signet is listening at ${config.issuer}`, `  discovery  ${config.issuer}/.well-known/openid-configuration`];
  lines.push(`  store      ${store.kind === 'memory' ? 'IN MEMORY: a demo, nothing survives a restart (set REDIS_URL)' : 'Redis'}`);
  if (demo) {
    lines.push(
      `  chain      embedded anvil at ${demo.anvil.rpcUrl} (chain id ${chainId}): a demo, set CHAIN_RPC_URL for a real chain`,
      `  IdFactory  ${demo.suite.identityFactory}`,
      `  issuer     ClaimIssuer ${demo.suite.claimIssuer}: trusted for every topic, Signet issues with it`,
      `  identity   ${demo.identity} owned by wallet ${demo.owner} (anvil account #1), with a kyc and an accredited claim`,
      `  import it  add anvil account #1 to your wallet with private key ${DEMO_OWNER_KEY}`,
      `             and the network RPC ${demo.anvil.rpcUrl}, chain id ${chainId} (a public test key: never fund it)`,
    );
  }
  if (config.demo.enabled) {
    lines.push(`  demo site  ${config.issuer}/demo  (client "demo", secret "demo-secret")`);
    if (demo) lines.push('             no browser wallet? every page that needs one offers the built-in demo wallet');
  }
  return lines;
}

/** The demo's ClaimIssuer is trusted for every topic, Signet issues with its key, and deploys identities as the IdFactory owner. */
function withDemoIssuer(config: Config, demo: DemoChain): Config {
  const everyTopic = config.claims.topics.map((topic) => topic.name);
  return validateConfig({
    ...config,
    claims: {
      ...config.claims,
      trustedIssuers: [
        ...config.claims.trustedIssuers,
        ...(everyTopic.length ? [{ address: demo.suite.claimIssuer, topics: everyTopic }] : []),
      ],
    },
    claimIssuer: config.claimIssuer ?? { address: demo.suite.claimIssuer, key: DEPLOYER_KEY },
    // People read the demo issuer's name, not its address.
    displayNames: { ...config.displayNames, issuers: [...config.displayNames.issuers, { address: demo.suite.claimIssuer, name: 'Signet demo issuer' }] },
    identityDeployerKey: config.identityDeployerKey ?? DEPLOYER_KEY,
  });
}

export async function startServer(configured: Config, logger: Logger): Promise<RunningSignet> {
  const demo = configured.chain.rpcUrl ? undefined : await startDemoChain();
  const config = demo ? withDemoIssuer(configured, demo) : configured;
  const chainId = demo ? demo.anvil.chainId : config.chain.chainId!;
  const rpcUrl = demo ? demo.anvil.rpcUrl : config.chain.rpcUrl!;
  const identityFactory = demo ? demo.suite.identityFactory : config.chain.identityFactory!;
  const store = config.redisUrl ? createRedisStore(config.redisUrl) : createMemoryStore();
  const webhooks = createWebhookQueueFor(config, store, { logger });
  try {
    await store.ping();
    const demoClient = config.clients.find((client) => client.client_id === 'demo');
    const signet = createApp({
      config,
      store,
      chain: { client: createChainClient(rpcUrl, chainId), rpcUrl, chainId, identityFactory },
      logger,
      webhooks,
      demoWallet: Boolean(demo),
      extraRoutes: ({ renderPage, names }) =>
        config.demo.enabled && demoClient?.client_secret
          ? [
              createDemoRouter({
                issuer: config.issuer,
                client: { client_id: demoClient.client_id, client_secret: demoClient.client_secret },
                renderPage,
                names,
                wallet: demo ? privateKeyToAccount(DEMO_OWNER_KEY) : undefined,
                rpcUrl,
                chainId,
                scope: ['openid profile email phone address', ...config.claims.topics.map((topic) => `claim:${topic.name}`)].join(' '),
              }),
            ]
          : [],
    });
    if (demo) {
      await signet.profiles.set(demo.identity, DEMO_PROFILE);
      for (const claim of demoClaims(Date.now())) {
        if (config.claims.topics.some((topic) => topic.name === claim.topic)) {
          await signet.issuer?.issue({ identity: demo.identity, ...claim });
        }
      }
    }

    webhooks.start();
    const server = createServer(signet.app.callback());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, resolve);
    });
    return {
      config,
      server,
      signet,
      store,
      chainId,
      demo,
      summary: summarize(config, demo, store, chainId),
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await webhooks.close();
        await store.close();
        await demo?.anvil.stop();
      },
    };
  } catch (error) {
    await webhooks.close();
    await store.close();
    await demo?.anvil.stop();
    throw error;
  }
}
