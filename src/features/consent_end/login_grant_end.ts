// Ends a website's login grant and says so: the engine's Grant and every token under it go at
// once (refresh and access tokens stop), and the website hears it (back-channel logout, CAEP).
import type { Address } from 'viem';
import type { ConsentReceipt } from '../../domain/consent/consent_receipts.js';
import type { ConsentSignal, GrantEndReason, Signals } from '../../domain/consent/consent_signal.js';

export type LoginGrantEndDeps = {
  /** Whether the engine still holds the grant (a revoked or expired one is not ended twice). */
  isActive(grantId: string): Promise<boolean>;
  revokeLoginGrant(grantId: string): Promise<void>;
  sidOf(identity: Address, clientId: string, grantId: string, chainId?: number): Promise<string | undefined>;
  signals: Signals;
  now: () => number;
};

export function createLoginGrantEnd(deps: LoginGrantEndDeps) {
  /** True when it ended a grant that stood; the signal is queued before it returns. */
  return async function endLoginGrant(receipt: ConsentReceipt, reason: GrantEndReason): Promise<boolean> {
    if (!(await deps.isActive(receipt.grant_id))) return false;
    // Read before the revocation: the session's record names the grant until then.
    const sid = await deps.sidOf(receipt.identity, receipt.client_id, receipt.grant_id, receipt.chain_id);
    await deps.revokeLoginGrant(receipt.grant_id);
    const signal: ConsentSignal = {
      type: 'grant_ended',
      identity: receipt.identity,
      ...(receipt.chain_id === undefined ? {} : { chain_id: receipt.chain_id }),
      client_id: receipt.client_id,
      grant_id: receipt.grant_id,
      kind: 'login',
      ...(sid ? { sid } : {}),
      reason,
      at: deps.now(),
    };
    await deps.signals.emit(signal);
    return true;
  };
}

export type EndLoginGrant = ReturnType<typeof createLoginGrantEnd>;
