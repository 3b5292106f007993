// The viem public client Signet reads the chain with (and verifies signatures through).
import { createPublicClient, defineChain, http, type PublicClient } from 'viem';

export function chainDefinition(chainId: number, rpcUrl: string) {
  return defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function createChainClient(rpcUrl: string, chainId: number, pollingInterval = 1000): PublicClient {
  return createPublicClient({
    chain: chainDefinition(chainId, rpcUrl),
    transport: http(rpcUrl, { retryCount: 1, timeout: 10_000 }),
    pollingInterval,
  }) as PublicClient;
}
