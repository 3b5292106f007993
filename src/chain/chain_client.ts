// The viem clients Signet reads and writes the chain with. Every RPC call is bounded twice:
// by a short per-call timeout (background work included) and by the running request's
// chain budget (chain_deadline.ts), whichever ends first; a refused or failed call is not
// retried, since an answer within the deadline is worth more than a late success.
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { chainBudgetDeadline } from './chain_deadline.js';
import { rpcFetch } from './rpc_fetch.js';

/** Per-call timeout when none is configured (CHAIN_CALL_TIMEOUT_MS). */
const DEFAULT_CALL_TIMEOUT_MS = 5000;

export function chainDefinition(chainId: number, rpcUrl: string) {
  return defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * An RPC call (rpc_fetch.ts) that ends at its own timeout or when the running request's chain
 * budget is spent, whichever comes first: one deadline, one timer. viem's transport keeps no
 * timeout of its own (0), which spares each call viem's timer and the HTTP request a signal.
 */
const fetchWithin =
  (callTimeoutMs: number): typeof fetch =>
  (input, init) => {
    const callEnd = Date.now() + callTimeoutMs;
    const budgetEnd = chainBudgetDeadline();
    return rpcFetch(input, init, budgetEnd === undefined ? callEnd : Math.min(callEnd, budgetEnd));
  };

function chainTransport(rpcUrl: string, callTimeoutMs = DEFAULT_CALL_TIMEOUT_MS, observe?: (fetchFn: typeof fetch) => typeof fetch): Transport {
  const fetchFn = fetchWithin(callTimeoutMs);
  return http(rpcUrl, { retryCount: 0, timeout: 0, fetchFn: observe ? observe(fetchFn) : fetchFn });
}

export function createChainClient(
  rpcUrl: string,
  chainId: number,
  /** observe: wraps each RPC fetch (the metrics time and count the calls). */
  options: { pollingInterval?: number; callTimeoutMs?: number; observe?: (fetchFn: typeof fetch) => typeof fetch } = {},
): PublicClient {
  return createPublicClient({
    chain: chainDefinition(chainId, rpcUrl),
    transport: chainTransport(rpcUrl, options.callTimeoutMs, options.observe),
    pollingInterval: options.pollingInterval ?? 1000,
    // No CCIP-Read (EIP-3668): a contract's OffchainLookup revert would have Signet fetch any URL
    // that contract names, outside the chain's deadline. ONCHAINID needs none; the revert stays a revert.
    ccipRead: false,
  }) as PublicClient;
}

/** Sends transactions signed by `account` through the public client's RPC (and its bounds). */
export function createSendingClient(client: PublicClient, account: Account): WalletClient<Transport, Chain, Account> {
  return createWalletClient({ account, chain: client.chain!, transport: custom({ request: client.request }, { retryCount: 0 }) });
}
