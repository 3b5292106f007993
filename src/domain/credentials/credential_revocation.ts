// Ending credentials: the record says why, and the status list's bit says so to every verifier.
// The owner revokes one; the chain watcher revokes those made from a claim that was removed,
// changed or revoked on chain; an erasure revokes them all before forgetting the records.
// Each step is safe to repeat (the watcher may read an event twice).
import type { Hex } from 'viem';
import type { CredentialRecord, CredentialRecords, RevocationCause } from './credential_records.js';
import type { StatusLists } from './status_lists.js';

export type CredentialRevocation = {
  /** Revokes one credential; undefined when the identity holds no such credential. */
  revoke(identity: string, id: string, cause: RevocationCause): Promise<CredentialRecord | undefined>;
  /** Revokes every credential made from the claim; how many stood until now. */
  revokeOfClaim(identity: string, claimId: Hex, cause: RevocationCause): Promise<number>;
  /** Revokes every credential of the identity and forgets their records (its erasure). */
  eraseAll(identity: string): Promise<number>;
  /** The claims the identity's standing credentials were made from (where the watcher looks). */
  claimsOf(identity: string): Promise<Hex[]>;
};

export function createCredentialRevocation(deps: { records: CredentialRecords; statusLists: StatusLists }): CredentialRevocation {
  const { records, statusLists } = deps;
  const end = async (entry: CredentialRecord, cause: RevocationCause) => {
    // The bit first: a crash between the two leaves a revoked credential the page still shows standing, never the reverse.
    await statusLists.revoke(entry.status, Date.parse(entry.expires_at));
    return records.markRevoked(entry, cause);
  };
  return {
    async revoke(identity, id, cause) {
      const entry = await records.get(id);
      if (!entry || entry.identity.toLowerCase() !== identity.toLowerCase()) return undefined;
      return entry.revoked ? entry : end(entry, cause);
    },
    async revokeOfClaim(identity, claimId, cause) {
      const standing = (await records.ofClaim(identity, claimId)).filter((entry) => !entry.revoked);
      for (const entry of standing) await end(entry, cause);
      return standing.length;
    },
    async eraseAll(identity) {
      const all = await records.listOf(identity);
      for (const entry of all.filter((one) => !one.revoked)) await statusLists.revoke(entry.status, Date.parse(entry.expires_at));
      await records.forget(identity);
      return all.length;
    },
    async claimsOf(identity) {
      const standing = (await records.listOf(identity)).filter((entry) => !entry.revoked);
      return [...new Set(standing.map((entry) => entry.claim_id.toLowerCase() as Hex))];
    },
  };
}
