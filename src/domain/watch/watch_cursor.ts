// The chain watcher's cursor (keys.watchCursor): the last block whose events were all handled.
// It only moves forward from the value it was read at (compare-and-set), so a process that lost
// the lease mid-round cannot move it back over the new holder's progress.
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type WatchCursor = {
  /** The last block fully handled; at the very first start, `head` (history is not scanned). */
  readOrStart(head: bigint): Promise<bigint>;
  /** Moves from `from` to `to`; false when it no longer read `from` (another process moved it). */
  advance(from: bigint, to: bigint): Promise<boolean>;
};

/** chainId: the cursor of another chain than the default one (one cursor per chain). */
export function createWatchCursor(store: Store, chainId?: number): WatchCursor {
  const key = keys.watchCursor(chainId);
  return {
    async readOrStart(head) {
      const stored = await store.get(key);
      if (stored !== undefined) return BigInt(stored);
      if (await store.setIfAbsent(key, String(head))) return head;
      return BigInt((await store.get(key)) ?? String(head));
    },
    async advance(from, to) {
      return (await store.compareAndSet(key, [String(from)], String(to))).swapped;
    },
  };
}
