// The identities whose consents the chain watcher follows: each listed from the moment one of
// its grants starts (a login's consent, an access grant's validation) until its latest grant
// ends. One index per chain (keys.watchedIdentities): that chain's watcher reads it each round,
// and the addresses in it are the address filter of its eth_getLogs. An address on two chains
// is two identities, followed each on its own chain.
//
// Members: `<identity>` for grants with an end (listed until the latest of them; a shorter one
// never shortens it), and `<identity>:<grantId>` for each lasting access grant (listed until
// that grant ends, whatever the identity's other grants do).
import { type Address, getAddress } from 'viem';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type Watchlist = {
  /**
   * Lists the identity until `untilMs` (epoch ms); with 0, until removed (a lasting grant:
   * give its id, so that its end removes its own listing only, see `ended`).
   */
  watch(identity: Address, untilMs: number, grantId?: string): Promise<void>;
  /** A lasting grant ended: its listing goes (the identity stays listed for its other grants). */
  ended(identity: Address, grantId: string): Promise<void>;
  /** Stops following the identity altogether (its data erased). */
  unwatch(identity: Address): Promise<void>;
  /** The identities listed now, checksummed, each once. */
  identities(): Promise<Address[]>;
};

/** An address is 42 characters; a lasting grant's member follows it with `:<grantId>`. */
const identityOf = (member: string) => member.slice(0, 42) as Address;

/** The watchlist of one chain (`chainId`: another than the default one). */
export function createWatchlist(store: Store, now: () => number, chainId?: number): Watchlist {
  const key = keys.watchedIdentities(chainId);
  return {
    async watch(identity, untilMs, grantId) {
      const listed = getAddress(identity);
      if (untilMs === 0) {
        await store.addToIndex(key, grantId ? `${listed}:${grantId}` : listed, 0);
        return;
      }
      await store.addToIndex(key, listed, Math.max(1, Math.ceil((untilMs - now()) / 1000)), { onlyLater: true });
    },
    ended: (identity, grantId) => store.removeFromIndex(key, `${getAddress(identity)}:${grantId}`),
    async unwatch(identity) {
      const listed = getAddress(identity);
      const members = (await store.indexMembers(key)).filter((member) => identityOf(member) === listed);
      await store.removeFromIndex(key, ...members);
    },
    identities: async () => [...new Set((await store.indexMembers(key)).map(identityOf))],
  };
}

/** Each chain's watchlist, by chain id (undefined: the default chain's). */
export type Watchlists = (chainId?: number) => Watchlist;

/** `defaultChainId`: the chain whose watchlist's key names no chain (src/infra/chain/chains.ts). */
export function createWatchlists(store: Store, now: () => number, defaultChainId: number): Watchlists {
  const unnamed = createWatchlist(store, now);
  // A watchlist holds nothing but its key's name: another chain's is made when asked for.
  return (chainId) => (chainId === undefined || chainId === defaultChainId ? unnamed : createWatchlist(store, now, chainId));
}
