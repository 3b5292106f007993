// Several contract reads in one chain round trip, through Multicall3 at its canonical address
// (deployed on nearly every EVM chain; the local anvil gets it at start). Where the chain has
// no contract there, the same reads go in one eth_call that carries Multicall3's code with it.
import { type Abi, type Address, BaseError, type PublicClient } from 'viem';
import { MULTICALL3_CREATION_CODE } from './multicall3_bytecode.js';

/** The address Multicall3 has on every chain it is deployed on (deterministic deployment). */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export type ContractRead = { address: Address; abi: Abi; functionName: string; args?: readonly unknown[] };
export type ReadOutcome = { status: 'success'; result: unknown } | { status: 'failure'; error: Error };

/** No code at the Multicall3 address: the call came back empty. */
const noMulticallHere = (error: unknown) =>
  error instanceof BaseError &&
  Boolean(
    error.walk(
      (inner) => (inner as { name?: string }).name === 'AbiDecodingZeroDataError' || (inner as { name?: string }).name === 'ContractFunctionZeroDataError',
    ),
  );

/** With allowFailure, viem reports a missing Multicall3 as each read failing on `aggregate3`. */
const aggregateFailed = (outcome: ReadOutcome) =>
  outcome.status === 'failure' && (outcome.error as { functionName?: string }).functionName === 'aggregate3' && noMulticallHere(outcome.error);

/**
 * Runs `reads` in one eth_call; each answer is a success or the contract's own failure (a
 * revert, no contract at the address). An unreachable chain throws, as one call would.
 */
export async function readTogether(client: PublicClient, reads: readonly ContractRead[]): Promise<ReadOutcome[]> {
  const contracts = reads as Parameters<PublicClient['multicall']>[0]['contracts'];
  const deployless = async () => (await client.multicall({ contracts, allowFailure: true, deployless: true })) as ReadOutcome[];
  let outcomes: ReadOutcome[];
  try {
    outcomes = (await client.multicall({ contracts, allowFailure: true, multicallAddress: MULTICALL3_ADDRESS })) as ReadOutcome[];
  } catch (error) {
    if (!noMulticallHere(error)) throw error;
    return deployless();
  }
  return outcomes.some(aggregateFailed) ? deployless() : outcomes;
}

/** Puts Multicall3's code at its canonical address on a local anvil (anvil_setCode). */
export async function installMulticall3(rpcUrl: string): Promise<void> {
  const rpc = async (method: string, params: unknown[]) => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const answer = (await response.json()) as { result?: string; error?: { message: string } };
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };
  // Running the creation code in an eth_call returns the runtime code it would deploy.
  const runtime = await rpc('eth_call', [{ data: MULTICALL3_CREATION_CODE }, 'latest']);
  await rpc('anvil_setCode', [MULTICALL3_ADDRESS, runtime]);
}
