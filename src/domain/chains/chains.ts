// The chains one Signet serves, each built once at start with all its parts (chain.ts), found by
// chain id, and `named` for what a reference that names no chain means (the default chain).
import type { Config } from '../../config/config.js';
import { type ChainSet, chainSetOf, namingsOf } from '../../infra/chain/chains.js';
import { buildChain, type Chain, type ChainDeps, type ChainShared, signetIssuerOn } from './chain.js';

export type { Chain, ChainDeps };
export type Chains = ChainSet<Chain>;

export function createChains(
  list: readonly ChainDeps[],
  shared: Omit<ChainShared, 'several' | 'signetIssuers'> & { config: Pick<Config, 'claimIssuer'> },
): Chains {
  if (list.length === 0) throw new Error('createChains: at least one chain');
  const { claimIssuer } = shared.config;
  const signetIssuers = claimIssuer ? list.map(({ settings }) => signetIssuerOn(settings, claimIssuer)) : [];
  const namings = namingsOf(list.map(({ settings }) => settings.chain_id));
  return chainSetOf(list.map((deps, i) => buildChain(deps, namings[i]!, { ...shared, several: list.length > 1, signetIssuers })));
}
