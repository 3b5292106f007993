// The engine's account model: the subject is the identity's CAIP-10 id, the claims are the
// owner's profile and, under claim:<topic> scopes, the onchain claims kept in the grant's
// signed consent, read fresh. The engine then keeps only what the grant allows.
import type { Account, FindAccount } from 'oidc-provider';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import { identityOfSubject } from '../identity/subject.js';
import type { ConsentReceipts } from '../interaction/consent_receipts.js';
import type { ProfileStore } from '../profile/profile.js';
import { ONCHAIN_CLAIMS } from './fields.js';

export type AccountDeps = {
  chainId: number;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  claims: ClaimsService;
  topics: ClaimTopics;
};

export function createFindAccount(deps: AccountDeps): FindAccount {
  return async (_ctx, sub, token): Promise<Account | undefined> => {
    const identity = identityOfSubject(deps.chainId, sub);
    if (!identity) return undefined;
    return {
      accountId: sub,
      async claims(_use, scope) {
        const profile = await deps.profiles.get(identity);
        const scopes = new Set(scope.split(' '));
        const topics = new Set(deps.topics.all.filter((topic) => scopes.has(deps.topics.scopeOf(topic))).map((topic) => topic.topic));
        const grantId = token?.grantId;
        if (!topics.size || !grantId) return { sub, ...profile };
        const receipt = await deps.receipts.find(grantId);
        const shared = await deps.claims.shared(identity, (receipt?.claims ?? []) as `0x${string}`[]);
        return { sub, ...profile, [ONCHAIN_CLAIMS]: shared.filter((claim) => topics.has(claim.topic)) };
      },
    };
  };
}
