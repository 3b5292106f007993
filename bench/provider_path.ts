// The browser's path of a login that keeps one claim whose data another Signet holds (decisions
// 75 to 77): two Signets as two Information Providers (test/support/provider_pair.ts: A lists B,
// B keeps the KYC claim's data behind an HTTP proxy that adds a delay to every answer of B), and
// owners each holding such a claim. Each owner logs in at A twice, as a person's browser does
// (bench/browser_driver.ts, the consent page and its requests): the first login asks B's text and
// signs it (three requests at B), the later one uses the grant A keeps there (one request). With
// 0 and 50 ms added to every answer of B, in alternating order, one login at a time, so B's
// requests counted around each step are exactly that step's.
// The path's time leaves out what the owner spends: the wallet's signing and the page's request
// for B's text, which the page makes while the owner reads Signet's (reported on its own).
import { performance } from 'node:perf_hooks';
import type { LocalAccount } from 'viem';
import { ownerWithKyc, type ProviderPair, startProviderPair, stepsAt } from '../test/support/provider_pair.js';
import { WEBSITE } from '../test/support/signet_harness.js';
import { type BrowserLoginOutcome, browserLogin, PROVIDER_TEXT_STEP } from './browser_driver.js';
import { percentile, round } from './stats.js';

/** Milliseconds added to every answer of the provider: none, then the 50. */
export const PROVIDER_LATENCIES = [0, 50] as const;
/** Owners per latency (each logs in a first and a later time), after the warm-up (BENCH_PROVIDER_LOGINS to change). */
const LOGINS = Number(process.env.BENCH_PROVIDER_LOGINS ?? 40);
/** Owners logged in twice before the measured ones (JIT, connections, the first reads). */
const WARMUP = 6;
const SCOPE = 'openid claim:kyc';
const SIGNING = 'wallet signs (driver)';

export type ProviderLogin = 'first' | 'later';

export type ProviderPathSetting = {
  latencyMs: number;
  login: ProviderLogin;
  logins: number;
  /** The browser's path without the owner's time (signing, reading while B's text is asked), ms. */
  p50Ms: number;
  p90Ms: number;
  /** Each step's p50 and p90 (ms), the owner's steps included. */
  steps: Record<string, { p50Ms: number; p90Ms: number }>;
  /** Requests at the provider per login, by the browser's step that caused them and by kind. */
  providerRequestsByStep: Record<string, Record<string, number>>;
  /** The fewest and most requests at the provider of one login. */
  providerRequestsRange: [number, number];
};

export type ProviderPathResults = {
  scope: string;
  loginsPerSetting: number;
  warmupLogins: number;
  settings: ProviderPathSetting[];
  /** p50 at 50 ms less p50 at 0 ms, per login kind (ms). */
  growthMs: Record<ProviderLogin, number>;
  /** How long after Signet's text the page shows B's (p50, ms), the first time, per latency. */
  providerTextP50Ms: Record<string, number>;
};

/** The limits on the growth at 50 ms per answer: two answers waited on the first time, one afterwards, 10 ms besides. */
export const PROVIDER_GROWTH_LIMITS: Record<ProviderLogin, number> = { first: 2 * 50 + 10, later: 50 + 10 };

type Sample = { outcome: BrowserLoginOutcome; requests: number };

/** The path's time: the whole login less the wallet's signing and the reading the page's request for B's text falls in. */
export const pathMs = (outcome: BrowserLoginOutcome) => outcome.ms - (outcome.times[SIGNING] ?? 0) - (outcome.times[PROVIDER_TEXT_STEP] ?? 0);

function summarize(latencyMs: number, login: ProviderLogin, samples: Sample[]): ProviderPathSetting {
  const stepTimes = new Map<string, number[]>();
  const byStep: Record<string, Record<string, number>> = {};
  for (const { outcome } of samples) {
    for (const [step, ms] of Object.entries(outcome.times)) stepTimes.set(step, [...(stepTimes.get(step) ?? []), ms]);
    for (const [step, counts] of Object.entries(outcome.metered)) {
      for (const [kind, count] of Object.entries(counts)) {
        byStep[step] ??= {};
        byStep[step][kind] = (byStep[step][kind] ?? 0) + count;
      }
    }
  }
  const durations = samples.map(({ outcome }) => pathMs(outcome));
  const counts = samples.map((sample) => sample.requests);
  return {
    latencyMs,
    login,
    logins: samples.length,
    p50Ms: round(percentile(durations, 50), 1),
    p90Ms: round(percentile(durations, 90), 1),
    steps: Object.fromEntries([...stepTimes].map(([step, values]) => [step, { p50Ms: round(percentile(values, 50), 1), p90Ms: round(percentile(values, 90), 1) }])),
    providerRequestsByStep: Object.fromEntries(
      Object.entries(byStep).map(([step, kinds]) => [step, Object.fromEntries(Object.entries(kinds).map(([kind, count]) => [kind, round(count / samples.length, 2)]))]),
    ),
    providerRequestsRange: [Math.min(...counts), Math.max(...counts)],
  };
}

