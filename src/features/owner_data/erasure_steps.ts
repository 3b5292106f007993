// What an erasure does, step by step, each step safe to run again (a job that died half way
// runs its unfinished steps once more): end what lets anyone read the identity's data, then
// delete what Signet holds about it. Consent receipts stay, as proof, for the proof period.

import { SignetError } from '../../base/errors.js';
import type { ConsentReceipt } from '../../domain/consent/consent_receipts.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import type { IdentityKey } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { AccessGrant } from '../grants/access_grant.js';

export type ErasureTarget = { identity: IdentityKey; wallets: IdentityKey[]; revokeIssuedClaims: boolean };

export type ErasureStepDeps = {
  store: Store;
  /** Every session of the identity's owner, ended (the account's). */
  endAccountSessions(identity: IdentityKey): Promise<void>;
  /** Every login session the engine holds for the identity (a browser's "signed in at Signet"). */
  endEngineSessions(identity: IdentityKey): Promise<void>;
  /** CIBA logins waiting for the owner: each denied, so the waiting client hears it at once. */
  pendingBackchannel(identity: IdentityKey): Promise<{ id: string }[]>;
  denyBackchannel(id: string): Promise<void>;
  /** The identity's access grants, and the owner's two ways of ending one. */
  accessGrantIds(identity: IdentityKey): Promise<string[]>;
  currentGrant(id: string): Promise<AccessGrant>;
  denyGrant(id: string, identity: IdentityKey): Promise<unknown>;
  revokeGrant(id: string, identity: IdentityKey): Promise<unknown>;
  /** The identity's OIDC logins (their receipts), and the engine's revocation of one (tokens included). */
  receipts(identity: IdentityKey): Promise<ConsentReceipt[]>;
  keepReceipt(receipt: ConsentReceipt, seconds: number): Promise<void>;
  revokeLoginGrant(grantId: string): Promise<void>;
  /** The claims Signet's issuer holds off-chain data for, and its revocation (none: Signet issues no claims). */
  issuedClaims(identity: IdentityKey): Promise<{ claim_id: string; revoked_at?: string }[]>;
  revokeIssuedClaim?: (identity: IdentityKey, claimId: string) => Promise<void>;
  /** The owner's requests to Signet's claim issuer, deleted (none when Signet issues no claims). */
  removeClaimRequests?: (identity: IdentityKey) => Promise<void>;
  history: AccessHistory;
  /** The credentials issued to the owner's wallets: each revoked (its status bit set), their records forgotten. */
  eraseCredentials?: (identity: IdentityKey) => Promise<unknown>;
  /** The grants Signet holds for the owner at other Information Providers: revoked there and forgotten. */
  endProviderGrants?: (identity: IdentityKey) => Promise<void>;
  /** The data fetched from providers for one of the owner's logins, forgotten. */
  forgetProviderData?: (grantId: string) => Promise<void>;
  /** Stops following the identity on chain: nothing of it is left to end. */
  unwatch(identity: IdentityKey): Promise<void>;
  /** How long receipts are kept as proof once the identity is erased. */
  receiptSeconds: number;
};

export const ERASURE_STEPS = ['sessions', 'requests', 'access_grants', 'logins', 'issued_claims', 'data'] as const;
export type ErasureStep = (typeof ERASURE_STEPS)[number];

/** A refusal that means "already done" (a grant already ended): the step goes on. */
const alreadyEnded = (error: unknown) => error instanceof SignetError && error.status < 500;

export function erasureSteps(deps: ErasureStepDeps): Record<ErasureStep, (target: ErasureTarget) => Promise<void>> {
  const { store } = deps;
  return {
    async sessions({ identity }) {
      await deps.endAccountSessions(identity);
    },

    async requests({ identity }) {
      for (const request of await deps.pendingBackchannel(identity)) await deps.denyBackchannel(request.id);
      await store.delete(keys.backchannelRequestsOf(identity));
    },

    async access_grants({ identity }) {
      for (const id of await deps.accessGrantIds(identity)) {
        const grant = await deps.currentGrant(id).catch((error: unknown) => {
          if (alreadyEnded(error)) return undefined;
          throw error;
        });
        if (!grant) continue;
        const end = grant.status === 'pending' ? deps.denyGrant : grant.status === 'active' ? deps.revokeGrant : undefined;
        await end?.(id, identity).catch((error: unknown) => {
          if (!alreadyEnded(error)) throw error;
        });
        // The service's index of this resource is named by the identity; its grants have ended.
        await store.delete(keys.accessGrantsOfServiceResource(grant.service, grant.resource));
      }
      // The grants Signet itself holds for the owner at other providers end with the owner's here.
      await deps.endProviderGrants?.(identity);
    },

    async logins({ identity }) {
      for (const receipt of await deps.receipts(identity)) {
        await deps.revokeLoginGrant(receipt.grant_id);
        await deps.forgetProviderData?.(receipt.grant_id);
        await deps.keepReceipt(receipt, deps.receiptSeconds);
        // The client's index of its logins lists this one no more: it has ended.
        await store.removeFromIndex(keys.clientLogins(receipt.client_id), receipt.grant_id);
      }
      // After the grants: a website's logout token names the login session (its sid), read from it.
      await deps.endEngineSessions(identity);
    },

    async issued_claims({ identity, revokeIssuedClaims }) {
      for (const record of await deps.issuedClaims(identity)) {
        if (revokeIssuedClaims && !record.revoked_at && deps.revokeIssuedClaim) await deps.revokeIssuedClaim(identity, record.claim_id);
        await store.delete(keys.claimRecord(identity, record.claim_id));
      }
      await store.delete(keys.claimRecordsOf(identity));
    },

    async data({ identity, wallets }) {
      await Promise.all([
        store.delete(
          keys.profile(identity),
          keys.ownerWebhook(identity),
          keys.identityWallets(identity),
          ...wallets.map((wallet) => keys.identityCreation(wallet)),
        ),
        deps.removeClaimRequests?.(identity),
        deps.history.erase(identity),
        deps.eraseCredentials?.(identity),
        deps.unwatch(identity),
      ]);
    },
  };
}
