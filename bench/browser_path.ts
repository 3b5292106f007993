// The browser's path of a login on a provider-like RPC endpoint: two fresh Signet processes on
// the bench's chain, each with its own redis-server (its own store and chain watcher, as two
// deployments) and behind its own JSON-RPC proxy (test/support/provider_proxy.ts), one
// showing the chain's Multicall3 and one hiding it (no code at its address, as on a chain
// without it), each learning which at its start. At 0, 20 and 100 ms added to every RPC
// request, logins at concurrency 1 as a person's browser makes them (bench/browser_driver.ts),
// the two processes in alternating slices; every RPC request each step of a login sends is
// counted by method, exactly (one login at a time, the proxy's counts read around each step).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LocalAccount } from 'viem';
import { projectRoot } from '../src/base/project_root.js';
import { MULTICALL3_ADDRESS } from '../src/infra/chain/multicall3.js';
import { freePort } from '../test/support/free_port.js';
import { type ProviderProxy, type ProviderRequest, startProviderProxy } from '../test/support/provider_proxy.js';
import { startRedisServer } from '../test/support/redis_server.js';
import { sleep, waitFor } from '../test/support/wait_until.js';
import { type BrowserLoginOutcome, browserLogin } from './browser_driver.js';
import type { BenchClient } from './oidc_driver.js';
import { type ServerProcess, startServerProcess } from './server_process.js';
import { percentile, round } from './stats.js';

export const BROWSER_PATH_LATENCIES = [0, 20, 100] as const;
/** Logins per setting, after the warm-up (BENCH_BROWSER_LOGINS to change). */
const LOGINS = Number(process.env.BENCH_BROWSER_LOGINS ?? 40);
/** Logins on each process before the first setting (JIT, connections, the first reads). */
const WARMUP = 20;
/** And before each later setting (the new latency's first requests). */
const REWARM = 4;
const SLICES = 4;
/** How long each process is watched serving nothing, per setting: its own background RPC requests. */
const IDLE_SECONDS = 2;

/** How an eth_call reached the chain: to Multicall3, deployless (code carried in the call, no `to`), or to a contract. */
export type EthCallKind = 'toMulticall3' | 'deployless' | 'toContract';

export type BrowserPathSetting = {
  latencyMs: number;
  multicall3: boolean;
  logins: number;
  p50Ms: number;
  p90Ms: number;
  /** Each step's p50 and p90 (ms). */
  steps: Record<string, { p50Ms: number; p90Ms: number }>;
  httpRequestsPerLogin: number;
  /** eth_call requests per login (each one HTTP request: Signet batches none), and the fewest and most of one login. */
  ethCallsPerLogin: number;
  ethCallsRange: [number, number];
  /** eth_calls per login by the step (the browser's or the website's request) that made them. */
  ethCallsByStep: Record<string, number>;
  ethCallsByKind: Record<EthCallKind, number>;
  /** Every RPC request per login by method, while the login's steps ran (a background poll that fell in one included). */
  rpcByMethod: Record<string, number>;
  /** The same process serving nothing, per second by method (the chain watcher, the endpoint's probe). */
  idleRpcPerSecond: Record<string, number>;
  /** Requests per login the proxy answered "0x" for hiding Multicall3 (a read that found out the hard way). */
  hiddenMulticallAnswersPerLogin: number;
};

export type BrowserPathResults = {
  scope: string;
  loginsPerSetting: number;
  warmupLogins: number;
  /** Per process: what its start learned (its eth_getCode at Multicall3's address and how the proxy answered it). */
  learnedAtStart: { multicall3: boolean; getCodeRequests: number; answered: string[] }[];
  settings: BrowserPathSetting[];
};

export type BrowserPathDeps = {
  /** The chain's own JSON-RPC URL (anvil), behind the proxies. */
  chainRpcUrl: string;
  /** A Signet process's settings on `port` reaching the chain at `rpcUrl` and Redis at `redisUrl`. */
  env: (port: number, rpcUrl: string, redisUrl: string) => Record<string, string>;
  client: BenchClient;
  scope: string;
  nextWallet: () => LocalAccount;
  log: (line: string) => void;
  stops: (() => Promise<unknown>)[];
};

