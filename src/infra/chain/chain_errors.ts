// Tells the chain's real answers ("this contract reverted", "there is no contract here", "no
// such receipt") from an outage (refused, failed, too slow), and names the outage once:
// 503 temporarily_unavailable, reason chain_unavailable.
import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError, TransactionNotFoundError, TransactionReceiptNotFoundError } from 'viem';
import { refuse, type SignetError } from '../../base/errors.js';

/** Seconds a client should wait before trying again after a chain outage. */
const RETRY_AFTER_SECONDS = 5;

/** The chain answered, and the answer is "no": the call reverted or found no contract. */
export function isContractRefusal(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    Boolean(error.walk((inner) => inner instanceof ContractFunctionRevertedError || inner instanceof ContractFunctionZeroDataError))
  );
}

/** The chain answered that it knows no such transaction (or no receipt for it yet). */
export function isUnknownTransaction(error: unknown): boolean {
  return (
    error instanceof BaseError && Boolean(error.walk((inner) => inner instanceof TransactionReceiptNotFoundError || inner instanceof TransactionNotFoundError))
  );
}

export function chainUnavailable(what: string, cause?: unknown): SignetError {
  return refuse('chain_unavailable', `the chain could not be read (${what}); try again shortly`, { cause, retryAfterSeconds: RETRY_AFTER_SECONDS });
}
