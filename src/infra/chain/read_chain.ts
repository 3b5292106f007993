// A chain read whose failure means "the chain is unreachable" (503 chain_unavailable), named
// for the logs. Reads whose revert means "no" catch isContractRefusal themselves first.
import { chainUnavailable } from './chain_errors.js';

export async function readChain<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw chainUnavailable(what, error);
  }
}