type Side = { multicall3: boolean; proxy: ProviderProxy; server: ServerProcess };
type Sample = { outcome: BrowserLoginOutcome; requests: ProviderRequest[] };

const add = (into: Record<string, number>, key: string, by = 1) => {
  into[key] = (into[key] ?? 0) + by;
};
const perLogin = (totals: Record<string, number>, logins: number) =>
  Object.fromEntries(
    Object.entries(totals)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, value]) => [key, round(value / logins, 2)]),
  );

function kindOf(request: ProviderRequest): EthCallKind {
  const to = (Array.isArray(request.params) ? (request.params[0] as { to?: unknown } | undefined)?.to : undefined) as string | undefined;
  if (!to) return 'deployless';
  return to.toLowerCase() === MULTICALL3_ADDRESS.toLowerCase() ? 'toMulticall3' : 'toContract';
}

function summarize(side: Side, latencyMs: number, samples: Sample[], idleRpcPerSecond: Record<string, number>): BrowserPathSetting {
  const logins = samples.length;
  const stepTimes = new Map<string, number[]>();
  const byStep: Record<string, number> = {};
  const byMethod: Record<string, number> = {};
  const byKind: Record<EthCallKind, number> = { toMulticall3: 0, deployless: 0, toContract: 0 };
  const ethCallsOfEach: number[] = [];
  let hidden = 0;
  let http = 0;
  for (const { outcome, requests } of samples) {
    http += outcome.requests;
    for (const [step, ms] of Object.entries(outcome.times)) stepTimes.set(step, [...(stepTimes.get(step) ?? []), ms]);
    for (const [step, counts] of Object.entries(outcome.metered)) {
      for (const [method, count] of Object.entries(counts)) {
        add(byMethod, method, count);
        if (method === 'eth_call') add(byStep, step, count);
      }
    }
    const calls = requests.filter((request) => request.method === 'eth_call');
    ethCallsOfEach.push(calls.length);
    for (const call of calls) byKind[kindOf(call)]++;
    hidden += requests.filter((request) => request.answered === 'multicall_hidden').length;
  }
  const durations = samples.map(({ outcome }) => outcome.ms);
  const ethCalls = ethCallsOfEach.reduce((sum, count) => sum + count, 0);
  const metered = byMethod.eth_call ?? 0;
  // The proxy's log and its counts are two views of the same requests.
  if (metered !== ethCalls) throw new Error(`the steps counted ${metered} eth_calls, the proxy's log ${ethCalls}`);
  return {
    latencyMs,
    multicall3: side.multicall3,
    logins,
    p50Ms: round(percentile(durations, 50), 1),
    p90Ms: round(percentile(durations, 90), 1),
    steps: Object.fromEntries(
      [...stepTimes].map(([step, values]) => [step, { p50Ms: round(percentile(values, 50), 1), p90Ms: round(percentile(values, 90), 1) }]),
    ),
    httpRequestsPerLogin: round(http / logins, 1),
    ethCallsPerLogin: round(ethCalls / logins, 2),
    ethCallsRange: [Math.min(...ethCallsOfEach), Math.max(...ethCallsOfEach)],
    ethCallsByStep: perLogin(byStep, logins),
    ethCallsByKind: perLogin(byKind, logins) as Record<EthCallKind, number>,
    rpcByMethod: perLogin(byMethod, logins),
    idleRpcPerSecond,
    hiddenMulticallAnswersPerLogin: round(hidden / logins, 2),
  };
}

