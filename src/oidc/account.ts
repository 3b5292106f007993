// The engine's account model: the subject is the identity's CAIP-10 id, the claims are the
// owner's profile and, under claim:<topic> scopes, the onchain claims kept in the grant's
// signed consent, read fresh. The engine then keeps only what the grant allows. When the chain
// cannot be read, tokens and userinfo still answer: each kept claim is named with status
// "chain_unavailable" and no data (nothing is released unchecked, nothing is silently dropped).
import type { Account, FindAccount } from 'oidc-provider';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import { SignetError } from '../errors.js';
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

/** The kept claims Signet can name without the chain (those of trusted issuers), unverified. */
function unverifiedClaims(topics: ClaimTopics, claimIds: readonly string[]) {
  return claimIds.flatMap((claimId) => {
    const known = topics.trustedClaim(claimId);
    if (!known) return [];
    return [
      {
        claim_id: claimId,
        topic: known.topic.topic,
        topic_name: known.topic.name,
        issuer: known.issuer,
        trusted: true,
        valid: false,
        status: 'chain_unavailable' as const,
      },
    ];
  });
}

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
        const kept = (receipt?.claims ?? []) as `0x${string}`[];
        let shared: Array<{ topic: number }>;
        try {
          shared = await deps.claims.shared(identity, kept);
        } catch (error) {
          if (!(error instanceof SignetError && error.reason === 'chain_unavailable')) throw error;
          shared = unverifiedClaims(deps.topics, kept);
        }
        return { sub, ...profile, [ONCHAIN_CLAIMS]: shared.filter((claim) => topics.has(claim.topic)) };
      },
    };
  };
}
