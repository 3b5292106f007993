// What Signet remembers of each credential it issued, for its owner's pages and for the chain
// watcher: whose it is, which configuration, which claim it came from, its status slot and
// dates, and whether it was revoked and why. Never the credential itself, its disclosures or
// the wallet's key. A record lives as long as its credential; the owner's erasure deletes them.
import type { Address, Hex } from 'viem';
import { z } from 'zod';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** Why a credential stopped standing: the owner, its claim on chain, or the owner's erasure. */
export const REVOCATION_CAUSES = ['owner_revoked', 'claim_removed', 'claim_changed', 'claim_revoked', 'erasure'] as const;
export type RevocationCause = (typeof REVOCATION_CAUSES)[number];

const record = z.object({
  id: z.string(),
  /** The identity as the store keys it (bare address on the default chain, CAIP-10 on others). */
  identity: z.string(),
  configuration: z.string(),
  claim_id: z.string(),
  client_id: z.string(),
  status: z.object({ list: z.number().int(), index: z.number().int() }),
  issued_at: z.string(),
  expires_at: z.string(),
  revoked: z.object({ at: z.string(), cause: z.enum(REVOCATION_CAUSES) }).optional(),
});
export type CredentialRecord = z.infer<typeof record>;

export type CredentialRecords = {
  save(entry: Omit<CredentialRecord, 'revoked'>): Promise<void>;
  get(id: string): Promise<CredentialRecord | undefined>;
  /** The identity's credentials still within their lives, newest first. */
  listOf(identity: string): Promise<CredentialRecord[]>;
  /** Marks a credential, as read, revoked (the first cause stays). */
  markRevoked(entry: CredentialRecord, cause: RevocationCause): Promise<CredentialRecord>;
  /** The credentials made from one claim of the identity. */
  ofClaim(identity: string, claimId: Hex): Promise<CredentialRecord[]>;
  /** Forgets every record of the identity (its erasure). */
  forget(identity: string | Address): Promise<void>;
};

const secondsUntil = (iso: string, now: number) => Math.max(1, Math.ceil((Date.parse(iso) - now) / 1000));

export function createCredentialRecords(store: Store, now: () => number): CredentialRecords {
  const parse = (raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const parsed = record.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  };
  const get = async (id: string) => parse(await store.get(keys.credential(id)));
  const put = (entry: CredentialRecord) => store.set(keys.credential(entry.id), JSON.stringify(entry), secondsUntil(entry.expires_at, now()));
  const listOf = async (identity: string) => {
    const ids = await store.indexMembers(keys.credentialsOf(identity));
    const found = ids.length ? (await store.getMany(ids.map(keys.credential))).map(parse) : [];
    return found.filter((entry): entry is CredentialRecord => entry !== undefined).sort((a, b) => b.issued_at.localeCompare(a.issued_at));
  };
  return {
    async save(entry) {
      await put(entry);
      await store.addToIndex(keys.credentialsOf(entry.identity), entry.id, secondsUntil(entry.expires_at, now()), { onlyLater: true });
    },
    get,
    listOf,
    async markRevoked(entry, cause) {
      if (entry.revoked) return entry;
      const revoked = { ...entry, revoked: { at: new Date(now()).toISOString(), cause } };
      await put(revoked);
      return revoked;
    },
    async ofClaim(identity, claimId) {
      return (await listOf(identity)).filter((entry) => entry.claim_id.toLowerCase() === claimId.toLowerCase());
    },
    async forget(identity) {
      const ids = await store.indexMembers(keys.credentialsOf(identity));
      await store.delete(...ids.map(keys.credential), keys.credentialsOf(identity));
    },
  };
}
