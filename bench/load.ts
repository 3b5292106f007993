// Runs work at a fixed concurrency and reads what it cost the server: CPU from /proc, Redis
// commands from INFO, chain round trips from the latency proxy.
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import { sleep } from '../test/support/wait_until.js';
import type { LatencyProxy } from './latency_proxy.js';
import type { StepTimes } from './oidc_driver.js';
import type { ServerProcess } from './server_process.js';
import { percentile, round } from './stats.js';

/**
 * idleCpuMsPerSecond: the server's CPU while it serves nothing (its background work: chain
 * watchers, queues), taken off each run's CPU so a figure per login is the logins' own.
 */
export type Counters = { server: ServerProcess; redis: Redis; proxy: LatencyProxy; idleCpuMsPerSecond?: number };

/** CPU a server spends per second serving nothing: its background work. */
export async function idleCpuRate(server: ServerProcess, seconds = 3): Promise<number> {
  const before = server.cpuMs();
  await sleep(seconds * 1000);
  return (server.cpuMs() - before) / seconds;
}

export async function redisCommands(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)![1]);
}

/** Commands the server sends Redis while idle (background workers), per second. */
export async function idleRedisRate(redis: Redis, seconds = 1): Promise<number> {
  const before = await redisCommands(redis);
  await sleep(seconds * 1000);
  // The two INFO calls of this measure are not the server's.
  return Math.max(0, (await redisCommands(redis)) - before - 1) / seconds;
}

export type LoginOutcome = { times: StepTimes; requests: number; tokens: { access_token: string; refresh_token?: string } };

export type LoginPhase = {
  concurrency: number;
  logins: number;
  loginsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  steps: Record<string, { p50Ms: number; p99Ms: number }>;
  serverCpuMsPerLogin: number;
  httpRequestsPerLogin: number;
  redisCommandsPerLogin: number;
  chainRoundTripsPerLogin: number;
};

/** What a run of logins measured, before it is summed up (slices of a run add up). */
type LoginSamples = {
  durations: number[];
  steps: Map<string, number[]>;
  tokens: LoginOutcome['tokens'][];
  logins: number;
  requests: number;
  seconds: number;
  cpuMs: number;
  redisCommands: number;
  chainRoundTrips: number;
};

async function collectLogins(
  counters: Counters,
  idleRate: number,
  concurrency: number,
  total: number,
  login: (index: number) => Promise<LoginOutcome>,
): Promise<LoginSamples> {
  const samples: LoginSamples = { durations: [], steps: new Map(), tokens: [], logins: total, requests: 0, seconds: 0, cpuMs: 0, redisCommands: 0, chainRoundTrips: 0 };
  let next = 0;
  const cpu0 = counters.server.cpuMs();
  const redis0 = await redisCommands(counters.redis);
  const chain0 = counters.proxy.requests();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        const start = performance.now();
        const outcome = await login(index);
        samples.durations.push(performance.now() - start);
        samples.requests += outcome.requests;
        samples.tokens.push(outcome.tokens);
        for (const [step, ms] of Object.entries(outcome.times)) samples.steps.set(step, [...(samples.steps.get(step) ?? []), ms]);
      }
    }),
  );
  samples.seconds = (performance.now() - started) / 1000;
  samples.cpuMs = counters.server.cpuMs() - cpu0 - (counters.idleCpuMsPerSecond ?? 0) * samples.seconds;
  samples.redisCommands = Math.max(0, (await redisCommands(counters.redis)) - redis0 - 1 - idleRate * samples.seconds);
  samples.chainRoundTrips = counters.proxy.requests() - chain0;
  return samples;
}

function joined(all: LoginSamples[]): LoginSamples {
  const steps = new Map<string, number[]>();
  for (const one of all) for (const [step, values] of one.steps) steps.set(step, [...(steps.get(step) ?? []), ...values]);
  const sum = (pick: (one: LoginSamples) => number) => all.reduce((total, one) => total + pick(one), 0);
  return {
    durations: all.flatMap((one) => one.durations),
    steps,
    tokens: all.flatMap((one) => one.tokens),
    logins: sum((one) => one.logins),
    requests: sum((one) => one.requests),
    seconds: sum((one) => one.seconds),
    cpuMs: sum((one) => one.cpuMs),
    redisCommands: sum((one) => one.redisCommands),
    chainRoundTrips: sum((one) => one.chainRoundTrips),
  };
}

