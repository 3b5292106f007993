// The viem clients Signet reads and writes the chain with, over the chain's RPC endpoints
// (rpc_endpoints.ts: the first that is up, the next on a failure). Every RPC call is bounded
// twice: by a per-call timeout (background work included) and by the running request's chain
// budget (chain_deadline.ts), whichever ends first. A call is not retried on the endpoint that
// failed it, since an answer within the deadline is worth more than a late success.
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { defaultNumber } from '../../config/config.js';
import type { Logger } from '../observability/logger.js';
import { createRpcEndpoints, type EndpointSetting, endpointLabel, type RpcEndpoints, type RpcEndpointsOptions } from './rpc_endpoints.js';

/** Per-call timeout when none is configured (CHAIN_CALL_TIMEOUT_MS). */
const DEFAULT_CALL_TIMEOUT_MS = defaultNumber('chainTimeouts.callMs');
/** How often a failed endpoint is asked again when none is configured (CHAIN_RPC_PROBE_MS). */
const DEFAULT_PROBE_MS = defaultNumber('chainTimeouts.probeMs');

export function chainDefinition(chainId: number, rpcUrl: string) {
  return defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export type ChainClientOptions = {
  pollingInterval?: number;
  callTimeoutMs?: number;
  probeMs?: number;
  /** Wraps each RPC fetch (the metrics time and count the calls by method). */
  observe?: (fetchFn: typeof fetch) => typeof fetch;
  logger?: Logger;
  onAttempt?: RpcEndpointsOptions['onAttempt'];
  onState?: RpcEndpointsOptions['onState'];
};

/** A chain's client and the endpoints under it (their state for /admin/readiness, the watcher's range). */
export type ChainAccess = { client: PublicClient; endpoints: RpcEndpoints };

export function createChainAccess(endpointSettings: readonly EndpointSetting[], chainId: number, options: ChainClientOptions = {}): ChainAccess {
  const endpoints = createRpcEndpoints(endpointSettings, {
    chainId,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    probeMs: options.probeMs ?? DEFAULT_PROBE_MS,
    observe: options.observe,
    logger: options.logger,
    onAttempt: options.onAttempt,
    onState: options.onState,
  });
  const client = createPublicClient({
    // The chain's own URL is never used to send (the transport does); it names the first endpoint's host.
    chain: chainDefinition(chainId, `http://${endpoints.labels[0]}`),
    transport: custom({ request: endpoints.request }, { retryCount: 0 }),
    pollingInterval: options.pollingInterval ?? 1000,
    // No CCIP-Read (EIP-3668): a contract's OffchainLookup revert would have Signet fetch any URL
    // that contract names, outside the chain's deadline. ONCHAINID needs none; the revert stays a revert.
    ccipRead: false,
  }) as PublicClient;
  return { client, endpoints };
}

/** A client over one endpoint. */
export function createChainClient(rpcUrl: string, chainId: number, options: ChainClientOptions = {}): PublicClient {
  return createChainAccess([{ url: rpcUrl, label: endpointLabel(rpcUrl) }], chainId, options).client;
}

/** Sends transactions signed by `account` through the public client's RPC (and its bounds). */
export function createSendingClient(client: PublicClient, account: Account): WalletClient<Transport, Chain, Account> {
  return createWalletClient({ account, chain: client.chain!, transport: custom({ request: client.request }, { retryCount: 0 }) });
}
