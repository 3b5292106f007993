// Starts Signet: reads the configuration, starts the embedded demo chain when no chain is
// configured, connects the store, listens, and shuts everything down on SIGINT/SIGTERM.
import type { Server } from 'node:http';
import { privateKeyToAccount } from 'viem/accounts';
import { createApp } from './app.js';
import { createChainClient } from './chain/chain_client.js';
import { type Config, loadConfig } from './config.js';
import { DEMO_OWNER_KEY } from './demo/demo_accounts.js';
import { type DemoChain, startDemoChain } from './demo/demo_chain.js';
import { DEMO_PROFILE } from './demo/demo_profile.js';
import { createDemoRouter } from './demo/demo_router.js';
import { ConfigError } from './errors.js';
import type { Logger } from './http/error_handler.js';
import { createMemoryStore } from './store/memory_store.js';
import { createRedisStore } from './store/redis_store.js';

const logger: Logger = {
  info: (message) => console.log(message),
  error: (message, detail) => console.error(message, detail ?? ''),
};

function banner(config: Config, demo: DemoChain | undefined, storeKind: string, chainId: number) {
  const lines = [`Signet is listening at ${config.issuer}`, `  discovery  ${config.issuer}/.well-known/openid-configuration`];
  lines.push(`  store      ${storeKind === 'memory' ? 'IN MEMORY: a demo, nothing survives a restart (set REDIS_URL)' : 'Redis'}`);
  if (demo) {
    lines.push(
      `  chain      embedded anvil at ${demo.anvil.rpcUrl} (chain id ${chainId}): a demo, set CHAIN_RPC_URL for a real chain`,
      `  IdFactory  ${demo.suite.identityFactory}`,
      `  issuer     ClaimIssuer ${demo.suite.claimIssuer}`,
      `  identity   ${demo.identity} owned by wallet ${demo.owner} (anvil account #1)`,
      `  import it  add anvil account #1 to your wallet with private key ${DEMO_OWNER_KEY}`,
      `             and network RPC ${demo.anvil.rpcUrl}, chain id ${chainId} (a public test key: never fund it)`,
    );
  }
  if (config.demo.enabled) {
    lines.push(`  demo site  ${config.issuer}/demo  (client "demo", secret "demo-secret")`);
    if (demo) lines.push('             no browser wallet? the consent page offers the built-in demo wallet');
  }
  logger.info(lines.join('\n'));
}

async function main() {
  const config = loadConfig();
  const demo = config.chain.rpcUrl ? undefined : await startDemoChain();
  const chainId = demo ? demo.anvil.chainId : config.chain.chainId!;
  const rpcUrl = demo ? demo.anvil.rpcUrl : config.chain.rpcUrl!;
  const identityFactory = demo ? demo.suite.identityFactory : config.chain.identityFactory!;
  const store = config.redisUrl ? createRedisStore(config.redisUrl) : createMemoryStore();
  await store.ping();

  const demoClient = config.clients.find((client) => client.client_id === 'demo');
  const signet = createApp({
    config,
    store,
    chain: { client: createChainClient(rpcUrl, chainId), chainId, identityFactory },
    logger,
    demoWallet: Boolean(demo),
    extraRoutes: ({ renderPage }) =>
      config.demo.enabled && demoClient?.client_secret
        ? [
            createDemoRouter({
            issuer: config.issuer,
            client: { client_id: demoClient.client_id, client_secret: demoClient.client_secret },
            renderPage,
            wallet: demo ? privateKeyToAccount(DEMO_OWNER_KEY) : undefined,
            chainId,
            }),
          ]
        : [],
  });
  if (demo) await signet.profiles.set(demo.identity, DEMO_PROFILE);

  const server: Server = signet.app.listen(config.port);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  banner(config, demo, store.kind, chainId);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    await store.close();
    await demo?.anvil.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(`Signet did not start: ${error.message}`);
  } else {
    console.error('Signet did not start:', error);
  }
  process.exit(1);
});
