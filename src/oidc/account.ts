// The engine's account model: the subject is the identity's CAIP-10 id, and the claims are
// the owner's profile. The engine then keeps only what the grant (the signed fields) allows.
import type { Account, FindAccount } from 'oidc-provider';
import type { ProfileStore } from '../profile/profile.js';
import { identityOfSubject } from '../identity/subject.js';

export function createFindAccount(chainId: number, profiles: ProfileStore): FindAccount {
  return async (_ctx, sub): Promise<Account | undefined> => {
    const identity = identityOfSubject(chainId, sub);
    if (!identity) return undefined;
    return {
      accountId: sub,
      async claims() {
        const profile = await profiles.get(identity);
        return { sub, ...profile };
      },
    };
  };
}
