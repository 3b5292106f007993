// What discovery says of verified claims (OpenID Connect for Identity Assurance 1.0, "OP
// metadata"): the trust frameworks configured for trusted issuers, the evidence types, the
// document and record types, the claims released inside verified_claims; and
// `verified_claims_supported`, which the implementer's drafts defined and clients still read.
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import { VERIFIED_CLAIM_NAMES } from '../../domain/fields/verified_fields.js';
import { ONCHAIN_RECORD_TYPE } from '../../domain/verified_claims/onchain_evidence.js';
import { EVIDENCE_TYPES } from '../../domain/verified_claims/verified_claims_schema.js';

/**
 * The document types of the standard's predefined values that issuers' evidence names: Signet
 * passes an issuer's evidence through as the issuer recorded it (docs/verified-claims.md).
 */
export const DOCUMENTS_SUPPORTED = ['idcard', 'passport', 'driving_permit', 'residence_permit'] as const;

export function identityAssuranceMetadata(topics: Pick<ClaimTopics, 'trustFrameworks'>): Record<string, unknown> {
  // Without a trust framework no claim can be released verified: nothing else to advertise.
  if (topics.trustFrameworks.length === 0) return { verified_claims_supported: false };
  return {
    verified_claims_supported: true,
    trust_frameworks_supported: [...topics.trustFrameworks],
    // Signet's own evidence is an electronic record; an issuer's may be any of the four.
    evidence_supported: [...EVIDENCE_TYPES],
    documents_supported: [...DOCUMENTS_SUPPORTED],
    electronic_records_supported: [ONCHAIN_RECORD_TYPE],
    claims_in_verified_claims_supported: [...VERIFIED_CLAIM_NAMES],
  };
}
