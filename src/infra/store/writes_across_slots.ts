// On a Redis Cluster a script touches one hash slot, and some steps' keys cannot share one: a
// record and its grant's index and lookups, the records a bound evicts, a consumed record and its
// grant's index. These steps are split across slots here, in an order that keeps their guarantee.
import { bySlot, slotGroup } from './redis_connection.js';
import type { ReplicatedWrite } from './replicated_write.js';
import { boundArgs, ttlArg } from './script_args.js';
import type { BoundedIndex, MarkOutcome, RecordWrite } from './store.js';
import type { ScriptedRedis } from './store_scripts.js';

export type WritesAcrossSlots = {
  putRecordAcrossSlots(write: RecordWrite): Promise<boolean>;
  /** markOnce with an index (and perhaps a bound) in the grant's slot: keepMs as the script takes it. */
  markOnceAcrossSlots(recordKey: string, markKey: string, value: string, keepMs: string, keep: { index: string; bounded?: BoundedIndex }): Promise<MarkOutcome>;
};

/** `onRefused`: a step left to run after the answer failed (the metrics count it as a refused command). */
export function createWritesAcrossSlots(redis: ScriptedRedis, replicated: ReplicatedWrite, onRefused: () => void): WritesAcrossSlots {
  /** The records a bound evicted (in their own slots) and their marks: one DEL per slot, all at once. */
  const deleteEvicted = async (evicted: readonly string[], bounded: BoundedIndex) => {
    if (!evicted.length) return;
    const doomed = evicted.flatMap((record) => [record, ...(bounded.marks ?? []).map((suffix) => record + suffix)]);
    await Promise.all(bySlot(doomed).map((group) => replicated('del', ...group)));
  };

  /**
   * putRecord on a cluster, where a record, its grant's index and its lookups live in different
   * slots. The record (with the keys it clears, which share its tag) is written first; then its
   * indexes, refused while the tombstone exists (tombstone and indexes share the grant's tag).
   * A refusal deletes the record again. A revocation between the two steps either finds the
   * record in the index and deletes it, or leaves the tombstone that refuses the index and
   * makes this write delete it: no record of a revoked grant survives. The record's id is not
   * yet known to any client while this runs, so the moment it exists unindexed is harmless.
   * Lookups (uid, user code) are written last: they point at a record that exists.
   * With a bounded index (which shares the tombstone's and the indexes' tag), the index join
   * decides the bound in the index's slot, and the records it evicts are deleted before this
   * returns: the new record, which no client knows yet, is handed out only once they are gone.
   */
  const putRecordAcrossSlots = async (write: RecordWrite): Promise<boolean> => {
    const ttl = ttlArg(write);
    const clear = write.clear ?? [];
    const strays = clear.filter((key) => slotGroup(key) !== slotGroup(write.key));
    if (strays.length) throw new Error(`putRecord: ${strays.join(', ')} must share the hash tag of ${write.key}`);
    const recordKeys = [write.key, write.key, ...clear];
    await redis.putRecord(recordKeys.length, ...recordKeys, write.value, ttl, '0', String(clear.length), '0', '0', '0');
    const indexes = write.indexes ?? [];
    const { bounded } = write;
    const together = [...(write.unless ? [write.unless] : []), ...indexes, ...(bounded ? [bounded.key] : [])];
    if (bounded && bySlot(together).length > 1) throw new Error(`putRecord: ${together.join(', ')} must share one hash tag`);
    let joined = 1;
    let evicted: string[] = [];
    try {
      if (write.unless || bounded) {
        [joined, ...evicted] = await redis.addToIndexesUnless(together.length, ...together, write.key, ttl, write.unless ? '1' : '0', ...boundArgs(bounded));
      } else await Promise.all(indexes.map((index) => redis.addToIndexes(1, index, write.key, ttl, '0')));
    } catch (error) {
      // The grant's master failed: the request fails, and the record, which no client has
      // seen, is removed if its own master still answers (else it expires unused).
      await redis.del(write.key, ...clear).catch(() => {});
      throw error;
    }
    if (joined !== 1) {
      await redis.del(write.key, ...clear);
      return false;
    }
    // A failure here fails the request (the new record is never handed out, and counts in the
    // bound until it expires); an evicted record left behind is no longer listed and lives out
    // its own life.
    if (bounded) await deleteEvicted(evicted, bounded);
    await Promise.all(
      (write.aliases ?? []).map((alias) => (ttl === '0' ? redis.set(alias.key, alias.value) : redis.set(alias.key, alias.value, 'EX', Number(ttl)))),
    );
    return true;
  };

  /**
   * The index is in the grant's slot, on another node. Only the winner re-times its member,
   * after the mark and without waiting: the losers of a race must not queue on the grant's node
   * ahead of it (they go on to revoke the grant), and a re-timing that fails only leaves the
   * member listed until its record's first life ends, as before the mark. It may only come
   * earlier (LT); the second more keeps the member listed past its record. The bound, too, comes
   * after the mark: it evicts from the grant's slot, then deletes the evicted records in theirs
   * (a consumed record only serves reuse detection).
   */
  const markOnceAcrossSlots: WritesAcrossSlots['markOnceAcrossSlots'] = async (recordKey, markKey, value, keepMs, keep) => {
    const bounded = keep.bounded ? [keep.bounded.key] : [];
    const bound = keep.bounded ? boundArgs(keep.bounded) : [];
    const outcome = await replicated<MarkOutcome>('markOnce', 2, recordKey, markKey, value, keepMs);
    if (outcome === 'marked') {
      redis
        .retimeMember(1 + bounded.length, keep.index, ...bounded, recordKey, String(Number(keepMs) + 1000), ...bound)
        .then((evicted) => (keep.bounded ? deleteEvicted(evicted, keep.bounded) : undefined))
        // The mark stands; a bound that fails leaves the records to their TTL, counted as a refused command.
        .catch(onRefused);
    }
    return outcome;
  };

  return { putRecordAcrossSlots, markOnceAcrossSlots };
}
