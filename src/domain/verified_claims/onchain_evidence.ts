// Signet's own evidence in a `verified_claims` element: that it read the claim on the identity
// and the issuer's ClaimIssuer confirmed it (isClaimValid: signed by the issuer's CLAIM key, not
// revoked). Of the standard's evidence types, `electronic_record` fits: data obtained
// electronically from a recognised source, here the chain; `document` and `vouch` are what a
// person shows or a person says, `electronic_signature` a signature of the person. The check is
// `vcrypt`, a check of cryptographic material. Where the claim is (chain, identity, claim id,
// topic, issuer contract) lets a service call isClaimValid itself (docs/verified-claims.md).
import type { Address } from 'viem';
import type { ClaimView } from '../claims/claims_service.js';
import { subjectOf } from '../identity/subject.js';

/** The record type: an ERC-735 claim, named by its standard's address (collision-free, as the standard asks). */
export const ONCHAIN_RECORD_TYPE = 'https://eips.ethereum.org/EIPS/eip-735';

/** The standard's check method for a check of cryptographic security features. */
export const CRYPTOGRAPHIC_CHECK = 'vcrypt';

export type OnchainEvidence = {
  type: 'electronic_record';
  check_details: [{ check_method: string; time: string }];
  record: {
    type: string;
    source: { name: string };
    /** CAIP-2 */
    chain: string;
    /** CAIP-10, the subject Signet gives websites */
    identity: string;
    /** CAIP-10 of the ClaimIssuer contract */
    issuer: string;
    claim_id: string;
    topic: number;
    /** The claim's onchain `data`: the hash of its off-chain document. */
    data_hash: string;
    date_of_expiry?: string;
  };
};

export function onchainEvidence(input: { chainId: number; identity: Address; claim: ClaimView; issuerName?: string; checkedAt: number }): OnchainEvidence {
  const { chainId, claim } = input;
  const issuer = subjectOf(chainId, claim.issuer);
  return {
    type: 'electronic_record',
    check_details: [{ check_method: CRYPTOGRAPHIC_CHECK, time: new Date(input.checkedAt).toISOString() }],
    record: {
      type: ONCHAIN_RECORD_TYPE,
      source: { name: input.issuerName ?? issuer },
      chain: `eip155:${chainId}`,
      identity: subjectOf(chainId, input.identity),
      issuer,
      claim_id: claim.claim_id,
      topic: claim.topic,
      data_hash: claim.data_hash,
      ...(claim.expires_at ? { date_of_expiry: claim.expires_at.slice(0, 10) } : {}),
    },
  };
}
