// `npm run bench`: Signet's login against the engine's floor, in one run on this machine.
// Starts its own redis-servers, anvil with the ONCHAINID contracts and 200 identities, a
// latency proxy in front of the chain, Signet built for production (its own process) and
// the engine floor (the same server whose interaction finishes at once); drives logins,
// refreshes and userinfo from this process; writes bench/results/*.json and
// docs/performance.md. Last, a second Signet process is profiled (CPU) over logins alone at
// concurrency 8; BENCH_CPU_PROFILE=0 skips that. The browser's path of a login (consent page,
// challenge, signature, redirects, token, userinfo: bench/browser_driver.ts) is
// measured on two more Signet processes behind a provider-like proxy, with and without
// Multicall3, at 0, 20 and 100 ms per RPC request (bench/browser_path.ts).
// BENCH_ONLY=browser_path runs that section alone (a minute or two): it prints its table and
// targets and writes bench/results/browser-path-*.json, leaving docs/performance.md and
// latest.json to the whole run. BENCH_BROWSER_LOGINS sets its logins per setting (40).
// Each path people and services wait on (the browser's login, the wallet SDK's, userinfo, a
// refresh, a claim resource read, an access-grant read) is also set against the bare engine in
// the same run (bench/users_paths.ts), and the browser's login is traced for its Redis cost.
// A login keeping one claim whose data another Signet holds is measured with 0 and 50 ms added
// to every answer of that provider, first and later logins apart (bench/provider_path.ts);
// BENCH_ONLY=provider_path runs it alone (a few minutes), BENCH_PROVIDER_LOGINS sets its owners
// per latency (40), and like browser_path it leaves docs/performance.md to the whole run.
// BENCH_ONLY=userinfo runs userinfo on the four servers and the claim resource reads alone
// (under a minute), printing their rates and CPU: for trying a change to those paths.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { encodeFunctionData, recoverMessageAddress } from 'viem';
import { projectRoot } from '../src/base/project_root.js';
import { recoverMessageSigner, signatureRecoveryBackend } from '../src/domain/wallet/recover_message_signer.js';
import { createChainClient } from '../src/infra/chain/chain_client.js';
import { idFactoryAbi } from '../src/infra/chain/contracts.js';
import { rpcFetch } from '../src/infra/chain/rpc_fetch.js';
import { DEPLOYER_KEY } from '../src/infra/local_chain/anvil_accounts.js';
import { freePort } from '../test/support/free_port.js';
import { startRedisCountingProxy } from '../test/support/redis_counting_proxy.js';
import { startRedisServer } from '../test/support/redis_server.js';
import { startBenchChain } from './bench_chain.js';
import { issueClaims, letIssuerAddClaims } from './bench_claims.js';
import { browserLogin } from './browser_driver.js';
import { measureBrowserPath } from './browser_path.js';
import { profileWhile } from './cpu_profiler.js';
import { startLatencyProxy } from './latency_proxy.js';
import { type Counters, idleCpuRate, idleRedisRate, type LoginOutcome, type LoginPhase, runLogins, runLoginsInterleaved, runRate, runRatesInterleaved } from './load.js';
import { type BenchClient, floorLogin, refresh, resourceRead, signetLogin, userinfo } from './oidc_driver.js';
import { summarizeProfile } from './profile_summary.js';
import { traceRedis } from './redis_trace.js';
import { measureProviderPath } from './provider_path.js';
import { type BenchResults, browserPathSection, providerPathSection, writeReport } from './report.js';
import { benchServerEnv, ownerProfiles } from './server_env.js';
import { startServerProcess } from './server_process.js';
import { median, round } from './stats.js';
import { measureUsersPaths, withUserinfo } from './users_paths.js';

const IDENTITIES = 200;
const SCOPE = 'openid profile email';
const LOGINS: Record<number, number> = { 1: 60, 8: 320, 32: 480 };
const RATE_SECONDS = 4;
const PROFILED_LOGINS = 400;
/** Rounds of the one-chain against three-chain comparison. */
const CHAIN_ROUNDS = 15;
/** Logins per side in each of those rounds. */
const CHAIN_ROUND_LOGINS = 160;
const CLIENT: BenchClient = { client_id: 'bench', client_secret: randomBytes(16).toString('hex'), redirect_uri: 'https://rp.bench/callback' };

// Identities holding a claim issued by Signet, read as a claim resource after their logins.
const CLAIM_HOLDERS = 16;
const CLAIM_TOPIC = 'kyc';
const ADMIN_TOKEN = randomBytes(24).toString('hex');
/** The sections that can run alone (BENCH_ONLY). */
const SECTIONS = ['browser_path', 'provider_path', 'userinfo'] as const;

async function timeEach(count: number, work: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return round(median(samples), 3);
}

/**
 * CPU of one call in this process (ms), for several pieces of work measured in interleaved
 * rounds so the machine's other load falls on each alike; the median round counts.
 */
