// How the store's times and bounds go to its scripts: whole seconds, at least one (a TTL of a
// fraction of a second still expires), '0' for no expiry or no bound.
import type { BoundedIndex, RecordWrite } from './store.js';

export const seconds = (ttl: number) => Math.max(1, Math.ceil(ttl));

/** A record's ttl argument: its whole seconds, '0' for none. */
export const ttlArg = (write: RecordWrite) => String(write.ttlSeconds && write.ttlSeconds > 0 ? seconds(write.ttlSeconds) : 0);

/** A bounded index's script arguments: its bound (0: none), then its marks' suffixes. */
export const boundArgs = (bounded: BoundedIndex | undefined) => (bounded ? [String(bounded.atMost), ...(bounded.marks ?? [])] : ['0']);
