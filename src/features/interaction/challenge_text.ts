// The words and resource URIs of a login challenge: what the owner reads and signs.
import type { Address } from 'viem';
import type { ClaimView } from '../../domain/claims/claims_service.js';
import type { RequestedField } from '../../domain/fields/fields.js';
import { type VerifiedClaimName, verifiedClaimLabel } from '../../domain/fields/verified_fields.js';
import { subjectOf } from '../../domain/identity/subject.js';

/** One verified claim the owner shares, in words: what, verified by whom, under which rules. */
export type VerifiedShare = { claim: ClaimView; name: VerifiedClaimName; issuerWords: string; trustFrameworkWords: string };

/** Keeps the characters an EIP-4361 statement may hold (the names come from settings). */
const plain = (text: string) => text.replace(/[^\p{L}\p{N} .,'&()_:/+-]/gu, '').trim();

/** "date of birth verified by Acme KYC under the German AML rules" */
export const verifiedWords = (share: VerifiedShare) =>
  `${verifiedClaimLabel(share.name)} verified by ${plain(share.issuerWords)} under ${plain(share.trustFrameworkWords)}`;

/**
 * Who asks, as the signed text names it (decision 81): its name in ASCII (EIP-4361 statements
 * are ASCII: accents dropped, other scripts left out), quoted when the client registered itself
 * so that nothing in it reads as a sentence of the text, and the host its answer goes to.
 */
export type Asker = { name: string; host?: string; runTime?: boolean };

const asciiName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 &()'-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);

export function askerWords(asker: Asker): string {
  const name = asciiName(asker.runTime ? asker.name.replaceAll("'", '') : asker.name);
  const named = !name ? (asker.host ?? 'A website') : asker.runTime ? `'${name}'` : name;
  return asker.host && name ? `${named} (${asker.host})` : named;
}

export function loginStatement(
  asker: Asker,
  fields: RequestedField[],
  claims: ClaimView[],
  verified: VerifiedShare[] = [],
  /** The provider holding each claim's data, by claim id, where another one holds it. */
  heldBy: ReadonlyMap<string, string> = new Map(),
): string {
  const name = askerWords(asker);
  const held = (claim: ClaimView) => {
    const provider = heldBy.get(claim.claim_id.toLowerCase());
    return provider ? ` with its data, fetched from ${plain(provider)}` : '';
  };
  const shared = [
    ...fields.filter((field) => field.kind === 'profile').map((field) => field.label),
    ...fields.filter((field) => field.kind === 'credential').map((field) => field.label),
    ...claims.map((claim) => `${claim.topic_name} claim by ${claim.issuer}${held(claim)}`),
    ...verified.map(verifiedWords),
  ];
  return `${name} asks you to sign in with your identity. By signing you share: ${shared.length ? shared.join(', ') : 'nothing but your identity'}.`;
}

/**
 * The identity (its CAIP-10 id) first, then one URI per profile field, per claim, and per
 * verified claim: the claim's resource with a JSON pointer into its data
 * (`…/claims/<id>#/verified_claims/claims/birthdate`).
 */
export function loginResources(
  issuer: string,
  chainId: number,
  identity: Address,
  fields: RequestedField[],
  claims: ClaimView[],
  verified: VerifiedShare[] = [],
): string[] {
  return [
    subjectOf(chainId, identity),
    ...fields.filter((field) => field.kind === 'profile').map((field) => `${issuer}/identities/${identity}/profile#${field.name}`),
    ...claims.map((claim) => `${issuer}/identities/${identity}/claims/${claim.claim_id}`),
    ...fields.flatMap((field) => (field.kind === 'credential' && field.resource ? [field.resource] : [])),
    ...verified.map((share) => `${issuer}/identities/${identity}/claims/${share.claim.claim_id}#/verified_claims/claims/${share.name}`),
  ];
}
