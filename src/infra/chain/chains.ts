// The chains one Signet serves, as a set found by chain id, and how each names its identities
// and itself in what Signet keeps. Every chain is an entry of CHAINS (the one-chain shorthand is
// read as one, src/config/chain_list.ts). The default chain is the one a reference that names no
// chain means: a bare identity address in a path, a Redis key, a receipt or record without
// `chain_id`, a login_hint (docs/decisions.md, 33 and 84). `namingsOf` alone decides which it is.
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import type { ChainSetting } from '../../config/config.js';
import { type IdentityKey, identityKeyOf } from './identity_key.js';
import { type EndpointSetting, endpointLabel } from './rpc_endpoints.js';

/** How a chain names its identities, and itself, in Signet's keys, paths and records. */
export type ChainNaming = {
  /**
   * The chain id that records, receipts, sessions and key names carry for this chain; undefined
   * for the default chain, which they never name (as when Signet served one chain).
   */
  readonly idInRecords: number | undefined;
  /** An identity as Redis keys, paths and history name it: the default chain's by its bare address, another's by CAIP-10. */
  identityKey(identity: Address): IdentityKey;
};

/** Each chain's naming, in the order of CHAINS: the first listed is the default chain (decision 33). */
export function namingsOf(chainIds: readonly number[]): ChainNaming[] {
  return chainIds.map((chainId, i) =>
    i === 0
      ? { idInRecords: undefined, identityKey: (identity) => identity }
      : { idInRecords: chainId, identityKey: (identity) => identityKeyOf(identity, chainId) },
  );
}

/** What the set needs of each chain: its id, what people read, and its naming. */
export type ServedChain = ChainNaming & { readonly chainId: number; readonly name: string };

/** The chains served, in configured order, found by chain id. */
export type ChainSet<C extends ServedChain> = {
  /** In configured order; never empty. */
  readonly all: readonly C[];
  /** More than one chain is served. */
  readonly several: boolean;
  get(chainId: number): C | undefined;
  /** The chain, or the refusal `chain_not_configured`. */
  require(chainId: number): C;
  /** The chain a request, session or record names by chain id; none named: the default chain. */
  named(chainId: number | undefined): C;
  /** The chain id a reference means, unchecked: its own, or none named, the default chain's. */
  idOf(chainId: number | undefined): number;
  /** The same chains, each with more parts built once for it (a feature's own). */
  withParts<U>(build: (chain: C) => U): ChainSet<C & U>;
};

export function chainSetOf<C extends ServedChain>(all: readonly C[]): ChainSet<C> {
  const byId = new Map(all.map((chain) => [chain.chainId, chain]));
  const unnamed = all.find((chain) => chain.idInRecords === undefined);
  if (!unnamed) throw new Error('chainSetOf: no default chain');
  const require = (chainId: number) => {
    const chain = byId.get(chainId);
    if (!chain) throw refuse('chain_not_configured', `chain ${chainId} is not one this Signet serves`);
    return chain;
  };
  return {
    all,
    several: all.length > 1,
    get: (chainId) => byId.get(chainId),
    require,
    named: (chainId) => (chainId === undefined ? unnamed : require(chainId)),
    idOf: (chainId) => chainId ?? unnamed.chainId,
    withParts: (build) => chainSetOf(all.map((chain) => ({ ...chain, ...build(chain) }))),
  };
}

type EndpointEntry = string | { url: string; label?: string };

/** The endpoints as settings list them, each labelled: its own label, else its host (a host that repeats is numbered). */
export function endpointsOf(entries: readonly EndpointEntry[]): EndpointSetting[] {
  const labelled = entries.map((entry) => (typeof entry === 'string' ? { url: entry } : entry));
  const seen = new Map<string, number>();
  return labelled.map(({ url, label }) => {
    const base = endpointLabel(url, label);
    const times = (seen.get(base) ?? 0) + 1;
    seen.set(base, times);
    return { url, label: times === 1 ? base : `${base}#${times}` };
  });
}

/** A chain's endpoints as its CHAINS entry lists them (rpc_urls, or rpc_url alone). */
export const chainEndpointsOf = (setting: Pick<ChainSetting, 'rpc_url' | 'rpc_urls'>): EndpointSetting[] =>
  endpointsOf(setting.rpc_urls ?? (setting.rpc_url ? [setting.rpc_url] : []));
