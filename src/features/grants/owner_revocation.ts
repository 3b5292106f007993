// The owner revokes one of their grants by id: an OIDC login is revoked in the engine (the
// Grant and its tokens), anything else is an access grant. Used by the API and the pages.
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import type { AccessGrants } from './access_grants.js';
import type { createGrantListing, ListedGrant } from './grant_listing.js';

export function createOwnerRevocation(deps: {
  listing: ReturnType<typeof createGrantListing>;
  accessGrants: AccessGrants;
  revokeLoginGrant: (grantId: string) => Promise<void>;
}) {
  /** `chainId`: of an identity on another chain than the default one (the same address there is another identity). */
  return async function revokeAsOwner(id: string, identity: Address, chainId?: number): Promise<ListedGrant> {
    const login = await deps.listing.loginGrant(id, identity, chainId);
    if (!login) return deps.accessGrants.revoke(id, { identity, chainId });
    if (login.status === 'revoked') throw refuse('grant_not_active', 'the login grant is already revoked');
    await deps.revokeLoginGrant(id);
    return { ...login, status: 'revoked' };
  };
}

export type RevokeAsOwner = ReturnType<typeof createOwnerRevocation>;
