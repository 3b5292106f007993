// The safety net behind the chain watcher: a refresh reads the signing wallet's key live (one
// eth_call), so a key removed on chain stops the website's refreshes even if the watcher has not
// seen the block yet. When the chain cannot be read, `refreshWhenChainDown` decides: allow (the
// watcher ends the grant once the chain answers) or refuse with 503 chain_unavailable.

import { SignetError } from '../../base/errors.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { IdentityRegistry } from '../../domain/identity/identity_registry.js';
import type { EndLoginGrant } from './login_grant_end.js';

export type RefreshKeyCheckDeps = {
  receipts: Pick<ConsentReceipts, 'find'>;
  /** The registry of the chain a receipt names (none: the default chain): its key is read there, and only there. */
  registryOn: (chainId: number | undefined) => Pick<IdentityRegistry, 'assertLinked'>;
  endLoginGrant: EndLoginGrant;
  whenChainDown: 'allow' | 'refuse';
};

/** Answers whether the refresh may go on; a wallet no longer linked ends the grant first. */
export function createRefreshKeyCheck(deps: RefreshKeyCheckDeps) {
  return async function mayRefresh(grantId: string): Promise<boolean> {
    const receipt = await deps.receipts.find(grantId);
    // Every consent leaves a receipt; a grant without one was made by no wallet of Signet's.
    if (!receipt) return true;
    try {
      const registry = deps.registryOn(receipt.chain_id);
      await registry.assertLinked(receipt.identity, receipt.wallet);
      return true;
    } catch (error) {
      if (!(error instanceof SignetError)) throw error;
      if (error.reason === 'chain_unavailable') {
        if (deps.whenChainDown === 'refuse') throw error;
        return true;
      }
      // assertLinked answers identity_not_found only for an address that is no identity contract (any more).
      if (error.reason === 'wallet_not_linked' || error.reason === 'identity_not_found') {
        await deps.endLoginGrant(receipt, 'key_removed');
        return false;
      }
      throw error;
    }
  };
}

export type MayRefresh = ReturnType<typeof createRefreshKeyCheck>;
