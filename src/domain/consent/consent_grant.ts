// Turns the fields an owner signed for into the engine's Grant: kept fields are granted,
// unticked ones are recorded as rejected so the engine neither asks again nor releases them.
// Verified fields are kept claim by claim (`verified`); any one kept grants `verified_claims`.
import type Provider from 'oidc-provider';
import type { RequestedField } from '../fields/fields.js';
import { VERIFIED_CLAIMS, type VerifiedPick, verifiedFieldName } from '../fields/verified_fields.js';

/** The engine's Grant of what the owner kept, with its id, not yet saved. */
export function consentGrant(
  provider: Provider,
  request: {
    accountId: string;
    clientId: string;
    scope: string;
    requested: RequestedField[];
    kept: string[];
    verified?: VerifiedPick[];
    /** Where credential scopes are granted: Signet as credential issuer (a resource, not an OIDC scope). */
    credentialIssuer?: string;
  },
): { grantId: string; save(): Promise<string> } {
  const keptVerified = (request.verified ?? []).flatMap((pick) => pick.claims.map(verifiedFieldName));
  const kept = new Set([...request.kept, ...keptVerified]);
  const fieldScopes = new Set(request.requested.map((field) => field.scope));
  const isCredential = (field: RequestedField) => field.kind === 'credential';
  const keptScopes = new Set(request.requested.filter((field) => kept.has(field.name) && !isCredential(field)).map((field) => field.scope));
  const keptCredentials = request.requested.filter((field) => kept.has(field.name) && isCredential(field)).map((field) => field.scope);
  // Scopes that carry no field (openid, offline_access) pass through as requested.
  const otherScopes = request.scope.split(' ').filter((scope) => scope && !fieldScopes.has(scope));

  const grant = new provider.Grant({ accountId: request.accountId, clientId: request.clientId });
  grant.addOIDCScope([...otherScopes, ...keptScopes].join(' '));
  // A credential is granted on the credential endpoint's resource (its tokens are for it alone).
  if (keptCredentials.length && request.credentialIssuer) grant.addResourceScope(request.credentialIssuer, keptCredentials.join(' '));
  const droppedScopes = [...fieldScopes].filter((scope) => !keptScopes.has(scope) && !keptCredentials.includes(scope));
  if (droppedScopes.length) grant.rejectOIDCScope(droppedScopes.join(' '));
  // Profile fields are OIDC claims of their own; claim topics travel as scopes only.
  const profile = request.requested.filter((field) => field.kind === 'profile');
  const keptProfile = profile.filter((field) => kept.has(field.name)).map((field) => field.name);
  const dropped = profile.filter((field) => !kept.has(field.name)).map((field) => field.name);
  if (keptProfile.length) grant.addOIDCClaims(keptProfile);
  if (dropped.length) grant.rejectOIDCClaims(dropped);
  // What the owner kept of it is in the receipt; the account model releases only that.
  const verified = request.requested.filter((field) => field.kind === 'verified');
  if (verified.some((field) => kept.has(field.name))) grant.addOIDCClaims([VERIFIED_CLAIMS]);
  else if (verified.length) grant.rejectOIDCClaims([VERIFIED_CLAIMS]);
  // The engine names a Grant when it saves it; named here, by the engine's own generator, so
  // that its receipt and the watchlist can be written with it, in the same round trip.
  grant.jti = (grant as unknown as { generateTokenId(): string }).generateTokenId();
  return { grantId: grant.jti, save: () => grant.save() };
}
