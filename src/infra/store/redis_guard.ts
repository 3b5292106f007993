// The one guard every Redis call of a request goes through (the store, the rate limits, the
// webhook queue): wait for the client's first connection, give each call a deadline, and tell
// an outage (503 store_unavailable, try again) from a bug (the error itself, a logged 500).
import { refuse, SignetError } from '../../base/errors.js';
import { firstConnection, type RedisClient } from './redis_connection.js';

/**
 * Fails `work` if it has not settled `ms` after it started. When the timer fires the verdict
 * waits one more turn of the event loop: after a stretch of busy CPU the timer runs before the
 * socket is read, and a reply that did arrive in time must not count as an outage. A failure is
 * passed through `failed` (what the caller makes of it) on its way out.
 */
function withDeadline<T>(work: Promise<T>, ms: number, failed: (error: unknown) => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      setImmediate(() => {
        if (!settled) reject(failed(new Error(`Redis did not answer within ${ms} ms`)));
      });
    }, ms);
    work.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(failed(error));
      },
    );
  });
}

/** An answer from Redis that means it cannot serve now, not that the command was wrong. */
const OUTAGE_REPLIES = /^(LOADING|BUSY|MASTERDOWN|READONLY|TRYAGAIN|CLUSTERDOWN|OOM|NOREPLICAS)\b/;

/** JavaScript's own errors: Signet's code went wrong, whatever state Redis is in. */
const CODE_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError];

/**
 * Whether `error` means Redis cannot serve now: the connection is down or closed, the deadline
 * passed, or Redis answered that it is unwell (loading, read-only, a cluster without quorum…).
 * A reply error that is none of those (ERR in a script, WRONGTYPE, a NOSCRIPT the client could
 * not retry) is Redis refusing a wrong command: a bug, not an outage.
 */
export function isRedisOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ReplyError') return OUTAGE_REPLIES.test(error.message);
  return !CODE_ERRORS.some((kind) => error instanceof kind);
}

export function storeUnavailable(cause: unknown): SignetError {
  return refuse('store_unavailable', 'the store (Redis) is unreachable: try again in a moment', { cause, retryAfterSeconds: 1 });
}

export type RedisGuardOptions = {
  /** A call without an answer after this long is an outage. */
  commandTimeoutMs: number;
  /** How long the first calls wait for the client's first connection (default commandTimeoutMs). */
  firstConnectionMs?: number;
  /** Told of each call refused as an outage (the metrics count them). */
  onOutage?: () => void;
};

export type RedisGuard = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Runs calls on `client` under the rules above. Without an offline queue a command sent before
 * the first connection would fail: the very first calls wait for it; later outages fail fast.
 * A SignetError thrown inside passes as it is (an outage named there, too few replicas for a
 * WAIT, is counted as one).
 */
export function redisGuard(client: RedisClient, options: RedisGuardOptions): RedisGuard {
  const waitForFirstConnection = firstConnection(client);
  const { commandTimeoutMs, firstConnectionMs = commandTimeoutMs } = options;
  /** What a failed call throws: an outage as 503 store_unavailable (counted), anything else as it is. */
  const failed = (error: unknown): unknown => {
    const named = error instanceof SignetError;
    if (named ? error.reason !== 'store_unavailable' : !isRedisOutage(error)) return error;
    options.onOutage?.();
    return named ? error : storeUnavailable(error);
  };
  const run = <T>(work: () => Promise<T>): Promise<T> => {
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      return Promise.reject(failed(error));
    }
    return withDeadline(running, commandTimeoutMs, failed);
  };
  return (work) => {
    // Once the first connection has come (nearly always), no step of the guard's own: every
    // Redis call goes through here, and each async step is promises made at every call.
    if (waitForFirstConnection.done()) return run(work);
    return waitForFirstConnection(firstConnectionMs).then(() => run(work));
  };
}
