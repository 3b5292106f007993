// The rate-limit classes (docs/operations.md, "Rate limits and proxy trust"), counted by
// rate-limiter-flexible in Redis, shared by every process, or in memory for the demo.
// Over a limit: 429 rate_limited with Retry-After; a counter Redis cannot reach: 503.
// On one Redis server (or Sentinels) the counters of a step are counted by one script, the
// library's own steps for each key in turn (one round trip instead of one per counter), and a
// check reads its counter by one script (GET and PTTL, as the library's transaction does).
import { Cluster } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitSettings } from '../config.js';
import { refuse, SignetError } from '../errors.js';
import { keys } from '../store/keys.js';
import type { RedisStore } from '../store/redis_store.js';
import type { Store } from '../store/store.js';

/** The classes counted by window; `failedSignaturesPerChallenge` is counted by `count` only. */
export type LimitClass = Exclude<keyof RateLimitSettings, 'failedSignaturesPerChallenge'>;

// What each class counts, in the words of the 429 answer.
const counted: Record<LimitClass, string> = {
  challengesPerAddress: 'challenges requested from one address',
  challengesPerInteraction: 'challenges requested for one login or sign-in',
  signaturesPerAddress: 'signatures sent from one address',
  signaturesPerInteraction: 'signatures sent for one login or sign-in',
  accountSignInsPerAddress: 'account sign-ins started from one address',
  tokenFailuresPerClient: 'failed client authentications of one client from one address',
  accessRequestsPerService: 'access requests from one service',
  publicReadsPerAddress: 'reads without a credential from one address',
  identityCreationsPerAddress: 'identities created from one address',
  identityCreationsPerWallet: 'identity deployments for one wallet',
};

export type RateLimits = {
  /** Counts one request of `who`; throws 429 rate_limited once the class's limit is passed. */
  consume(limit: LimitClass, who: string): Promise<void>;
  /**
   * Counts one request of each pair, in order, as consecutive `consume` calls would: the first
   * over its limit throws 429 and the pairs after it are not counted.
   */
  consumeAll(counts: readonly (readonly [LimitClass, string])[]): Promise<void>;
  /** Throws 429 if `who` is already over the limit, without counting it. */
  check(limit: LimitClass, who: string): Promise<void>;
  /**
   * Counts one attempt of `who` without refusing: `within` up to the limit, `last` at exactly it.
   * A new counter lives `windowSeconds` when given (a challenge's counter dies with it).
   */
  count(limit: LimitClass | 'failedSignaturesPerChallenge', who: string, windowSeconds?: number): Promise<{ within: boolean; last: boolean }>;
};

const isRedis = (store: Store): store is RedisStore => store.kind === 'redis' && 'client' in store;

// rate-limiter-flexible's consume (RateLimiterRedis's incrTtl script, one point) for each key
// in turn, stopping at the first over its limit. ARGV: per key, its limit then its window (s).
// Returns the (1-based) key that was over, its count and its ms left, or {0} when none was.
const CONSUME_ALL = `
for i = 1, #KEYS do
  local limit, window = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  redis.call('set', KEYS[i], 0, 'EX', window, 'NX')
  local consumed = redis.call('incrby', KEYS[i], 1)
  local ttl = redis.call('pttl', KEYS[i])
  if ttl == -1 then
    redis.call('expire', KEYS[i], window)
    ttl = 1000 * window
  end
  if consumed > limit then return {i, consumed, ttl} end
end
return {0}
`;

// A counter's count and ms left, or nil when there is none (the library's get).
const READ_COUNTER = `
local consumed = redis.call('get', KEYS[1])
if not consumed then return false end
return {tonumber(consumed), redis.call('pttl', KEYS[1])}
`;

type CounterScripts = {
  consumeRateLimits(numberOfKeys: number, ...args: string[]): Promise<number[]>;
  readRateLimit(key: string): Promise<[number, number] | null>;
};

/** The store's client with the two scripts registered (sent as EVALSHA once loaded). */
function counterScripts(store: RedisStore): CounterScripts {
  store.client.defineCommand('consumeRateLimits', { lua: CONSUME_ALL });
  store.client.defineCommand('readRateLimit', { numberOfKeys: 1, lua: READ_COUNTER });
  return store.client as unknown as CounterScripts;
}