function phaseOf(concurrency: number, samples: LoginSamples): LoginPhase {
  const total = samples.logins;
  return {
    concurrency,
    logins: total,
    loginsPerSecond: round(total / samples.seconds, 1),
    p50Ms: round(percentile(samples.durations, 50)),
    p99Ms: round(percentile(samples.durations, 99)),
    steps: Object.fromEntries(
      [...samples.steps].map(([step, values]) => [step, { p50Ms: round(percentile(values, 50)), p99Ms: round(percentile(values, 99)) }]),
    ),
    serverCpuMsPerLogin: round(samples.cpuMs / total),
    httpRequestsPerLogin: round(samples.requests / total, 1),
    redisCommandsPerLogin: round(samples.redisCommands / total, 1),
    chainRoundTripsPerLogin: round(samples.chainRoundTrips / total, 2),
  };
}

export async function runLogins(
  counters: Counters,
  idleRate: number,
  concurrency: number,
  total: number,
  login: (index: number) => Promise<LoginOutcome>,
): Promise<{ phase: LoginPhase; tokens: LoginOutcome['tokens'][] }> {
  const samples = await collectLogins(counters, idleRate, concurrency, total, login);
  return { phase: phaseOf(concurrency, samples), tokens: samples.tokens };
}

type LoginSide = { counters: Counters; idleRate: number; login: (index: number) => Promise<LoginOutcome> };

/**
 * Logins on each server (Signet, the floor, the bare engine) in alternating slices of equal
 * size: a burst of other load on the machine then falls on every side alike.
 */
export async function runLoginsInterleaved<K extends string>(sides: Record<K, LoginSide>, concurrency: number, total: number, slices = 4) {
  const names = Object.keys(sides) as K[];
  const taken = Object.fromEntries(names.map((name) => [name, [] as LoginSamples[]])) as Record<K, LoginSamples[]>;
  for (let slice = 0; slice < slices; slice++) {
    for (const name of inTurn(names, slice)) {
      const { counters, idleRate, login } = sides[name];
      taken[name].push(await collectLogins(counters, idleRate, concurrency, Math.ceil(total / slices), login));
    }
  }
  const runOf = (all: LoginSamples[]) => {
    const samples = joined(all);
    return { phase: phaseOf(concurrency, samples), tokens: samples.tokens };
  };
  return Object.fromEntries(names.map((name) => [name, runOf(taken[name])])) as Record<K, ReturnType<typeof runOf>>;
}

/** Requests per second of `work` at `concurrency` for `seconds`, and the server's CPU per request. */
export async function runRate(
  counters: Counters,
  concurrency: number,
  seconds: number,
  work: (worker: number) => Promise<void>,
): Promise<{ perSecond: number; serverCpuMsPerRequest: number; requests: number; seconds: number; cpuMs: number }> {
  let done = 0;
  const cpu0 = counters.server.cpuMs();
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < until) {
        await work(worker);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuMs = counters.server.cpuMs() - cpu0;
  return { perSecond: round(done / elapsed, 1), serverCpuMsPerRequest: round(cpuMs / done, 3), requests: done, seconds: elapsed, cpuMs };
}

/**
 * The sides' order in a slice: every other slice reversed, so no side always runs right after
 * the same one (in a fixed order the side that ran second carried a steady handicap).
 */
function inTurn<K>(names: readonly K[], slice: number): K[] {
  return slice % 2 === 0 ? [...names].reverse() : [...names];
}

type RateSide = { counters: Counters; concurrency: number; work: (worker: number) => Promise<void> };

/**
 * runRate on each server in alternating slices, the same time each: a burst of other load on
 * the machine then falls on every side alike.
 */
export async function runRatesInterleaved<K extends string>(sides: Record<K, RateSide>, seconds: number, slices = 4) {
  const names = Object.keys(sides) as K[];
  const totals = Object.fromEntries(names.map((name) => [name, { requests: 0, seconds: 0, cpuMs: 0 }])) as Record<K, { requests: number; seconds: number; cpuMs: number }>;
  for (let slice = 0; slice < slices; slice++) {
    for (const name of inTurn(names, slice)) {
      const { counters, concurrency, work } = sides[name];
      const run = await runRate(counters, concurrency, seconds / slices, work);
      totals[name].requests += run.requests;
      totals[name].seconds += run.seconds;
      totals[name].cpuMs += run.cpuMs;
    }
  }
  const rateOf = (total: { requests: number; seconds: number; cpuMs: number }) => ({
    perSecond: round(total.requests / total.seconds, 1),
    serverCpuMsPerRequest: round(total.cpuMs / total.requests, 3),
  });
  return Object.fromEntries(names.map((name) => [name, rateOf(totals[name])])) as Record<K, ReturnType<typeof rateOf>>;
}
