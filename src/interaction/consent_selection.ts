// What the owner keeps of a login request: a subset of the requested fields (required ones
// stay) and, for each claim topic kept, the claims chosen among the valid ones.
import type { Hex } from 'viem';
import type { ClaimView } from '../claims/claims_service.js';
import { refuse } from '../errors.js';
import type { FieldDefinition, RequestedField } from '../fields/fields.js';

export type ConsentSelection = { fields: RequestedField[]; claims: ClaimView[] };

export function keptFields(known: readonly FieldDefinition[], requested: RequestedField[], asked: string[] | undefined): RequestedField[] {
  if (asked === undefined) return requested;
  const knownNames = new Set(known.map((field) => field.name));
  const requestedNames = new Set(requested.map((field) => field.name));
  for (const name of asked) {
    if (!knownNames.has(name)) throw refuse('consent_field_unknown', `"fields" names "${name}", which is not a field Signet knows`);
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
