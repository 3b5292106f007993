// The persistent grants Signet holds at other Information Providers, one per owner and claim
// (a claim's data lies at one provider), kept until the provider says the grant no longer
// stands or the owner's erasure revokes them: a later login reads with the API key alone.
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type HeldGrant = { provider: string; claim_id: string; grant_id: string; resource: string; granted_at: string };

export type ProviderGrants = {
  /** The grants held for these claims of the owner (`subject`: the identity's CAIP-10 id), by claim id. */
  find(subject: string, claimIds: readonly string[]): Promise<Map<string, HeldGrant>>;
  save(subject: string, grant: HeldGrant): Promise<void>;
  forget(subject: string, claimId: string): Promise<void>;
  /** Every grant held for the owner (the export lists them; the erasure revokes and forgets them). */
  listFor(subject: string): Promise<HeldGrant[]>;
};

export function createProviderGrants(store: Store): ProviderGrants {
  const keyOf = (subject: string, claimId: string) => keys.providerGrant(subject, claimId);
  const readMany = async (subject: string, claimIds: readonly string[]) => {
    if (claimIds.length === 0) return [];
    const found = await store.getMany(claimIds.map((claimId) => keyOf(subject, claimId)));
    return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as HeldGrant);
  };
  return {
    async find(subject, claimIds) {
      return new Map(
        (
          await readMany(
            subject,
            claimIds.map((id) => id.toLowerCase()),
          )
        ).map((grant) => [grant.claim_id, grant]),
      );
    },
    async save(subject, grant) {
      const claimId = grant.claim_id.toLowerCase();
      await Promise.all([
        store.set(keyOf(subject, claimId), JSON.stringify({ ...grant, claim_id: claimId })),
        store.addToIndex(keys.providerGrantsOf(subject), claimId, 0),
      ]);
    },
    async forget(subject, claimId) {
      await Promise.all([store.delete(keyOf(subject, claimId.toLowerCase())), store.removeFromIndex(keys.providerGrantsOf(subject), claimId.toLowerCase())]);
    },
    async listFor(subject) {
      return readMany(subject, await store.indexMembers(keys.providerGrantsOf(subject)));
    },
  };
}
