// What stands in a log line for a personal value an operator must correlate (an identity, a
// wallet): a keyed hash, HMAC-SHA256 under LOG_HASH_KEY, cut to 16 hex digits. The same value
// gives the same hash in every process that shares the key, so lines can be joined; without
// the key nobody can test a guessed address against the log. Without LOG_HASH_KEY each process
// draws its own key (one per process, shared by all its parts): hashes then match only within it.
import { createHmac, randomBytes } from 'node:crypto';

export type LogHash = (value: string) => string;

const PROCESS_KEY = randomBytes(32);

/** The keyed hash of `key` (the per-process random key when unset); addresses hash case-blind. */
export function createLogHash(key?: string): LogHash {
  const secret = key ? Buffer.from(key, 'utf8') : PROCESS_KEY;
  return (value) => createHmac('sha256', secret).update(value.toLowerCase()).digest('hex').slice(0, 16);
}
