// The storage operations Signet needs, small enough to have two faithful backends:
// Redis (production, tests) and memory (the demo without REDIS_URL).

/** What markOnce decided: this caller's mark took effect, another's had, or the record is gone. */
export type MarkOutcome = 'marked' | 'already_marked' | 'missing';

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
  /**
   * Lists a member in an index for ttlSeconds from now (0: until removed); listing it again
   * re-times it, longer or shorter. A member whose time has passed is dropped (on the next
   * write or read of the index) and never listed; the index expires with its latest member,
   * and never while it holds one listed until removed. (Redis: a sorted set scored by the
   * epoch ms each member is listed until, on the server's clock.) With `onlyLater`, a listing
   * only ever moves later: a member already listed longer (or until removed) keeps its time.
   */
  addToIndex(key: string, member: string, ttlSeconds: number, options?: { onlyLater?: boolean }): Promise<void>;
  /**
   * addToIndex (never only later), unless the index already lists `max` other members: false
   * then, and nothing written. One atomic step: of many at once, at most `max` are listed.
   */
  addToIndexWithin(key: string, member: string, ttlSeconds: number, max: number): Promise<boolean>;
  /**
   * addToIndexWithin over several indexes in one atomic step (on a cluster they share a hash
   * slot): the member joins every one, unless one of them already lists its `max` other
   * members; then nothing is written and the answer is that index's key (the first such, in
   * the order given). Undefined when the member was listed.
   */
  addToIndexesWithin(bounds: readonly { key: string; max: number }[], member: string, ttlSeconds: number): Promise<string | undefined>;
  /** The members still listed. */
  indexMembers(key: string): Promise<string[]>;
  /** Removes members from an index; the index then expires with its latest remaining member, and goes with its last. */
  removeFromIndex(key: string, ...members: string[]): Promise<void>;
  /**
   * Sets `next` only if the key now holds one of `expected`, atomically: the state-machine step.
   * The key keeps its TTL, or with ttlSeconds gets that life from now (0: no expiry).
   */
  compareAndSet(key: string, expected: readonly string[], next: string, ttlSeconds?: number): Promise<{ swapped: boolean; current?: string }>;
  /** Reads several keys in one round trip; a missing key reads as undefined. */
  getMany(keys: readonly string[]): Promise<(string | undefined)[]>;
  /**
   * Follows a lookup (a key holding an id) and reads the keys `keysOf(id)` names, as one read
   * (Redis: one script on a server; a cluster, where they live in other slots, reads the lookup
   * first). Undefined when the lookup is missing; else the id and a value (or undefined) per key.
   * `keysOf` must place the id the same way for any id (it is called with a placeholder).
   */
  getViaLookup(lookupKey: string, keysOf: (id: string) => string[]): Promise<{ id: string; values: (string | undefined)[] } | undefined>;
  /**
   * Writes a record and what moves with it in one atomic step (Redis: one script, one round
   * trip). Nothing is written, and false returned, while `write.unless` exists.
   */
  putRecord(write: RecordWrite): Promise<boolean>;
  /**
   * The single-use decision, atomic: sets `markKey` to `value`, expiring with `recordKey`, only
   * if the record exists and is not marked yet. Of many concurrent callers one gets 'marked'.
   * With `keep`, the mark that takes effect also cuts what is left of the record's (and so the
   * mark's) life to keep.seconds, and re-times the record's member of keep.index to match
   * (never later than it was). With keep.bounded too, a record still listed in keep.index joins
   * that bounded index for keep.seconds, as a written record joins RecordWrite.bounded (its
   * evicted members leave keep.index as well). The bound may be applied a moment after the
   * mark (Redis Cluster: the index is in another slot).
   */
  markOnce(recordKey: string, markKey: string, value: string, keep?: { seconds: number; index?: string; bounded?: BoundedIndex }): Promise<MarkOutcome>;
  /**
   * Reads a record and its mark as one read and, when the record exists unmarked and its JSON's
   * `only.field` equals `only.equals`, counts one more attempt on `counterKey` in the same atomic
   * step. The counter dies with the record (or after `fallbackSeconds` if the record never
   * expires), so nothing is counted for a record that does not exist and nothing outlives it.
   * `attempts` is 0 when nothing was counted.
   */
  readCountingAttempt(
    recordKey: string,
    markKey: string,
    counterKey: string,
    only: { field: string; equals: string; fallbackSeconds: number },
  ): Promise<{ record?: string; mark?: string; attempts: number }>;
  /**
   * Closes indexes for good, atomically: sets `tombstoneKey` (which putRecord's `unless`
   * honours) for ttlSeconds, deletes the indexes and returns the members they held (each once).
   * The indexes share the tombstone's hash tag.
   */
  closeIndexes(indexKeys: readonly string[], tombstoneKey: string, ttlSeconds: number): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A record with its satellites: the keys cleared, the lookups that point at it, its indexes. */
export type RecordWrite = {
  key: string;
  value: string;
  /** Omitted or 0: the record never expires. */
  ttlSeconds?: number;
  /** A key whose presence forbids the write (a revoked grant's tombstone). */
  unless?: string;
  /** Deleted with the write (the consumed mark of an earlier save). */
  clear?: readonly string[];
  /** Lookups set to a value with the record's TTL (uid -> id, user code -> id). */
  aliases?: readonly { key: string; value: string }[];
  /** Indexes the record's key joins, as addToIndex would: listed as long as the record lives. */
  indexes?: readonly string[];
  /**
   * An index the record's key joins as it joins `indexes`, that lists at most `atMost` members:
   * past it, the members that leave soonest (the oldest, among records of one life), never the
   * record written, are removed from it and from `indexes`, and their records deleted with their
   * marks, before the write returns. Where the backend has one atomic step (a script on one
   * server, the memory store) no reader ever sees more than `atMost` of them; on Redis Cluster
   * the index's slot decides, and the new record, not yet known to any client, is in Redis
   * beside the evicted ones until they are deleted.
   */
  bounded?: BoundedIndex;
};

/** An index that lists at most `atMost` records (see RecordWrite.bounded). */
export type BoundedIndex = {
  key: string;
  atMost: number;
  /** Suffixes of the keys that go with an evicted record (`:consumed`: its mark). */
  marks?: readonly string[];
};
