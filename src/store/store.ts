// The storage operations Signet needs, small enough to have two faithful backends:
// Redis (production, tests) and memory (the demo without REDIS_URL).

export interface Store {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | undefined>;
  /** Sets a value; with ttlSeconds the key expires. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets only when the key is absent; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds?: number): Promise<boolean>;
  /** Reads and deletes in one atomic step: of many concurrent takers, one gets the value. */
  take(key: string): Promise<string | undefined>;
  delete(...keys: string[]): Promise<void>;
  /** Seconds left: undefined for a missing key, Infinity for one that never expires. */
  ttl(key: string): Promise<number | undefined>;
  /** Adds a member to a set whose expiry is raised to ttlSeconds (0: never expires) but never shortened. */
  addToIndex(key: string, member: string, ttlSeconds: number): Promise<void>;
  indexMembers(key: string): Promise<string[]>;
  /** Adds one and returns the new count, atomically; a new counter expires after ttlSeconds. */
  increment(key: string, ttlSeconds: number): Promise<number>;
  /** Sets `next` only if the key now holds one of `expected`, atomically: the state-machine step. */
  compareAndSet(key: string, expected: readonly string[], next: string): Promise<{ swapped: boolean; current?: string }>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