export async function measureProviderPath(log: (line: string) => void): Promise<ProviderPathResults> {
  const pair: ProviderPair = await startProviderPair({ checkContract: false });
  try {
    const owners: LocalAccount[] = [];
    const total = WARMUP + LOGINS * PROVIDER_LATENCIES.length;
    for (let i = 0; i < total; i++) owners.push((await ownerWithKyc(pair, { level: 'basic', checked_by: 'bench' })).owner);
    log(`provider path: Signets A and B in this process, ${total} owners each holding a KYC claim whose data B keeps`);
    // B's requests by kind, counted around each step of a login.
    const meter = {
      counts: () => {
        const counts: Record<string, number> = {};
        for (const step of stepsAt(pair.proxy)) counts[step] = (counts[step] ?? 0) + 1;
        return counts;
      },
    };
    const client = { client_id: WEBSITE.client_id, client_secret: WEBSITE.client_secret!, redirect_uri: WEBSITE.redirect_uris[0]! };
    const once = async (owner: LocalAccount): Promise<Sample> => {
      const from = pair.proxy.requests.length;
      const outcome = await browserLogin(pair.a.issuer, client, SCOPE, owner, meter);
      return { outcome, requests: pair.proxy.requests.length - from };
    };
    let next = 0;
    const twice = async () => {
      const owner = owners[next++]!;
      return { first: await once(owner), later: await once(owner) };
    };
    for (let i = 0; i < WARMUP; i++) await twice();
    const samples = new Map<number, Record<ProviderLogin, Sample[]>>(PROVIDER_LATENCIES.map((latency) => [latency, { first: [], later: [] }]));
    const started = performance.now();
    for (let i = 0; i < LOGINS; i++) {
      // Every other round in the reverse order, so neither latency always runs first.
      const order = i % 2 === 0 ? PROVIDER_LATENCIES : [...PROVIDER_LATENCIES].reverse();
      for (const latencyMs of order) {
        pair.proxy.delayMs = latencyMs;
        const { first, later } = await twice();
        samples.get(latencyMs)!.first.push(first);
        samples.get(latencyMs)!.later.push(later);
      }
    }
    pair.proxy.delayMs = 0;
    const settings = PROVIDER_LATENCIES.flatMap((latencyMs) => {
      const taken = samples.get(latencyMs)!;
      return (['first', 'later'] as const).map((login) => summarize(latencyMs, login, taken[login]));
    });
    const p50 = (latencyMs: number, login: ProviderLogin) => settings.find((each) => each.latencyMs === latencyMs && each.login === login)!.p50Ms;
    const [none, most] = [PROVIDER_LATENCIES[0], PROVIDER_LATENCIES[PROVIDER_LATENCIES.length - 1]!];
    const growthMs = { first: round(p50(most, 'first') - p50(none, 'first'), 1), later: round(p50(most, 'later') - p50(none, 'later'), 1) };
    const providerTextP50Ms = Object.fromEntries(
      settings.filter((each) => each.login === 'first').map((each) => [`${each.latencyMs} ms`, each.steps[PROVIDER_TEXT_STEP]?.p50Ms ?? 0]),
    );
    for (const setting of settings) {
      log(
        `provider path, ${setting.latencyMs} ms per answer of B, ${setting.login} login: p50 ${setting.p50Ms} ms, p90 ${setting.p90Ms} ms; requests at B ${JSON.stringify(setting.providerRequestsByStep)}`,
      );
    }
    log(`provider path: growth at ${most} ms per answer of B: first login ${growthMs.first} ms, later ${growthMs.later} ms (${round((performance.now() - started) / 1000, 0)} s)`);
    return { scope: SCOPE, loginsPerSetting: LOGINS, warmupLogins: WARMUP, settings, growthMs, providerTextP50Ms };
  } finally {
    await pair.close();
  }
}
