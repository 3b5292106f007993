// The claims of an identity whose verified data Signet can release as `verified_claims`: valid
// now (read fresh), of an issuer trusted for the topic with a trust framework configured, with
// off-chain data matching the onchain hash that holds a `verified_claims` member of the
// standard's shape, checked under that same trust framework. Each comes as the element it
// answers from: the issuer's verification and claims, with Signet's onchain evidence added.
import type { Address, Hex } from 'viem';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { ClaimsService, ClaimView } from '../claims/claims_service.js';
import type { DisplayNames } from '../claims/display_names.js';
import { onchainEvidence } from './onchain_evidence.js';
import { VERIFIED_DATA_MEMBER, type VerifiedClaimsElement, verifiedClaimsElement } from './verified_claims_schema.js';

export type VerifiedSource = { claim: ClaimView; trustFramework: string; element: VerifiedClaimsElement };

export type VerifiedSources = {
  /** The identity's claims that hold releasable verified data now (fresh reads). */
  of(identity: Address): Promise<VerifiedSource[]>;
  /** The same among these claims (those an owner kept); claims no longer releasable are left out. */
  among(identity: Address, claimIds: readonly Hex[]): Promise<VerifiedSource[]>;
};

export function createVerifiedSources(deps: {
  claims: ClaimsService;
  topics: ClaimTopics;
  names: DisplayNames;
  chainId: number;
  now: () => number;
}): VerifiedSources {
  const sourceOf = (identity: Address, claim: ClaimView): VerifiedSource | undefined => {
    if (!claim.valid || !claim.data) return undefined;
    const trustFramework = deps.topics.trustFramework(claim.issuer, claim.topic);
    const parsed = verifiedClaimsElement.safeParse(claim.data[VERIFIED_DATA_MEMBER]);
    // The issuer's own word on the rules it followed must be the one Signet trusts it under.
    if (!trustFramework || !parsed.success || parsed.data.verification.trust_framework !== trustFramework) return undefined;
    const evidence = onchainEvidence({ chainId: deps.chainId, identity, claim, issuerName: deps.names.issuer(claim.issuer), checkedAt: deps.now() });
    const { verification, claims } = parsed.data;
    return {
      claim,
      trustFramework,
      element: { verification: { ...verification, evidence: [...(verification.evidence ?? []), evidence] }, claims },
    };
  };

  const among = async (identity: Address, claimIds: readonly Hex[]) => {
    if (claimIds.length === 0) return [];
    const shared = await deps.claims.shared(identity, claimIds);
    return shared.flatMap((claim) => sourceOf(identity, claim) ?? []);
  };

  return {
    async of(identity) {
      if (deps.topics.verifiedTopics.length === 0) return [];
      const listed = await deps.claims.listForTopics(identity, [...deps.topics.verifiedTopics]);
      return among(
        identity,
        listed.filter((claim) => claim.valid).map((claim) => claim.claim_id),
      );
    },
    among,
  };
}