function refusal(limit: LimitClass, settings: RateLimitSettings, msBeforeNext: number): SignetError {
  const { points, seconds } = settings[limit];
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return refuse('rate_limited', `at most ${points} ${counted[limit]} every ${seconds} s; try again in ${retryAfterSeconds} s`, { retryAfterSeconds });
}

/** Builds one limiter per class on the store's backend. */
export function createRateLimits(store: Store, settings: RateLimitSettings, challengeTtlSeconds: number): RateLimits {
  const limiterFor = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const options = { keyPrefix: keys.rateLimitPrefix(name), points, duration };
    // On the store's own client, so the limits fail (503) exactly as fast as the store does.
    return isRedis(store) ? new RateLimiterRedis({ ...options, storeClient: store.client }) : new RateLimiterMemory(options);
  };
  const limiters = new Map<string, RateLimiterAbstract>();
  for (const name of Object.keys(counted) as LimitClass[]) {
    limiters.set(name, limiterFor(name, settings[name].points, settings[name].seconds));
  }
  limiters.set('failedSignaturesPerChallenge', limiterFor('failedSignaturesPerChallenge', settings.failedSignaturesPerChallenge, challengeTtlSeconds));
  const limiterOf = (name: string) => limiters.get(name)!;
  const scripts = isRedis(store) ? counterScripts(store) : undefined;
  // On a cluster the counters of a step live in different slots, which one script cannot reach.
  const oneScriptPerStep = scripts !== undefined && !(isRedis(store) && store.client instanceof Cluster);

  // On Redis, every counter command runs under the store's own rules (first connection,
  // deadline, an outage answered 503 store_unavailable) on the store's connection.
  const run = <T>(work: () => Promise<T>): Promise<T> => (isRedis(store) ? store.guarded(work) : work());
  const fault = (error: unknown) => (error instanceof SignetError ? error : refuse('store_unavailable', 'the store (Redis) is unreachable', { cause: error }));

  const consume = async (limit: LimitClass, who: string) => {
    try {
      await run(() => limiterOf(limit).consume(who));
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw refusal(limit, settings, outcome.msBeforeNext);
      throw fault(outcome);
    }
  };

  return {
    consume,

    async consumeAll(counts) {
      if (!oneScriptPerStep || !scripts) {
        for (const [limit, who] of counts) await consume(limit, who);
        return;
      }
      const counterKeys = counts.map(([limit, who]) => limiterOf(limit).getKey(who));
      const limitsAndWindows = counts.flatMap(([limit]) => [String(settings[limit].points), String(settings[limit].seconds)]);
      let over: number[];
      try {
        over = await run(() => scripts.consumeRateLimits(counterKeys.length, ...counterKeys, ...limitsAndWindows));
      } catch (error) {
        throw fault(error);
      }
      const [which = 0, , msBeforeNext = 0] = over;
      if (which > 0) throw refusal(counts[which - 1]![0], settings, msBeforeNext);
    },

    async check(limit, who) {
      let current: { consumedPoints: number; msBeforeNext: number } | null;
      try {
        if (scripts) {
          const counter = await run(() => scripts.readRateLimit(limiterOf(limit).getKey(who)));
          current = counter && { consumedPoints: counter[0], msBeforeNext: counter[1] };
        } else {
          current = await run(() => limiterOf(limit).get(who));
        }
      } catch (error) {
        throw fault(error);
      }
      if (current && current.consumedPoints >= settings[limit].points) throw refusal(limit, settings, current.msBeforeNext);
    },

    async count(limit, who, windowSeconds) {
      const points = limit === 'failedSignaturesPerChallenge' ? settings.failedSignaturesPerChallenge : settings[limit].points;
      try {
        const { consumedPoints } = await run(() => limiterOf(limit).penalty(who, 1, windowSeconds ? { customDuration: windowSeconds } : {}));
        return { within: consumedPoints <= points, last: consumedPoints === points };
      } catch (error) {
        throw fault(error);
      }
    },
  };
}
