// Lists grants newest first with an opaque cursor: an owner sees every grant of the identity,
// access grants and the consents of OIDC logins alike; a service sees the grants it holds.
import type Provider from 'oidc-provider';
import type { Address } from 'viem';
import { invalidRequest } from '../errors.js';
import type { ConsentReceipt, ConsentReceipts } from '../interaction/consent_receipts.js';
import type { AccessGrant } from './access_grant.js';
import type { AccessGrants } from './access_grants.js';
import type { AccessGrantStore } from './access_grant_store.js';

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
  challenge: string;
  signature: string;
  signer: Address;
  created_at: string;
  granted_at: string;
};

export type ListedGrant = AccessGrant | LoginGrant;

type Cursor = { t: string; id: string };

const encodeCursor = (grant: ListedGrant) => Buffer.from(JSON.stringify({ t: grant.created_at, id: grant.id })).toString('base64url');

function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const cursor = JSON.parse(Buffer.from(raw, 'base64url').toString()) as Cursor;
    if (typeof cursor.t === 'string' && typeof cursor.id === 'string') return cursor;
  } catch {
    // fall through
  }
  throw invalidRequest('"cursor" is not one this API gave');
}

const newestFirst = (a: ListedGrant, b: ListedGrant) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
const after = (cursor: Cursor) => (grant: ListedGrant) => grant.created_at < cursor.t || (grant.created_at === cursor.t && grant.id < cursor.id);

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
    challenge: receipt.message,
    signature: receipt.signature,
    signer: receipt.wallet,
    created_at: receipt.signed_at,
    granted_at: receipt.signed_at,
  });

  const loginGrants = async (identity: Address): Promise<LoginGrant[]> =>
    Promise.all((await deps.receipts.listFor(identity)).map(loginGrantOf));

  /** One OIDC login of this identity, or undefined when the id is not one. */
  const loginGrant = async (id: string, identity: Address): Promise<LoginGrant | undefined> => {
    const receipt = await deps.receipts.find(id);
    return receipt && receipt.identity === identity ? loginGrantOf(receipt) : undefined;
  };

  return {
    loginGrants,
    loginGrant,
    async list(owner: { identity: Address } | { service: string }, page: { cursor?: string; limit?: string }) {
      const limit = page.limit === undefined ? 20 : Number(page.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest('"limit" must be an integer from 1 to 100');
      const cursor = decodeCursor(page.cursor);
      const ids = await deps.grants.listIds(owner);
      const access = await Promise.all(ids.map((id) => deps.accessGrants.current(id)));
      const all: ListedGrant[] = 'identity' in owner ? [...access, ...(await loginGrants(owner.identity))] : access;
      const ordered = all.sort(newestFirst).filter(cursor ? after(cursor) : () => true);
      const items = ordered.slice(0, limit);
      return { items, next_cursor: ordered.length > limit ? encodeCursor(items[items.length - 1]!) : null };
    },
  };
}
