// The words and resource URIs of a login challenge: what the owner reads and signs.
import type { Address } from 'viem';
import type { ClaimView } from '../claims/claims_service.js';
import type { RequestedField } from '../fields/fields.js';
import { subjectOf } from '../identity/subject.js';

export function loginStatement(clientName: string, fields: RequestedField[], claims: ClaimView[]): string {
  const name = clientName.replace(/[^\p{L}\p{N} .,'&()-]/gu, '').slice(0, 80) || 'A website';
  const shared = [
    ...fields.filter((field) => field.kind === 'profile').map((field) => field.label),
    ...claims.map((claim) => `${claim.topic_name} claim by ${claim.issuer}`),
  ];
  return `${name} asks you to sign in with your identity. By signing you share: ${shared.length ? shared.join(', ') : 'nothing but your identity'}.`;
}

/** The identity (its CAIP-10 id) first, then one URI per profile field and per claim. */
export function loginResources(issuer: string, chainId: number, identity: Address, fields: RequestedField[], claims: ClaimView[]): string[] {
  return [
    subjectOf(chainId, identity),
    ...fields.filter((field) => field.kind === 'profile').map((field) => `${issuer}/identities/${identity}/profile#${field.name}`),
    ...claims.map((claim) => `${issuer}/identities/${identity}/claims/${claim.claim_id}`),
  ];
}
