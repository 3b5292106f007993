// Lists grants newest first with an opaque cursor: an owner sees every grant of the identity,
// access grants and the consents of OIDC logins alike; a service sees the grants it holds.
import type Provider from 'oidc-provider';
import type { Address } from 'viem';
import type { ConsentReceipt, ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import { afterCursor, decodeTimeCursor, encodeTimeCursor } from '../../http/time_cursor.js';
import type { AccessGrant } from './access_grant.js';
import type { AccessGrantStore } from './access_grant_store.js';
import type { AccessGrants } from './access_grants.js';

/** An OIDC login as a grant: its consent receipt, and whether the engine still holds it. */
export type LoginGrant = {
  id: string;
  kind: 'login';
  status: 'active' | 'revoked';
  identity: Address;
  service: string;
  resource: null;
  fields: string[];
  claims: string[];
  /** The verified claims shared, claim by claim (released as verified_claims). */
  verified: { claim_id: string; claims: string[] }[];
  challenge: string;
  signature: string;
  signer: Address;
  created_at: string;
  granted_at: string;
};

export type ListedGrant = AccessGrant | LoginGrant;

const newestFirst = (a: ListedGrant, b: ListedGrant) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
/** A grant as the cursor sees it: its creation time and id. */
const timeOf = (grant: ListedGrant) => ({ at: grant.created_at, id: grant.id });

export function createGrantListing(deps: { grants: AccessGrantStore; accessGrants: AccessGrants; receipts: ConsentReceipts; provider: Provider }) {
  const loginGrantOf = async (receipt: ConsentReceipt): Promise<LoginGrant> => ({
    id: receipt.grant_id,
    kind: 'login',
    status: (await deps.provider.Grant.find(receipt.grant_id)) ? 'active' : 'revoked',
    identity: receipt.identity,
    service: receipt.client_id,
    resource: null,
    fields: receipt.fields,
    claims: receipt.claims,
    verified: receipt.verified ?? [],
    challenge: receipt.message,
    signature: receipt.signature,
    signer: receipt.wallet,
    created_at: receipt.signed_at,
    granted_at: receipt.signed_at,
  });

  const loginGrants = async (identity: Address, chainId?: number): Promise<LoginGrant[]> =>
    Promise.all((await deps.receipts.listFor(identity, chainId)).map(loginGrantOf));

  /** One OIDC login of this identity on its chain (`chainId`: another than the default one), or undefined when the id is not one. */
  const loginGrant = async (id: string, identity: Address, chainId?: number): Promise<LoginGrant | undefined> => {
    const receipt = await deps.receipts.find(id);
    return receipt && receipt.identity === identity && receipt.chain_id === chainId ? loginGrantOf(receipt) : undefined;
  };

  return {
    loginGrants,
    loginGrant,
    /** One page of `owner`'s grants (`chainId`: of an identity on another chain than the default one), or of a service's own grants of one identity when `identity` is given. */
    async list(owner: { identity: Address; chainId?: number } | { service: string; identity?: Address }, page: { cursor?: string; limit: number }) {
      const { limit } = page;
      const cursor = decodeTimeCursor(page.cursor);
      const ids = await deps.grants.listIds('service' in owner ? { service: owner.service } : { identity: owner.identity, chainId: owner.chainId });
      const held = await deps.accessGrants.currentOf(ids);
      // A service naming an identity sees only its own grants of that identity.
      const access = 'service' in owner && owner.identity ? held.filter((grant) => grant.identity === owner.identity && grant.chain_id === undefined) : held;
      const all: ListedGrant[] = !('service' in owner) ? [...access, ...(await loginGrants(owner.identity, owner.chainId))] : access;
      const ordered = all.sort(newestFirst).filter(cursor ? (grant) => afterCursor(cursor)(timeOf(grant)) : () => true);
      const items = ordered.slice(0, limit);
      return { items, next_cursor: ordered.length > limit ? encodeTimeCursor(timeOf(items[items.length - 1]!)) : null };
    },
  };
}

export type GrantListing = ReturnType<typeof createGrantListing>;
