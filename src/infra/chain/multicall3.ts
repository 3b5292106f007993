// Several contract reads in one chain round trip, through Multicall3 at its canonical address
// (deployed on nearly every EVM chain; the local anvil gets it at start). Where the chain has
// no contract there, the same reads go in one eth_call that carries Multicall3's code with it.
// Which of the two a chain needs is learned once per client (at start, by learnMulticall3, or by
// the first read) and remembered, so no read pays a round trip to find out again.
import { type Abi, type Address, BaseError, type PublicClient } from 'viem';

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

/** Per chain client: whether Multicall3 is deployed, or the look-up under way. */
const known = new WeakMap<PublicClient, boolean | Promise<boolean | undefined>>();

/**
 * Looks up once whether the chain has Multicall3 (eth_getCode at its address), so the first
 * login does not find out by a wasted call. A failed look-up leaves it to the first read.
 */
export function learnMulticall3(client: PublicClient): Promise<boolean | undefined> {
  const already = known.get(client);
  if (already !== undefined) return Promise.resolve(already);
  const lookup = client.getCode({ address: MULTICALL3_ADDRESS }).then(
    (code) => {
      const has = Boolean(code && code !== '0x');
      // A read that learned it meanwhile is not overwritten.
      if (known.get(client) === lookup) known.set(client, has);
      return has;
    },
    () => {
      if (known.get(client) === lookup) known.delete(client);
      return undefined;
    },
  );
  known.set(client, lookup);
  return lookup;
}

/**
 * Runs `reads` in one eth_call; each answer is a success or the contract's own failure (a
 * revert, no contract at the address). An unreachable chain throws, as one call would.
 */
export async function readTogether(client: PublicClient, reads: readonly ContractRead[]): Promise<ReadOutcome[]> {
  const contracts = reads as Parameters<PublicClient['multicall']>[0]['contracts'];
  const deployless = async () => (await client.multicall({ contracts, allowFailure: true, deployless: true })) as ReadOutcome[];
  // A look-up still under way is not waited for (it has no request's deadline): the read learns by itself.
  if (known.get(client) === false) return deployless();
  let outcomes: ReadOutcome[];
  try {
    outcomes = (await client.multicall({ contracts, allowFailure: true, multicallAddress: MULTICALL3_ADDRESS })) as ReadOutcome[];
  } catch (error) {
    if (!noMulticallHere(error)) throw error;
    known.set(client, false);
    return deployless();
  }
  if (outcomes.some(aggregateFailed)) {
    known.set(client, false);
    return deployless();
  }
  known.set(client, true);
  return outcomes;
}
