// The clients holding a live grant of an identity: an active access grant, or a login whose
// engine grant still lives. They are the ones told when the identity's wallets' keys change
// (src/features/signals/). Read from the records themselves, so it exists before the engine does.
import type { Address } from 'viem';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { AccessGrantStore } from './access_grant_store.js';

export type GrantHoldersDeps = {
  grants: Pick<AccessGrantStore, 'listIds' | 'find'>;
  receipts: Pick<ConsentReceipts, 'listFor'>;
  /** Whether the engine still holds a login grant. */
  isLoginActive(grantId: string): Promise<boolean>;
};

/** The holders of `identity`'s live grants (`chainId`: of an identity on another chain than the default one), each once. */
export function createGrantHolders(deps: GrantHoldersDeps) {
  return async (identity: Address, chainId?: number): Promise<string[]> => {
    const [grantIds, receipts] = await Promise.all([deps.grants.listIds({ identity, chainId }), deps.receipts.listFor(identity, chainId)]);
    const [access, logins] = await Promise.all([
      Promise.all(
        grantIds.map(async (id) => {
          const grant = await deps.grants.find(id);
          return grant?.status === 'active' ? [grant.service] : [];
        }),
      ),
      Promise.all(receipts.map(async (receipt) => ((await deps.isLoginActive(receipt.grant_id)) ? [receipt.client_id] : []))),
    ]);
    return [...new Set([...access.flat(), ...logins.flat()])];
  };
}
