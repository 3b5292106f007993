// What the owner keeps of a login request: a subset of the requested fields (required ones
// stay), for each claim topic kept the claims chosen among the valid ones, and for each
// verified field kept the claims it is released from, among those that hold it verified.
import type { Hex } from 'viem';
import { refuse } from '../../base/errors.js';
import type { ClaimView } from '../../domain/claims/claims_service.js';
import type { FieldDefinition, RequestedField } from '../../domain/fields/fields.js';
import type { VerifiedRequest } from '../../domain/fields/verified_claims_request.js';
import { type VerifiedClaimName, type VerifiedPick, verifiedClaimOf } from '../../domain/fields/verified_fields.js';
import { offeredClaims } from '../../domain/verified_claims/verified_claims_answer.js';
import type { VerifiedSource } from '../../domain/verified_claims/verified_sources.js';

export type ConsentSelection = { fields: RequestedField[]; claims: ClaimView[] };

export function keptFields(known: readonly FieldDefinition[], requested: RequestedField[], asked: string[] | undefined): RequestedField[] {
  if (asked === undefined) return requested;
  const knownNames = new Set(known.map((field) => field.name));
  const requestedNames = new Set(requested.map((field) => field.name));
  for (const name of asked) {
    if (!knownNames.has(name))
      throw refuse('field_unknown', `"fields" names "${name}", which is not a field Signet knows`, { previous: 'consent_field_unknown' });
    if (!requestedNames.has(name)) throw refuse('consent_field_not_requested', `"fields" names "${name}", which this website did not ask for`);
  }
  const keep = new Set(asked);
  for (const field of requested) {
    if (field.required && !keep.has(field.name)) {
      throw refuse('consent_field_required', `"fields" must keep "${field.name}", which this website requires`);
    }
  }
  return requested.filter((field) => keep.has(field.name));
}

/**
 * The claims shared under the kept claim topics: by default every valid one; when the owner
 * names them, each must be a valid claim of a kept topic. A topic left with no claim is dropped.
 */
export function keptClaims(fields: RequestedField[], available: ClaimView[], asked: string[] | undefined): ConsentSelection {
  const keptTopics = new Set(fields.filter((field) => field.kind === 'claim').map((field) => field.scope));
  const shareable = available.filter((claim) => claim.valid && claim.topic_name && keptTopics.has(`claim:${claim.topic_name}`));
  let claims = shareable;
  if (asked !== undefined) {
    const byId = new Map(shareable.map((claim) => [claim.claim_id.toLowerCase(), claim]));
    claims = asked.map((id) => {
      const claim = byId.get(id.toLowerCase() as Hex);
      if (!claim) throw refuse('consent_claim_not_shareable', `"claims" names ${id}, which is not a valid claim of a kept topic`);
      return claim;
    });
  }
  const sharedTopics = new Set(claims.map((claim) => `claim:${claim.topic_name}`));
  return { fields: fields.filter((field) => field.kind !== 'claim' || sharedTopics.has(field.scope)), claims };
}

/** A claim that can give some of the kept verified fields, and which. */
export type VerifiedOffer = { source: VerifiedSource; claims: VerifiedClaimName[] };

/** The claims offering each kept verified field: those whose verified data some request element would release it from. */
export function verifiedOffers(fields: RequestedField[], sources: VerifiedSource[], requests: readonly VerifiedRequest[], now: number): VerifiedOffer[] {
  const wanted = new Set(fields.flatMap((field) => (field.kind === 'verified' ? (verifiedClaimOf(field.name) ?? []) : [])));
  return sources
    .map((source) => ({
      source,
      claims: offeredClaims(source.element, requests, now).filter((name): name is VerifiedClaimName => wanted.has(name as VerifiedClaimName)),
    }))
    .filter((offer) => offer.claims.length > 0);
}

/**
 * The verified claims kept: by default every one offered; when the owner names them, each must
 * be offered. A required field offered by some claim must stay; a verified field left with
 * no claim is dropped, as a topic left with no claim is.
 */
export function keptVerified(
  fields: RequestedField[],
  offers: VerifiedOffer[],
  asked: VerifiedPick[] | undefined,
): { fields: RequestedField[]; picks: VerifiedPick[] } {
  let picks: VerifiedPick[] = offers.map((offer) => ({ claim_id: offer.source.claim.claim_id, claims: [...offer.claims] }));
  if (asked !== undefined) {
    const byId = new Map(offers.map((offer) => [offer.source.claim.claim_id.toLowerCase(), offer]));
    const merged = new Map<string, Set<string>>();
    for (const pick of asked) {
      const offer = byId.get(pick.claim_id.toLowerCase());
      if (!offer) throw refuse('consent_verified_not_offered', `"verified" names ${pick.claim_id}, which holds none of the kept verified fields`);
      const unoffered = pick.claims.find((name) => !offer.claims.includes(name as VerifiedClaimName));
      if (unoffered) throw refuse('consent_verified_not_offered', `"verified" names "${unoffered}" of ${pick.claim_id}, which that claim does not offer`);
      const claimId = offer.source.claim.claim_id;
      merged.set(claimId, new Set([...(merged.get(claimId) ?? []), ...pick.claims]));
    }
    picks = [...merged].filter(([, names]) => names.size > 0).map(([claimId, names]) => ({ claim_id: claimId, claims: [...names] }));
  }
  const shared = new Set(picks.flatMap((pick) => pick.claims));
  for (const field of fields) {
    const claim = field.kind === 'verified' ? verifiedClaimOf(field.name) : undefined;
    if (claim && field.required && !shared.has(claim) && offers.some((offer) => offer.claims.includes(claim))) {
      throw refuse('consent_field_required', `"verified" must keep "${claim}" from one claim at least: this website requires it`);
    }
  }
  return { fields: fields.filter((field) => field.kind !== 'verified' || shared.has(verifiedClaimOf(field.name) ?? '')), picks };
}