async function cpuEach(count: number, work: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const rounds: Record<string, number[]> = Object.fromEntries(Object.keys(work).map((name) => [name, []]));
  for (let round = 0; round < 7; round++) {
    for (const [name, call] of Object.entries(work)) {
      const start = process.cpuUsage();
      for (let i = 0; i < count; i++) await call();
      const used = process.cpuUsage(start);
      rounds[name]!.push((used.user + used.system) / 1000 / count);
    }
  }
  return Object.fromEntries(Object.entries(rounds).map(([name, samples]) => [name, round(median(samples), 3)]));
}

async function main() {
  const runStarted = Date.now();
  // Other work on the machine moves every figure: the load when the run starts goes in the report.
  const loadAverageAtStart = loadavg().map((value) => round(value, 2));
  const log = (line: string) => console.log(`[${((Date.now() - runStarted) / 1000).toFixed(0).padStart(3)} s] ${line}`);
  const stops: (() => Promise<unknown>)[] = [];
  const profileDir = join(projectRoot, 'bench', 'results', 'profiles');
  const profiling = process.env.BENCH_CPU_PROFILE !== '0';
  const only = process.env.BENCH_ONLY || undefined;
  if (only !== undefined && !(SECTIONS as readonly string[]).includes(only)) {
    throw new Error(`BENCH_ONLY=${only}: the sections that run alone are ${SECTIONS.join(', ')}`);
  }
  try {
    if (only === 'provider_path') {
      // Its own two Signets and chain: nothing of the rest is started.
      const results = { startedAt: new Date(runStarted).toISOString(), loadAverageAtStart, providerPath: await measureProviderPath(log) };
      const loadAverageAtEnd = loadavg().map((value) => round(value, 2));
      const dir = join(projectRoot, 'bench', 'results');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `provider-path-${results.startedAt.replace(/[:.]/g, '-')}.json`);
      writeFileSync(file, `${JSON.stringify({ ...results, loadAverageAtEnd, durationSeconds: round((Date.now() - runStarted) / 1000, 0) }, null, 2)}\n`);
      console.log(providerPathSection(results.providerPath).join('\n'));
      log(`load average at start ${loadAverageAtStart.join(', ')}, at end ${loadAverageAtEnd.join(', ')}`);
      log(`done: ${file.slice(projectRoot.length + 1)} (docs/performance.md is left to the whole run)`);
      return;
    }
    const [signetRedis, floorRedis, bareRedis, chain] = await Promise.all([startRedisServer(), startRedisServer(), startRedisServer(), startBenchChain(IDENTITIES)]);
    stops.push(() => signetRedis.stop(), () => floorRedis.stop(), () => bareRedis.stop(), () => chain.anvil.stop());
    log(`anvil with ONCHAINID and ${chain.users.length} identities; three redis-servers`);
    const proxy = await startLatencyProxy(chain.anvil.rpcUrl);
    stops.push(() => proxy.close());

    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const serverEnv = benchServerEnv({ rpcUrl: proxy.rpcUrl, chain, client: CLIENT, privateKey });
    const env = (port: number, redisUrl: string): Record<string, string> => ({
      ...serverEnv(port, redisUrl),
      ADMIN_TOKEN,
      SIGNET_ISSUER_ADDRESS: chain.suite.claimIssuer,
      SIGNET_ISSUER_KEY: DEPLOYER_KEY,
      TRUSTED_ISSUERS: JSON.stringify([{ address: chain.suite.claimIssuer, topics: [CLAIM_TOPIC] }]),
    });
    let browserUser = 0;
    const browserPath = () =>
      measureBrowserPath({
        chainRpcUrl: chain.anvil.rpcUrl,
        env: (port, rpcUrl, redisUrl) => ({ ...env(port, redisUrl), CHAIN_RPC_URL: rpcUrl }),
        client: CLIENT,
        scope: SCOPE,
        nextWallet: () => chain.users[browserUser++ % chain.users.length]!.wallet,
        log,
        stops,
      });
    if (only === 'browser_path') {
      const results = { startedAt: new Date(runStarted).toISOString(), loadAverageAtStart, identities: chain.users.length, browserPath: await browserPath() };
      const dir = join(projectRoot, 'bench', 'results');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `browser-path-${results.startedAt.replace(/[:.]/g, '-')}.json`);
      writeFileSync(file, `${JSON.stringify({ ...results, durationSeconds: round((Date.now() - runStarted) / 1000, 0) }, null, 2)}\n`);
      console.log(browserPathSection(results.browserPath).join('\n'));
      log(`done: ${file.slice(projectRoot.length + 1)} (docs/performance.md is left to the whole run)`);
      return;
    }
    await letIssuerAddClaims(chain, DEPLOYER_KEY, CLAIM_HOLDERS);
    const [signetPort, floorPort] = [await freePort(), await freePort()];
    const signet = await startServerProcess(
      'Signet',
      [join(projectRoot, 'dist', 'app', 'main.js')],
      env(signetPort, signetRedis.url),
      signetPort,
    );
    stops.push(() => signet.stop());
    const floor = await startServerProcess(
      'engine floor',
      [join(projectRoot, 'dist-bench', 'bench', 'engine_floor.js')],
      { ...env(floorPort, floorRedis.url), BENCH_FIXED_IDENTITY: chain.users[0]!.identity },
      floorPort,
    );
    stops.push(() => floor.stop());
    const barePort = await freePort();
    const fixedIdentity = { BENCH_FIXED_IDENTITY: chain.users[0]!.identity };
    const bareEntry = join(projectRoot, 'dist-bench', 'bench', 'bare_engine.js');
    const bare = await startServerProcess('bare engine', [bareEntry], { ...env(barePort, bareRedis.url), ...fixedIdentity }, barePort);
    stops.push(() => bare.stop());
    // The same engine on the same Redis (the bare engine's tokens are its tokens) inside Signet's
    // HTTP stack: userinfo there against the bare engine's is the middleware's cost by itself.
    const bareMiddlewarePort = await freePort();
    const bareWithMiddleware = await startServerProcess(
      'bare engine in Signet\'s middleware',
      [bareEntry],
      { ...env(bareMiddlewarePort, bareRedis.url), ...fixedIdentity, BENCH_SIGNET_MIDDLEWARE: '1' },
      bareMiddlewarePort,
    );
    stops.push(() => bareWithMiddleware.stop());
    const signetRedisClient = new Redis(signetRedis.url);
    const floorRedisClient = new Redis(floorRedis.url);
    // Every owner has saved a profile (as the bare engine's account has its claims), so Signet's
    // ID tokens, userinfo and access-grant reads release what the engine's do: a name and an email.
    const profiles = ownerProfiles(chain);
    await Promise.all([signetRedisClient.mset(profiles), floorRedisClient.mset(profiles)]);
    const bareRedisClient = new Redis(bareRedis.url);
    stops.push(async () => {
      signetRedisClient.disconnect();
      floorRedisClient.disconnect();
      bareRedisClient.disconnect();
    });
    const counters = {
      signet: { server: signet, redis: signetRedisClient, proxy },
      floor: { server: floor, redis: floorRedisClient, proxy },
      bare: { server: bare, redis: bareRedisClient, proxy },
    };
    const memoryBefore = { signetMiB: round(signet.rssMiB(), 1), floorMiB: round(floor.rssMiB(), 1) };
    log(`Signet (pid ${signet.pid}) and the engine floor (pid ${floor.pid}) are up`);
    const claimHolders = await issueClaims(signet.base, ADMIN_TOKEN, chain, CLAIM_TOPIC, CLAIM_HOLDERS).catch((error: Error) => {
      throw new Error(`${error.message}\nSignet's last output:\n${signet.output()}`);
    });

    let user = 0;
    const nextWallet = () => chain.users[user++ % chain.users.length]!.wallet;
    const signetOnce = () => signetLogin(signet.base, CLIENT, SCOPE, nextWallet());
    const floorOnce = () => floorLogin(floor.base, CLIENT, SCOPE);
    const bareOnce = () => floorLogin(bare.base, CLIENT, SCOPE);

    type Issued = { access_token: string }[];
    /** Userinfo on each server (the last 16 access tokens each issued), then claim resource reads. */
    const measureUserinfo = async (issued: { signet: Issued; floor: Issued; bare: Issued }) => {
      const last = (list: Issued) => list.slice(-16).map((t) => t.access_token);
      const [signetAccess, floorAccess, bareAccess] = [last(issued.signet), last(issued.floor), last(issued.bare)];
      const userinfoSides = {
        signet: { counters: counters.signet, concurrency: 16, work: (w: number) => userinfo(signet.base, signetAccess[w % signetAccess.length]!) },
        floor: { counters: counters.floor, concurrency: 16, work: (w: number) => userinfo(floor.base, floorAccess[w % floorAccess.length]!) },
        bare: { counters: counters.bare, concurrency: 16, work: (w: number) => userinfo(bare.base, bareAccess[w % bareAccess.length]!) },
        bareWithMiddleware: {
          counters: { ...counters.bare, server: bareWithMiddleware },
          concurrency: 16,
          work: (w: number) => userinfo(bareWithMiddleware.base, bareAccess[w % bareAccess.length]!),
        },
      };
      // A second of userinfo on each first: the bare engine in Signet's middleware has served
      // nothing yet, and a cold process (code not yet optimised) spends twice the CPU per request.
      await runRatesInterleaved(userinfoSides, 2, 2);
      // Twice the other rates' time, in 1 s slices: the middleware's share is a difference of two of these.
      const userinfoRates = await runRatesInterleaved(userinfoSides, 2 * RATE_SECONDS, 2 * RATE_SECONDS);
      log(
        `userinfo/s (ms CPU each): Signet ${userinfoRates.signet.perSecond} (${userinfoRates.signet.serverCpuMsPerRequest}), floor ${userinfoRates.floor.perSecond} (${userinfoRates.floor.serverCpuMsPerRequest}), bare engine ${userinfoRates.bare.perSecond} (${userinfoRates.bare.serverCpuMsPerRequest}), in Signet's middleware ${userinfoRates.bareWithMiddleware.perSecond} (${userinfoRates.bareWithMiddleware.serverCpuMsPerRequest})`,
      );
      // The claim resource, read with the access token of a login that kept the claim: the token,
      // the consent receipt and the claim's data from Redis, the claim re-checked on the chain.
      const claimReaders: { path: string; token: string }[] = [];
      for (const holder of claimHolders) {
        const login = await signetLogin(signet.base, CLIENT, `${SCOPE} claim:${CLAIM_TOPIC}`, chain.users[holder.index]!.wallet);
        claimReaders.push({ path: `/identities/${holder.identity}/claims/${holder.claimId}`, token: login.tokens.access_token });
      }
      const chainBeforeClaims = proxy.requests();
      const claimRate = await runRate(counters.signet, 16, RATE_SECONDS, (w) => {
        const reader = claimReaders[w % claimReaders.length]!;
        return resourceRead(signet.base, reader.path, reader.token);
      });
      const claimReads = { ...claimRate, chainRoundTripsPerRead: round((proxy.requests() - chainBeforeClaims) / claimRate.requests, 2) };
      log(`claim resource reads/s: Signet ${claimReads.perSecond} (${claimReads.chainRoundTripsPerRead} chain round trips each, ${claimReads.serverCpuMsPerRequest} ms CPU)`);
      return { userinfoRates, claimReads };
    };

    // Warm both (JIT, connections), then the parts' floors.
    const warm = {
      signet: (await runLogins(counters.signet, 0, 4, 40, signetOnce)).tokens,
      floor: (await runLogins(counters.floor, 0, 4, 40, floorOnce)).tokens,
      bare: (await runLogins(counters.bare, 0, 4, 40, bareOnce)).tokens,
    };
    if (only === 'userinfo') {
      await measureUserinfo(warm);
      log('done (docs/performance.md and bench/results are left to the whole run)');
      return;
    }
    const message = sampleChallengeText();
    const signature = await chain.users[0]!.wallet.signMessage({ message });
    const reader = createChainClient(proxy.rpcUrl, chain.anvil.chainId);
    const identityRead = { address: chain.suite.identityFactory, abi: idFactoryAbi, functionName: 'getIdentity', args: [chain.users[0]!.wallet.address] } as const;
    const ethCallBody = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: identityRead.address, data: encodeFunctionData(identityRead) }, 'latest'],
    });
    const chainReadCpu = await cpuEach(200, {
      viem: () => reader.readContract(identityRead),
      rpcFetch: async () => (await rpcFetch(proxy.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ethCallBody })).text(),
    });
    const parts = {
      signatureRecoveryBackend,
      signatureRecoveryMs: await timeEach(500, () => recoverMessageSigner(message, signature)),
      jsSignatureRecoveryMs: await timeEach(100, () => recoverMessageAddress({ message, signature })),
      redisRoundTripMs: await timeEach(500, () => signetRedisClient.ping()),
      ethCallRoundTripMs: await timeEach(200, () => reader.readContract(identityRead)),
      chainReadCpuMs: chainReadCpu.viem!,
      rawEthCallCpuMs: chainReadCpu.rpcFetch!,
    };
    log(`parts: ${JSON.stringify(parts)}`);
    // Each path's Redis commands and round trips, and its chain round trips, on a process of each
    // server started for it behind a counting proxy (the figures above and below go without one).
    type TracedLogin = (base: string) => Promise<{ tokens: { access_token: string } }>;
    const traced = async (name: string, entry: string, extraEnv: Record<string, string>, redisUrl: string, paths: Record<string, TracedLogin>) => {
      const counting = await startRedisCountingProxy(redisUrl);
      const port = await freePort();
      const server = await startServerProcess(`${name} (traced)`, [entry], { ...env(port, counting.url), ...extraEnv }, port);
      try {
        const traces: Record<string, Awaited<ReturnType<typeof traceRedis>>> = {};
        for (const [path, login] of Object.entries(paths)) {
          for (let i = 0; i < 3; i++) await login(server.base);
          traces[path] = await traceRedis(redisUrl, counting, proxy, () => login(server.base));
        }
        // And userinfo, with the token of the first path's login.
        const { tokens } = await Object.values(paths)[0]!(server.base);
        traces.userinfo = await traceRedis(redisUrl, counting, proxy, () => userinfo(server.base, tokens.access_token));
        return traces;
      } finally {
        await server.stop();
        await counting.close();
      }
    };
    let nextUser = 0;
    let nextHolder = 0;
    const signetPaths = await traced('Signet', join(projectRoot, 'dist', 'app', 'main.js'), {}, signetRedis.url, {
      page: (base) => signetLogin(base, CLIENT, SCOPE, nextWallet()),
      walletSdk: (base) => {
        const user = chain.users[nextUser++ % chain.users.length]!;
        return signetLogin(base, CLIENT, SCOPE, user.wallet, user.identity);
      },
      claimScope: (base) => {
        const holder = claimHolders[nextHolder++ % claimHolders.length]!;
        return signetLogin(base, CLIENT, `${SCOPE} claim:${CLAIM_TOPIC}`, chain.users[holder.index]!.wallet);
      },
      browser: (base) => browserLogin(base, CLIENT, SCOPE, nextWallet()),
    });
    // The engine's own login with the website's userinfo after it: the browser path's counterpart.
    const engineBrowser = (base: string) => withUserinfo(base, () => floorLogin(base, CLIENT, SCOPE))();
    const floorPaths = await traced('engine floor', join(projectRoot, 'dist-bench', 'bench', 'engine_floor.js'), fixedIdentity, floorRedis.url, {
      page: (base) => floorLogin(base, CLIENT, SCOPE),
      browser: engineBrowser,
    });
    const barePaths = await traced('bare engine', bareEntry, fixedIdentity, bareRedis.url, { page: (base) => floorLogin(base, CLIENT, SCOPE), browser: engineBrowser });
    const redisTrace = {
      signet: signetPaths.page!,
      walletSdk: signetPaths.walletSdk!,
      claimScope: signetPaths.claimScope!,
      floor: floorPaths.page!,
      bare: barePaths.page!,
      userinfo: { signet: signetPaths.userinfo!, bare: barePaths.userinfo! },
      browser: { signet: signetPaths.browser!, floor: floorPaths.browser!, bare: barePaths.browser! },
    };
    log(`Redis round trips per login: Signet ${redisTrace.signet.roundTripsPerLogin} (page), ${redisTrace.walletSdk.roundTripsPerLogin} (wallet SDK), ${redisTrace.claimScope.roundTripsPerLogin} (claim scope); floor ${redisTrace.floor.roundTripsPerLogin}, bare engine ${redisTrace.bare.roundTripsPerLogin}`);
    const idle = { signet: await idleRedisRate(signetRedisClient), floor: await idleRedisRate(floorRedisClient), bare: await idleRedisRate(bareRedisClient) };

    const loginSides = {
      signet: { counters: counters.signet, idleRate: idle.signet, login: signetOnce },
      floor: { counters: counters.floor, idleRate: idle.floor, login: floorOnce },
      bare: { counters: counters.bare, idleRate: idle.bare, login: bareOnce },
    };
    const logins: Record<string, { signet: LoginPhase; floor: LoginPhase; bare: LoginPhase }> = {};
    const tokens: { access_token: string; refresh_token?: string }[] = [];
    const floorTokens: { access_token: string; refresh_token?: string }[] = [];
    const bareTokens: { access_token: string; refresh_token?: string }[] = [];
    for (const concurrency of [1, 8, 32]) {
      const { signet: signetRun, floor: floorRun, bare: bareRun } = await runLoginsInterleaved(loginSides, concurrency, LOGINS[concurrency]!);
      tokens.push(...signetRun.tokens);
      floorTokens.push(...floorRun.tokens);
      bareTokens.push(...bareRun.tokens);
      logins[`c${concurrency}`] = { signet: signetRun.phase, floor: floorRun.phase, bare: bareRun.phase };
      log(`logins c=${concurrency}: Signet ${signetRun.phase.loginsPerSecond}/s p50 ${signetRun.phase.p50Ms} ms, ${signetRun.phase.serverCpuMsPerLogin} ms CPU; floor ${floorRun.phase.loginsPerSecond}/s p50 ${floorRun.phase.p50Ms} ms, ${floorRun.phase.serverCpuMsPerLogin} ms CPU`);
    }

    // Each path people and services wait on, against the bare engine (bench/users_paths.ts).
    const usersPaths = await measureUsersPaths({
      signet: { base: signet.base, counters: counters.signet, idleRate: idle.signet },
      floor: { base: floor.base, counters: counters.floor, idleRate: idle.floor },
      bare: { base: bare.base, counters: counters.bare, idleRate: idle.bare },
      client: CLIENT,
      scope: SCOPE,
      adminToken: ADMIN_TOKEN,
      nextUser: () => chain.users[user++ % chain.users.length]!,
      bareAccess: bareTokens.slice(-16).map((t) => t.access_token),
      logins: LOGINS[8]!,
      rateSeconds: RATE_SECONDS,
      log,
    });

    const refreshChains = (list: typeof tokens) => list.filter((t) => t.refresh_token).slice(0, 16).map((t) => t.refresh_token!);
    const signetChains = refreshChains(tokens);
    const floorChains = refreshChains(floorTokens);
    const bareChains = refreshChains(bareTokens);
    const refreshes = await runRatesInterleaved(
      {
        signet: {
          counters: counters.signet,
          concurrency: signetChains.length,
          work: async (w) => {
            signetChains[w] = (await refresh(signet.base, CLIENT, signetChains[w]!)).refresh_token!;
          },
        },
        floor: {
          counters: counters.floor,
          concurrency: floorChains.length,
          work: async (w) => {
            floorChains[w] = (await refresh(floor.base, CLIENT, floorChains[w]!)).refresh_token!;
          },
        },
        bare: {
          counters: counters.bare,
          concurrency: bareChains.length,
          work: async (w) => {
            bareChains[w] = (await refresh(bare.base, CLIENT, bareChains[w]!)).refresh_token!;
          },
        },
      },
      RATE_SECONDS,
    );
    log(`refreshes/s: Signet ${refreshes.signet.perSecond}, floor ${refreshes.floor.perSecond}, bare engine ${refreshes.bare.perSecond}`);
    // Access tokens issued by the logins above (the refreshes rotated only refresh tokens' grants).
    const signetAccess = tokens.slice(-16).map((t) => t.access_token);
    const { userinfoRates, claimReads } = await measureUserinfo({ signet: tokens, floor: floorTokens, bare: bareTokens });
    proxy.latencyMs = 20;
    const slow: Record<string, { signet: LoginPhase; floor: LoginPhase }> = {};
    const slowSides = { signet: loginSides.signet, floor: loginSides.floor };
    for (const concurrency of [1, 8]) {
      const { signet: signetRun, floor: floorRun } = await runLoginsInterleaved(slowSides, concurrency, concurrency === 1 ? 40 : 160);
      slow[`c${concurrency}`] = { signet: signetRun.phase, floor: floorRun.phase };
      log(`20 ms chain, logins c=${concurrency}: Signet ${signetRun.phase.loginsPerSecond}/s p50 ${signetRun.phase.p50Ms} ms; floor p50 ${floorRun.phase.p50Ms} ms`);
    }
    proxy.latencyMs = 0;
    const memoryAfter = { signetMiB: round(signet.rssMiB(), 1), floorMiB: round(floor.rssMiB(), 1) };

    // WORKERS=auto (production's default) against the one process above, same Redis and chain:
    // throughput and latency only (the primary's /proc does not hold its workers' CPU).
    const workersPort = await freePort();
    const workersSignet = await startServerProcess('Signet (WORKERS=auto)', [join(projectRoot, 'dist', 'app', 'main.js')], { ...env(workersPort, signetRedis.url), WORKERS: 'auto' }, workersPort);
    stops.push(() => workersSignet.stop());
    const workersCounters = { ...counters.signet, server: workersSignet };
    const workersOnce = () => signetLogin(workersSignet.base, CLIENT, SCOPE, nextWallet());
    await runLogins(workersCounters, 0, 8, 80, workersOnce);
    const workerLogins = await runLoginsInterleaved(
      { one: loginSides.signet, auto: { counters: workersCounters, idleRate: idle.signet, login: workersOnce } },
      32,
      LOGINS[32]!,
    );
    const workerUserinfo = await runRatesInterleaved(
      {
        one: { counters: counters.signet, concurrency: 16, work: (w) => userinfo(signet.base, signetAccess[w % signetAccess.length]!) },
        auto: { counters: workersCounters, concurrency: 16, work: (w) => userinfo(workersSignet.base, signetAccess[w % signetAccess.length]!) },
      },
      RATE_SECONDS,
    );
    const workers = {
      cores: availableParallelism(),
      logins: { one: workerLogins.one.phase, auto: workerLogins.auto.phase },
      userinfoPerSecond: { one: workerUserinfo.one.perSecond, auto: workerUserinfo.auto.perSecond },
    };
    log(`WORKERS=auto (${workers.cores}): logins c=32 ${workers.logins.auto.loginsPerSecond}/s against ${workers.logins.one.loginsPerSecond}/s; userinfo ${workers.userinfoPerSecond.auto}/s against ${workers.userinfoPerSecond.one}/s`);
    await workersSignet.stop();

    // Three chains configured (CHAINS) against one, same Redis, each a fresh process warmed
    // alike (a process that served the whole run above has a JIT and heap of its own): the
    // bench's chain first, behind the proxy (its round trips counted), and two more anvils with
    // the ONCHAINID contracts and none of these wallets' identities. The page path sends no
    // chain: the wallet is looked up on every chain, so each login also reads the two others once.
    const others = await Promise.all([startBenchChain(0, chain.anvil.chainId + 1), startBenchChain(0, chain.anvil.chainId + 2)]);
    stops.push(...others.map((other) => () => other.anvil.stop()));
    const chainsPort = await freePort();
    const { CHAIN_RPC_URL: _rpc, CHAIN_ID: _id, IDENTITY_FACTORY: _factory, ...oneChainless } = env(chainsPort, signetRedis.url);
    const chainEntry = (chainId: number, rpcUrl: string, factory: string) => ({ chain_id: chainId, name: `Bench ${chainId}`, rpc_url: rpcUrl, identity_factory: factory });
    const onePort = await freePort();
    // Both started at once, neither ahead: the order they started in moved the identity-named
    // ratio (the same work on both sides) by a few per cent.
    const [threeChains, oneChain] = await Promise.all([
      startServerProcess(
        'Signet (three chains)',
        [join(projectRoot, 'dist', 'app', 'main.js')],
        {
          ...oneChainless,
          CHAINS: JSON.stringify([
            chainEntry(chain.anvil.chainId, proxy.rpcUrl, chain.suite.identityFactory),
            ...others.map((other) => chainEntry(other.anvil.chainId, other.anvil.rpcUrl, other.suite.identityFactory)),
          ]),
          TRUSTED_ISSUERS: JSON.stringify([{ address: chain.suite.claimIssuer, topics: [CLAIM_TOPIC], chain_id: chain.anvil.chainId }]),
        },
        chainsPort,
      ),
      startServerProcess('Signet (one chain)', [join(projectRoot, 'dist', 'app', 'main.js')], env(onePort, signetRedis.url), onePort),
    ]);
    stops.push(
      () => threeChains.stop(),
      () => oneChain.stop(),
    );
    const threeCounters: Counters = { ...counters.signet, server: threeChains };
    const oneCounters: Counters = { ...counters.signet, server: oneChain };
    const threeOnce = () => signetLogin(threeChains.base, CLIENT, SCOPE, nextWallet());
    const oneOnce = () => signetLogin(oneChain.base, CLIENT, SCOPE, nextWallet());
    // The wallet SDK path: the identity named (its bare address: the first chain's), nothing looked up.
    const named = (base: string) => () => {
      const user = chain.users[nextUser++ % chain.users.length]!;
      return signetLogin(base, CLIENT, SCOPE, user.wallet, user.identity);
    };
    const chainSides = {
      one: { counters: oneCounters, idleRate: idle.signet, login: oneOnce },
      three: { counters: threeCounters, idleRate: idle.signet, login: threeOnce },
      oneNamed: { counters: oneCounters, idleRate: idle.signet, login: named(oneChain.base) },
      threeNamed: { counters: threeCounters, idleRate: idle.signet, login: named(threeChains.base) },
    };
    // Warm-up, one side after the other: each side's chain round trips on the first chain (the
    // proxy is shared, so only a side running alone is counted apart).
    const alone = await runLoginsInterleaved(chainSides, 8, 160);
    // Each process's background (its chain watchers: three against one) while both are idle,
    // taken off its rounds: the comparison is of what a login costs.
    const [oneIdleCpu, threeIdleCpu] = await Promise.all([idleCpuRate(oneChain), idleCpuRate(threeChains)]);
    oneCounters.idleCpuMsPerSecond = oneIdleCpu;
    threeCounters.idleCpuMsPerSecond = threeIdleCpu;
    // Rounds in which the one-chain and the three-chain process serve their logins at the same
    // time (c=4 each, the page path, then the identity named): whatever else the machine does
    // then falls on both alike, which one side after the other (rounds ten percent apart) did not
    // give. Every other round takes the two paths in the reverse order.
    const chainRounds: Record<keyof typeof chainSides, LoginPhase>[] = [];
    // Which side's logins start first alternates too, so neither always leads.
    const together = async (first: keyof typeof chainSides, second: keyof typeof chainSides) => {
      const [a, b] = await Promise.all([first, second].map((side) => runLogins(chainSides[side].counters, 0, 4, CHAIN_ROUND_LOGINS, chainSides[side].login)));
      return { [first]: a!.phase, [second]: b!.phase };
    };
    for (let i = 0; i < CHAIN_ROUNDS; i++) {
      const page = () => (i % 4 < 2 ? together('one', 'three') : together('three', 'one'));
      const named = () => (i % 4 < 2 ? together('oneNamed', 'threeNamed') : together('threeNamed', 'oneNamed'));
      const [first, second] = i % 2 === 0 ? [await page(), await named()] : [await named(), await page()];
      chainRounds.push({ ...first, ...second } as Record<keyof typeof chainSides, LoginPhase>);
    }
    const medianPhase = (side: keyof typeof chainSides) => {
      const of = (pick: (phase: LoginPhase) => number) => round(median(chainRounds.map((each) => pick(each[side]))), 2);
      return {
        loginsPerSecond: of((phase) => phase.loginsPerSecond),
        p50Ms: of((phase) => phase.p50Ms),
        serverCpuMsPerLogin: of((phase) => phase.serverCpuMsPerLogin),
        chainRoundTripsPerLogin: alone[side].phase.chainRoundTripsPerLogin,
      };
    };
    // The two sides of a round ran at the same time, under the same load of the machine: the
    // ratio of each round's pair, then their median, is the comparison.
    const ratioOf = (three: keyof typeof chainSides, one: keyof typeof chainSides) =>
      chainRounds.map((each) => round(each[three].serverCpuMsPerLogin / each[one].serverCpuMsPerLogin, 3));
    const cpuRatios = { page: ratioOf('three', 'one'), named: ratioOf('threeNamed', 'oneNamed') };
    const severalChains = {
      idleCpuMsPerSecond: { one: round(oneIdleCpu, 2), three: round(threeIdleCpu, 2) },
      cpuRatios,
      cpuRatio: { page: round(median(cpuRatios.page), 3), named: round(median(cpuRatios.named), 3) },
      rounds: CHAIN_ROUNDS,
      loginsPerRound: CHAIN_ROUND_LOGINS,
      one: medianPhase('one'),
      three: medianPhase('three'),
      named: { one: medianPhase('oneNamed'), three: medianPhase('threeNamed') },
    };
    log(`three chains, paired logins: CPU ratio ${severalChains.cpuRatio.page} (page path), ${severalChains.cpuRatio.named} (identity named); ${severalChains.three.chainRoundTripsPerLogin} round trips on its chain against ${severalChains.one.chainRoundTripsPerLogin}`);
    await Promise.all([threeChains.stop(), oneChain.stop()]);

    // The browser's path of a login, on two fresh processes of its own (with and without Multicall3).
    const browserPathResults = await browserPath();

    await signet.stop();

    // A login keeping a claim whose data another Signet holds, with 0 and 50 ms per answer of it.
    const providerPathResults = await measureProviderPath(log);

    // Where a login's CPU goes: another process of each server, on the same Redis and chain,
    // profiled over logins alone (after a warm-up), apart from the figures above.
    let profile: BenchResults['profile'];
    if (profiling) {
      mkdirSync(profileDir, { recursive: true });
      const stamp = new Date(runStarted).toISOString().replace(/[:.]/g, '-');
      const profileLogins = async (name: string, entry: string, extraEnv: Record<string, string>, redisUrl: string, redis: Redis, idleRate: number, once: (base: string) => Promise<LoginOutcome>) => {
        const [port, inspectorPort] = [await freePort(), await freePort()];
        const server = await startServerProcess(`${name} (profiled)`, [`--inspect=127.0.0.1:${inspectorPort}`, entry], { ...env(port, redisUrl), ...extraEnv }, port);
        stops.push(() => server.stop());
        const profiledCounters = { server, redis, proxy };
        await runLogins(profiledCounters, idleRate, 4, 80, () => once(server.base));
        const file = join(profileDir, `${name.replace(/\W+/g, '-')}-logins-${stamp}.cpuprofile`);
        let phase: LoginPhase | undefined;
        let issued: { access_token: string }[] = [];
        await profileWhile(inspectorPort, file, async () => {
          const run = await runLogins(profiledCounters, idleRate, 8, PROFILED_LOGINS, () => once(server.base));
          phase = run.phase;
          issued = run.tokens.slice(-16);
        });
        log(`profiled ${PROFILED_LOGINS} ${name} logins at c=8: ${phase!.serverCpuMsPerLogin} ms CPU each (profiler included)`);
        // Then userinfo alone, with the tokens of those logins: where a request's CPU goes besides the engine.
        const userinfoFile = file.replace('-logins-', '-userinfo-');
        let rate: { serverCpuMsPerRequest: number } | undefined;
        await profileWhile(inspectorPort, userinfoFile, async () => {
          rate = await runRate(profiledCounters, 16, RATE_SECONDS, (w) => userinfo(server.base, issued[w % issued.length]!.access_token));
        });
        await server.stop();
        return {
          file: file.slice(projectRoot.length + 1),
          serverCpuMsPerLogin: phase!.serverCpuMsPerLogin,
          ...summarizeProfile(file, 24),
          userinfo: { file: userinfoFile.slice(projectRoot.length + 1), serverCpuMsPerRequest: rate!.serverCpuMsPerRequest, ...summarizeProfile(userinfoFile, 24) },
        };
      };
      const signetProfile = await profileLogins('Signet', join(projectRoot, 'dist', 'app', 'main.js'), {}, signetRedis.url, signetRedisClient, idle.signet, (base) =>
        signetLogin(base, CLIENT, SCOPE, nextWallet()),
      );
      const floorProfile = await profileLogins(
        'engine floor',
        join(projectRoot, 'dist-bench', 'bench', 'engine_floor.js'),
        { BENCH_FIXED_IDENTITY: chain.users[0]!.identity },
        floorRedis.url,
        floorRedisClient,
        idle.floor,
        (base) => floorLogin(base, CLIENT, SCOPE),
      );
      const bareProfile = await profileLogins('bare engine', bareEntry, fixedIdentity, bareRedis.url, bareRedisClient, idle.bare, (base) => floorLogin(base, CLIENT, SCOPE));
      profile = { logins: PROFILED_LOGINS, signet: signetProfile, floor: floorProfile, bare: bareProfile };
    }

    const results = {
      startedAt: new Date(runStarted).toISOString(),
      loadAverageAtStart,
      durationSeconds: round((Date.now() - runStarted) / 1000, 0),
      identities: chain.users.length,
      scope: SCOPE,
      parts,
      logins,
      refreshesPerSecond: refreshes,
      userinfoPerSecond: userinfoRates,
      claimReadsPerSecond: claimReads,
      usersPaths,
      chainLatency20ms: slow,
      memory: { before: memoryBefore, after: memoryAfter },
      redisTrace,
      workers,
      severalChains,
      profile,
      browserPath: browserPathResults,
      providerPath: providerPathResults,
    };
    const report = writeReport(results);
    const dir = join(projectRoot, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const json = JSON.stringify({ ...results, machine: report.machine, versions: report.versions, targets: report.targets }, null, 2);
    writeFileSync(join(dir, `login-${results.startedAt.replace(/[:.]/g, '-')}.json`), `${json}\n`);
    writeFileSync(join(dir, 'latest.json'), `${json}\n`);
    console.log(report.text);
    log('done: bench/results/latest.json and docs/performance.md');
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}

/** A challenge text of the size Signet issues, for the signature-recovery floor. */
function sampleChallengeText(): string {
  return [
    'signet.bench wants you to sign in with your Ethereum account:',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '',
    'Bench site asks you to sign in with your identity. By signing you share: Name, Email.',
    '',
    'URI: https://signet.bench',
    'Version: 1',
    'Chain ID: 31337',
    'Nonce: 3b6c0d0b1f9a4e2c8d',
    'Issued At: 2026-01-01T00:00:00.000Z',
    'Expiration Time: 2026-01-01T00:05:00.000Z',
    'Request ID: interaction:abcdefghijklmnopqrstu',
    'Resources:',
    '- eip155:31337:0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '- https://signet.bench/identities/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/profile#given_name',
    '- https://signet.bench/identities/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/profile#email',
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
