// The embedded demo's boot: a local anvil with the ONCHAINID contracts when no chain is
// configured, the demo website and wallet, the demo identity's profile and claims, then the
// production server with those added. `npm start` runs it (src/demo/demo_main.ts).
import { privateKeyToAccount } from 'viem/accounts';
import { type RunningSignet, startServer } from '../app/server.js';
import { type Config, validateConfig } from '../config/config.js';
import { DEMO_OWNER_KEY, DEPLOYER_KEY } from '../infra/local_chain/anvil_accounts.js';
import type { Logger } from '../infra/observability/logger.js';
import type { Metrics } from '../infra/observability/metrics.js';
import { type DemoChain, startDemoChain } from './demo_chain.js';
import { DEMO_PROFILE, DEMO_TRUST_FRAMEWORK, demoClaims } from './demo_profile.js';
import { demoRoutes } from './demo_routes.js';
import { chainEndpointsOf } from '../infra/chain/chains.js';

export type RunningDemo = RunningSignet & { demo?: DemoChain };

/** The demo website's client in config/default.json. */
const DEMO_CLIENT_ID = 'demo';

/** The second demo chain (DEMO_CHAINS=2): deployed alike, so the demo identity has the same address there. */
const SECOND_DEMO_CHAIN = { chainId: 31338, port: 8546 };

/**
 * The demo chain as configuration: its IdFactory, and its ClaimIssuer trusted for every topic,
 * Signet issues with its key, and deploys identities as the IdFactory owner. With a second
 * demo chain, both as CHAINS, the issuer trusted on each by name.
 */
function withDemoChain(config: Config, demo: DemoChain, second?: DemoChain): Config {
  const everyTopic = config.claims.topics.map((topic) => topic.name);
  const trusted = (chain_id?: number) => ({
    address: demo.suite.claimIssuer,
    topics: everyTopic,
    // Its KYC claims are released verified too (docs/verified-claims.md).
    trust_frameworks: everyTopic.includes('kyc') ? { kyc: DEMO_TRUST_FRAMEWORK } : {},
    ...(chain_id === undefined ? {} : { chain_id }),
  });
  const chainOf = (each: DemoChain, name: string) => ({
    chain_id: each.anvil.chainId,
    name,
    rpc_url: each.anvil.rpcUrl,
    identity_factory: each.suite.identityFactory,
  });
  // The embedded chain's settings replace the empty list (validated again as settings are read).
  const { chains: _none, ...settings } = config;
  return validateConfig({
    ...settings,
    ...(second
      ? { chain: {}, chains: [chainOf(demo, 'Demo chain A'), chainOf(second, 'Demo chain B')] }
      : { chain: { rpcUrl: demo.anvil.rpcUrl, chainId: demo.anvil.chainId, identityFactory: demo.suite.identityFactory } }),
    claims: {
      ...config.claims,
      trustedIssuers: [
        ...config.claims.trustedIssuers,
        ...(everyTopic.length ? (second ? [trusted(demo.anvil.chainId), trusted(second.anvil.chainId)] : [trusted()]) : []),
      ],
    },
    claimIssuer: config.claimIssuer ?? { address: demo.suite.claimIssuer, key: DEPLOYER_KEY },
    // People read the demo issuer's name, not its address.
    displayNames: {
      ...config.displayNames,
      issuers: [
        ...config.displayNames.issuers,
        {
          address: demo.suite.claimIssuer,
          name: 'Signet demo issuer',
          // In every language the pages speak (decision 82).
          names: {
            en: 'Signet demo issuer',
            fr: 'Émetteur de démonstration Signet',
            de: 'Signet-Demo-Aussteller',
            es: 'Emisor de demostración de Signet',
            ja: 'Signet デモ発行者',
            ar: 'مُصدِر Signet التجريبي',
          },
        },
      ],
    },
    identityDeployerKey: config.identityDeployerKey ?? DEPLOYER_KEY,
  });
}

