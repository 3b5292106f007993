// The rate-limit classes (docs/operations.md, "Rate limits and proxy trust"), counted by
// rate-limiter-flexible in Redis, shared by every process, or in memory for the demo.
// Over a limit: 429 rate_limited with Retry-After; a counter Redis cannot reach: 503. The
// library is Signet's only counter: every count with a window (a class, a challenge's failed
// signatures) is its consume, get or penalty, with its own scripts and keys.
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { refuse, type SignetError } from '../../base/errors.js';
import type { RateLimitSettings } from '../../config/config.js';
import { keys } from '../store/keys.js';
import { luaScriptOf, readLuaScripts } from '../store/lua_scripts.js';
import type { RedisStore } from '../store/redis_store.js';
import type { Store } from '../store/store.js';

/**
 * The classes counted by window (`failedSignaturesPerChallenge` is counted with its challenge:
 * src/domain/wallet/verify_challenge.ts; `backchannelPendingPerIdentity` is a bound on an inbox:
 * src/features/ciba/ciba_settings.ts).
 */
export type LimitClass = Exclude<keyof RateLimitSettings, 'failedSignaturesPerChallenge' | 'backchannelPendingPerIdentity'>;

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
  registrationsPerAddress: 'client registrations from one address',
  authorizationsPerAddress: 'authorization requests from one address',
  pushedRequestsPerAddress: 'pushed authorization requests from one address',
  backchannelStartsPerAddress: 'backchannel login requests from one address',
  backchannelStartsPerClient: 'backchannel login requests from one client',
  backchannelStartsPerIdentity: 'backchannel login requests for one identity',
  grantAttemptsPerAddress: 'validations, revocations and approvals from one address',
  grantAttemptsPerGrant: 'validations, revocations or approvals of one grant or request',
};

export type RateLimits = {
  /** Counts one request of `who`; throws 429 rate_limited once the class's limit is passed. */
  consume(limit: LimitClass, who: string): Promise<void>;
  /**
   * Counts one request of each pair as consecutive `consume` calls would: the first over its
   * limit throws 429 and the pairs after it are not counted (counted together, then given back).
   */
  consumeAll(counts: readonly (readonly [LimitClass, string])[]): Promise<void>;
  /** Throws 429 if `who` is already over the limit, without counting it. */
  check(limit: LimitClass, who: string): Promise<void>;
  /**
   * Counts one attempt of `who` without refusing: `within` up to the limit, `last` at exactly it.
   */
  count(limit: LimitClass, who: string): Promise<{ within: boolean; last: boolean }>;
};

const isRedis = (store: Store): store is RedisStore => store.kind === 'redis' && 'client' in store;

// The library's count, handed to it as its customIncrTtlLuaScript (scripts/count_attempt.lua).
export const RATE_LIMIT_SCRIPTS = readLuaScripts(new URL('./scripts/', import.meta.url), { 'count_attempt.lua': { numberOfKeys: 1 } });
const COUNT = luaScriptOf(RATE_LIMIT_SCRIPTS, 'count_attempt.lua').lua;

function refusal(limit: LimitClass, settings: RateLimitSettings, msBeforeNext: number): SignetError {
  const { points, seconds } = settings[limit];
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return refuse('rate_limited', `at most ${points} ${counted[limit]} every ${seconds} s; try again in ${retryAfterSeconds} s`, { retryAfterSeconds });
}

/** Builds one limiter per class on the store's backend. */
export function createRateLimits(store: Store, settings: RateLimitSettings): RateLimits {
  const limiterFor = (name: string, points: number, duration: number): RateLimiterAbstract => {
    const options = { keyPrefix: keys.rateLimitPrefix(name), points, duration };
    // On the store's own client, so the limits fail (503) exactly as fast as the store does.
    return isRedis(store) ? new RateLimiterRedis({ ...options, storeClient: store.client, customIncrTtlLuaScript: COUNT }) : new RateLimiterMemory(options);
  };
  const limiters = new Map<string, RateLimiterAbstract>();
  for (const name of Object.keys(counted) as LimitClass[]) {
    limiters.set(name, limiterFor(name, settings[name].points, settings[name].seconds));
  }
  const limiterOf = (name: string) => limiters.get(name)!;

  // On Redis, every counter command runs under the store's guard (src/infra/store/redis_guard.ts: first
  // connection, deadline, an outage answered 503 store_unavailable) on the store's connection.
  const run = <T>(work: () => Promise<T>): Promise<T> => (isRedis(store) ? store.guarded(work) : work());

  const consume = async (limit: LimitClass, who: string) => {
    try {
      await run(() => limiterOf(limit).consume(who));
    } catch (outcome) {
      // The library rejects with its RateLimiterRes when over the limit, with the error otherwise.
      if (outcome instanceof RateLimiterRes) throw refusal(limit, settings, outcome.msBeforeNext);
      throw outcome;
    }
  };

  return {
    consume,

    // All at once (one round trip on one Redis server, where the connection auto-pipelines
    // commands sent together; one per counter on a Cluster or behind Sentinels, where it does
    // not), then the pairs after the first refused one are given their point back, so the count
    // ends as one consume after the other would leave it: the first over its limit stops the rest.
    async consumeAll(counts) {
      const outcomes = await Promise.allSettled(counts.map(([limit, who]) => consume(limit, who)));
      const first = outcomes.findIndex((outcome) => outcome.status === 'rejected');
      if (first === -1) return;
      await Promise.all(counts.slice(first + 1).map(([limit, who]) => run(() => limiterOf(limit).reward(who, 1))));
      throw (outcomes[first] as PromiseRejectedResult).reason;
    },

    async check(limit, who) {
      const limiter = limiterOf(limit);
      // Within the limit (nearly always) the count alone answers: one GET of the library's own
      // key. Its time left, for Retry-After, is read only when over.
      if (isRedis(store)) {
        const consumed = Number((await run(() => store.client.get(limiter.getKey(who)))) ?? 0);
        if (consumed < settings[limit].points) return;
      }
      const current = await run(() => limiter.get(who));
      if (current && current.consumedPoints >= settings[limit].points) throw refusal(limit, settings, current.msBeforeNext);
    },

    async count(limit, who) {
      const { points } = settings[limit];
      const { consumedPoints } = await run(() => limiterOf(limit).penalty(who, 1));
      return { within: consumedPoints <= points, last: consumedPoints === points };
    },
  };
}