async function idleRate(proxy: ProviderProxy): Promise<Record<string, number>> {
  const before = proxy.counts();
  const started = performance.now();
  await sleep(IDLE_SECONDS * 1000);
  const seconds = (performance.now() - started) / 1000;
  const rates: Record<string, number> = {};
  for (const [method, count] of Object.entries(proxy.counts())) {
    const moved = count - (before[method] ?? 0);
    if (moved) rates[method] = round(moved / seconds, 2);
  }
  return rates;
}

export async function measureBrowserPath(deps: BrowserPathDeps): Promise<BrowserPathResults> {
  const { log } = deps;
  // Each process behind its own proxy, Multicall3 hidden before the process starts: it learns at start.
  const sides: Side[] = [];
  for (const multicall3 of [true, false]) {
    const proxy = await startProviderProxy(deps.chainRpcUrl, { latencyMs: 0, hideMulticall3: !multicall3 });
    deps.stops.push(() => proxy.close());
    const redis = await startRedisServer();
    deps.stops.push(() => redis.stop());
    const port = await freePort();
    const name = `Signet (browser path, ${multicall3 ? 'with' : 'without'} Multicall3)`;
    const server = await startServerProcess(name, [join(projectRoot, 'dist', 'app', 'main.js')], deps.env(port, proxy.url, redis.url), port);
    deps.stops.push(() => server.stop());
    sides.push({ multicall3, proxy, server });
  }
  const multicallLookups = (proxy: ProviderProxy) =>
    proxy
      .log()
      .filter((request) => request.method === 'eth_getCode' && String((request.params as unknown[])[0]).toLowerCase() === MULTICALL3_ADDRESS.toLowerCase());
  const learnedAtStart = [];
  for (const side of sides) {
    const lookups = await waitFor(`${side.server.name} looked up Multicall3`, () => {
      const found = multicallLookups(side.proxy);
      return found.length > 0 && found;
    });
    learnedAtStart.push({ multicall3: side.multicall3, getCodeRequests: lookups.length, answered: lookups.map((request) => request.answered) });
  }
  log(
    `browser path: two fresh Signet processes, Multicall3 looked up at start: ${learnedAtStart.map((each) => `${each.multicall3 ? 'with' : 'without'} ${each.answered.join(', ')}`).join('; ')}`,
  );

  const once = async (side: Side): Promise<Sample> => {
    const from = side.proxy.log().length;
    const outcome = await browserLogin(side.server.base, deps.client, deps.scope, deps.nextWallet(), side.proxy);
    return { outcome, requests: side.proxy.log().slice(from) };
  };
  const settings: BrowserPathSetting[] = [];
  for (const [index, latencyMs] of BROWSER_PATH_LATENCIES.entries()) {
    for (const side of sides) await side.proxy.set({ latencyMs });
    for (const side of sides) for (let i = 0; i < (index === 0 ? WARMUP : REWARM); i++) await once(side);
    const idle = await Promise.all(sides.map((side) => idleRate(side.proxy)));
    const samples: Sample[][] = sides.map(() => []);
    for (let slice = 0; slice < SLICES; slice++) {
      // Every other slice in the reverse order, so neither side always runs first.
      const order = slice % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const taken = samples[which]!;
        const until = Math.round(((slice + 1) * LOGINS) / SLICES);
        while (taken.length < until) taken.push(await once(sides[which]!));
      }
    }
    for (const [which, side] of sides.entries()) {
      const setting = summarize(side, latencyMs, samples[which]!, idle[which]!);
      settings.push(setting);
      log(
        `browser path, ${latencyMs} ms per RPC request, ${side.multicall3 ? 'with' : 'without'} Multicall3: p50 ${setting.p50Ms} ms, p90 ${setting.p90Ms} ms; eth_calls per login ${setting.ethCallsPerLogin} (${JSON.stringify(setting.ethCallsByStep)}); RPC by method ${JSON.stringify(setting.rpcByMethod)}`,
      );
    }
  }
  for (const side of sides) await side.server.stop();
  return { scope: deps.scope, loginsPerSetting: LOGINS, warmupLogins: WARMUP, learnedAtStart, settings };
}