function demoLines(config: Config, demo: DemoChain | undefined, second?: DemoChain): string[] {
  const lines: string[] = [];
  if (second) {
    lines.push(
      `  chain B    embedded anvil at ${second.anvil.rpcUrl} (chain id ${second.anvil.chainId}), DEMO_CHAINS=2: the demo identity is there too, same address`,
    );
  }
  if (demo) {
    const { rpcUrl, chainId } = demo.anvil;
    lines.push(
      `  chain      embedded anvil at ${rpcUrl} (chain id ${chainId}): a demo, set CHAIN_RPC_URL for a real chain`,
      `  IdFactory  ${demo.suite.identityFactory}`,
      `  issuer     ClaimIssuer ${demo.suite.claimIssuer}: trusted for every topic, Signet issues with it`,
      `  identity   ${demo.identity} owned by wallet ${demo.owner} (anvil account #1), with a kyc and an accredited claim`,
      `  import it  add anvil account #1 to your wallet with private key ${DEMO_OWNER_KEY}`,
      `             and the network RPC ${rpcUrl}, chain id ${chainId} (a public test key: never fund it)`,
    );
  }
  if (config.demo.enabled) {
    lines.push(`  demo site  ${config.issuer}/demo  (client "demo", secret "demo-secret")`);
    if (demo) lines.push('             no browser wallet? every page that needs one offers the built-in demo wallet');
  }
  return lines;
}

/** The demo's chains, started side by side; one that fails stops the other. */
async function startDemoChains(two: boolean): Promise<[DemoChain, DemoChain | undefined]> {
  const started = await Promise.allSettled([startDemoChain(), two ? startDemoChain(SECOND_DEMO_CHAIN.chainId, SECOND_DEMO_CHAIN.port) : undefined]);
  const failed = started.find((each) => each.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((each) => (each.status === 'fulfilled' ? each.value?.anvil.stop() : undefined)));
    throw failed.reason;
  }
  const [first, second] = started.map((each) => (each as PromiseFulfilledResult<DemoChain | undefined>).value);
  return [first!, second];
}

export async function startDemoServer(configured: Config, logger: Logger, metrics?: Metrics): Promise<RunningDemo> {
  const embedded = configured.chains.length === 0;
  const [demo, second] = embedded ? await startDemoChains(configured.demo.chains === 2) : [undefined, undefined];
  const config = demo ? withDemoChain(configured, demo, second) : configured;
  const running = await startServer(config, logger, {
    metrics,
    demoWallet: Boolean(demo),
    extraRoutes: ({ renderPage, names, clients, chains }) =>
      config.demo.enabled
        ? demoRoutes({
            issuer: config.issuer,
            // Read from the client registry, as any website's login reads its client.
            client: async () => {
              const secret = (await clients.find(DEMO_CLIENT_ID))?.client_secret;
              return typeof secret === 'string' ? { client_id: DEMO_CLIENT_ID, client_secret: secret } : undefined;
            },
            renderPage,
            names,
            wallet: demo ? privateKeyToAccount(DEMO_OWNER_KEY) : undefined,
            // The demo's wallet sends on the chain a bare address means.
            rpcUrl: demo?.anvil.rpcUrl ?? chainEndpointsOf(chains.named(undefined).settings)[0]?.url,
            chainId: chains.idOf(undefined),
            scope: ['openid profile email phone address', ...config.claims.topics.map((topic) => `claim:${topic.name}`), 'verified_claims'].join(' '),
          })
        : [],
    seed: async (signet) => {
      if (!demo) return;
      await signet.profiles.set(demo.identity, DEMO_PROFILE);
      for (const claim of demoClaims(Date.now())) {
        if (config.claims.topics.some((topic) => topic.name === claim.topic)) {
          await signet.issuer?.issue({ identity: demo.identity, ...claim });
          if (second) await signet.issuerOn(second.anvil.chainId)?.issue({ identity: second.identity, ...claim });
        }
      }
    },
    summary: demoLines(config, demo, second),
    onClose: async () => {
      await Promise.all([demo?.anvil.stop(), second?.anvil.stop()]);
    },
  });
  return { ...running, demo };
}
