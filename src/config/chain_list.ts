// The one-chain shorthand (CHAIN_RPC_URL or CHAIN_RPC_URLS, CHAIN_ID, IDENTITY_FACTORY) read as
// a one-entry CHAINS list, once the checks have run: after loading, every chain is an entry of
// `chains`, whichever way the settings named it.
import type { ChainSetting, Config, SettingsAsRead } from './schema.js';

/** The settings with every chain in `chains` (none: the embedded chain of the demo). */
export function withChainList({ chain, chains, ...rest }: SettingsAsRead): Config {
  return { ...rest, chains: chains ?? shorthandEntry(chain) };
}

function shorthandEntry({ rpcUrl, rpcUrls, chainId, identityFactory }: SettingsAsRead['chain']): ChainSetting[] {
  if ((!rpcUrl && !rpcUrls) || !chainId || !identityFactory) return [];
  const endpoints = rpcUrls ? { rpc_urls: rpcUrls } : { rpc_url: rpcUrl };
  return [{ chain_id: chainId, name: `chain ${chainId}`, ...endpoints, identity_factory: identityFactory }];
}
