// The chains one Signet serves, by chain id: each with its own client (and so its own RPC
// node, deadline and failures), IdFactory and display name. One chain is the shorthand
// (CHAIN_RPC_URL, CHAIN_ID, IDENTITY_FACTORY); CHAINS lists several. The first is the chain a
// bare identity address means (docs/decisions.md, 33).
import type { Address, PublicClient } from 'viem';
import { refuse } from '../../base/errors.js';
import type { Config } from '../../config/config.js';
import { type IdentityKey, identityKeyOf } from './identity_key.js';
import { type EndpointSetting, endpointLabel, type RpcEndpoints } from './rpc_endpoints.js';
import type { SettledSetting } from './settled_point.js';

export type ChainDeps = {
  client: PublicClient;
  rpcUrl: string;
  /** The endpoints under the client, where Signet made it from settings (their state for /admin/readiness, the watcher's eth_getLogs range). */
  endpoints?: RpcEndpoints;
  /** When the watcher takes this chain's events as settled (CHAINS' own; else the setting for every chain, else the chain id's default). */
  confirmations?: SettledSetting;
  chainId: number;
  identityFactory: Address;
  /** What people read (default: "chain <id>"). */
  name?: string;
  /** Signet's own ClaimIssuer on this chain, when not at SIGNET_ISSUER_ADDRESS. */
  claimIssuer?: Address;
};

export type Chain = ChainDeps & {
  name: string;
  /**
   * How Redis keys name an identity of this chain: the first chain's by its address (as before
   * several chains), another's by its CAIP-10 id, so one address on two chains never shares a record.
   */
  identityKey(identity: Address): IdentityKey;
};

export type Chains = {
  /** In configured order; never empty. */
  readonly all: readonly Chain[];
  /** The chain a bare identity address means. */
  readonly first: Chain;
  /** More than one chain is served. */
  readonly several: boolean;
  get(chainId: number): Chain | undefined;
  /** The chain, or the refusal `chain_not_configured`. */
  require(chainId: number): Chain;
};

export function createChains(list: readonly ChainDeps[]): Chains {
  if (list.length === 0) throw new Error('createChains: at least one chain');
  const all: Chain[] = list.map((chain, i) => ({
    ...chain,
    name: chain.name ?? `chain ${chain.chainId}`,
    identityKey: i === 0 ? (identity: Address) => identity : (identity: Address) => identityKeyOf(identity, chain.chainId),
  }));
  const byId = new Map(all.map((chain) => [chain.chainId, chain]));
  return {
    all,
    first: all[0]!,
    several: all.length > 1,
    get: (chainId) => byId.get(chainId),
    require(chainId) {
      const chain = byId.get(chainId);
      if (!chain) throw refuse('chain_not_configured', `chain ${chainId} is not one this Signet serves`);
      return chain;
    },
  };
}

/** A configured chain, before its client exists. */
export type ConfiguredChain = {
  chainId: number;
  name: string;
  /** The first endpoint's URL (what sends the demo's transactions). */
  rpcUrl: string;
  /** Every endpoint, in order of preference, each with its label. */
  endpoints: EndpointSetting[];
  identityFactory: Address;
  claimIssuer?: Address;
  /** Set in CHAINS for this chain alone. */
  confirmations?: SettledSetting;
};

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

/** The chains the settings name: CHAINS, or the one-chain shorthand; none for the embedded chain. */
export function configuredChains(config: Pick<Config, 'chain' | 'chains'>): ConfiguredChain[] {
  if (config.chains) {
    return config.chains.map((chain) => {
      const endpoints = endpointsOf(chain.rpc_urls ?? (chain.rpc_url ? [chain.rpc_url] : []));
      return {
        chainId: chain.chain_id,
        name: chain.name,
        rpcUrl: endpoints[0]!.url,
        endpoints,
        identityFactory: chain.identity_factory,
        ...(chain.claim_issuer ? { claimIssuer: chain.claim_issuer } : {}),
        ...(chain.confirmations === undefined ? {} : { confirmations: chain.confirmations }),
      };
    });
  }
  const { rpcUrl, rpcUrls, chainId, identityFactory } = config.chain;
  const entries = rpcUrls ?? (rpcUrl ? [rpcUrl] : []);
  if (!entries.length || !chainId || !identityFactory) return [];
  const endpoints = endpointsOf(entries);
  return [{ chainId, name: `chain ${chainId}`, rpcUrl: endpoints[0]!.url, endpoints, identityFactory }];
}

/** Something built once per chain (its identity reads, its claims), found by chain id. */
export type OnChains<T> = {
  readonly all: readonly (T & { chain: Chain })[];
  /** The chain a bare identity address means. */
  readonly first: T & { chain: Chain };
  readonly several: boolean;
  get(chainId: number): (T & { chain: Chain }) | undefined;
  /** The chain's, or the refusal `chain_not_configured`. */
  require(chainId: number): T & { chain: Chain };
};

/** Each chain's parts, found by id; `require` refuses a chain not served as `served.require` does. */
function byChain<T>(all: (T & { chain: Chain })[], served: { several: boolean; require(chainId: number): unknown }): OnChains<T> {
  const byId = new Map(all.map((each) => [each.chain.chainId, each]));
  return {
    all,
    first: all[0]!,
    several: served.several,
    get: (chainId) => byId.get(chainId),
    require(chainId) {
      served.require(chainId);
      return byId.get(chainId)!;
    },
  };
}

export function onChains<T>(chains: Chains, build: (chain: Chain) => T): OnChains<T> {
  return byChain(
    chains.all.map((chain) => ({ ...build(chain), chain })),
    chains,
  );
}

/** Parts built once per chain from others built once per chain (each keeps its chain). */
export function onChainsFrom<T, U>(from: OnChains<T>, build: (each: T & { chain: Chain }) => U): OnChains<U> {
  return byChain(
    from.all.map((each) => ({ ...build(each), chain: each.chain })),
    from,
  );
}

/** The chain an owner's session, a request or a record names by `chain_id` (absent: the first chain): its parts. */
export function chainNamedBy<T>(onChain: OnChains<T>, named: { chain_id?: number }): T & { chain: Chain } {
  return named.chain_id === undefined ? onChain.first : onChain.require(named.chain_id);
}
