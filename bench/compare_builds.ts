// Userinfo of this build against another build of Signet, measured from outside with the same
// driver, interleaved in one run: `npm run bench:compare -- <the other build's main.js>` (build it
// first, e.g. in a git worktree of the commit: `npm run build`). Both servers run
// on one redis-server each and one chain (anvil with the ONCHAINID contracts), log in the same
// identities, then answer userinfo at concurrency 16 in alternating one-second slices; it prints
// each side's requests per second and server CPU per request, and their ratios.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { projectRoot } from '../src/base/project_root.js';
import { freePort } from '../test/support/free_port.js';
import { startRedisServer } from '../test/support/redis_server.js';
import { startBenchChain } from './bench_chain.js';
import { startLatencyProxy } from './latency_proxy.js';
import { runLogins, runRatesInterleaved } from './load.js';
import { type BenchClient, signetLogin, userinfo } from './oidc_driver.js';
import { benchServerEnv, ownerProfiles } from './server_env.js';
import { startServerProcess } from './server_process.js';
import { round } from './stats.js';

const SECONDS = Number(process.env.BENCH_COMPARE_SECONDS ?? 24);
const IDENTITIES = 40;
const CLIENT: BenchClient = { client_id: 'bench', client_secret: randomBytes(16).toString('hex'), redirect_uri: 'https://rp.bench/callback' };

async function main() {
  const other = process.argv[2];
  if (!other) throw new Error('usage: compare_builds <the other build\'s main.js>');
  const stops: (() => Promise<unknown>)[] = [];
  try {
    const [thisRedis, otherRedis, chain] = await Promise.all([startRedisServer(), startRedisServer(), startBenchChain(IDENTITIES)]);
    stops.push(() => thisRedis.stop(), () => otherRedis.stop(), () => chain.anvil.stop());
    const proxy = await startLatencyProxy(chain.anvil.rpcUrl);
    stops.push(() => proxy.close());
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const env = benchServerEnv({ rpcUrl: proxy.rpcUrl, chain, client: CLIENT, privateKey });
    const [thisPort, otherPort] = [await freePort(), await freePort()];
    const [current, previous] = await Promise.all([
      startServerProcess('this build', [resolve(projectRoot, 'dist', 'app', 'main.js')], env(thisPort, thisRedis.url), thisPort),
      startServerProcess('the other build', [resolve(other)], env(otherPort, otherRedis.url), otherPort),
    ]);
    stops.push(() => current.stop(), () => previous.stop());
    // Every owner has a profile, so both release a name and an email.
    const profiles = ownerProfiles(chain);
    const clients = [new Redis(thisRedis.url), new Redis(otherRedis.url)];
    await Promise.all(clients.map((client) => client.mset(profiles)));
    stops.push(async () => {
      for (const client of clients) client.disconnect();
    });
    const sides = { this: { server: current, redis: clients[0]! }, other: { server: previous, redis: clients[1]! } };
    const tokens: Record<keyof typeof sides, string[]> = { this: [], other: [] };
    for (const name of ['this', 'other'] as const) {
      let next = 0;
      const { server, redis } = sides[name];
      const run = await runLogins({ server, redis, proxy }, 0, 4, IDENTITIES, () => signetLogin(server.base, CLIENT, 'openid profile email', chain.users[next++ % chain.users.length]!.wallet));
      tokens[name] = run.tokens.slice(-16).map((t) => t.access_token);
    }
    const side = (name: keyof typeof sides) => ({
      counters: { ...sides[name], proxy },
      concurrency: 16,
      work: (worker: number) => userinfo(sides[name].server.base, tokens[name][worker % tokens[name].length]!),
    });
    // Warm both (JIT), then the measured run.
    await runRatesInterleaved({ this: side('this'), other: side('other') }, 4, 4);
    const rates = await runRatesInterleaved({ this: side('this'), other: side('other') }, SECONDS, SECONDS);
    console.log(`userinfo, concurrency 16, ${SECONDS} alternating one-second slices each:`);
    console.log(`  this build:      ${rates.this.perSecond}/s, ${rates.this.serverCpuMsPerRequest} ms CPU per request`);
    console.log(`  the other build: ${rates.other.perSecond}/s, ${rates.other.serverCpuMsPerRequest} ms CPU per request`);
    console.log(`  this ÷ other: ${round(rates.this.perSecond / rates.other.perSecond, 2)} × the rate, ${round(rates.this.serverCpuMsPerRequest / rates.other.serverCpuMsPerRequest, 2)} × the CPU`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  }
}

await main();
