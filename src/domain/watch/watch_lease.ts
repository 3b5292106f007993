// The lease that makes one process at a time follow the chain: a key holding the holder's id
// with a short TTL (keys.watchLease), taken when absent and renewed by its holder each round.
// A holder that dies stops renewing; another process takes the lease once its TTL runs out.
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type WatchLease = {
  /** Renews the lease if this process holds it, else takes it if nobody does; true when held. */
  hold(): Promise<boolean>;
  /** Lets another process take over within a second (a clean stop); a no-op if not held. */
  release(): Promise<void>;
};

/** chainId: the lease of another chain than the default one (one lease per chain). */
export function createWatchLease(store: Store, holder: string, seconds: number, chainId?: number): WatchLease {
  const key = keys.watchLease(chainId);
  return {
    async hold() {
      // Renewal is a compare-and-set on our own id: a lease another process took is never touched.
      if ((await store.compareAndSet(key, [holder], holder, seconds)).swapped) return true;
      return store.setIfAbsent(key, holder, seconds);
    },
    async release() {
      // Kept one more second rather than deleted: deleting could remove a lease taken meanwhile.
      await store.compareAndSet(key, [holder], holder, 1);
    },
  };
}
