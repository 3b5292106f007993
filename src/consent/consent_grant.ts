// Turns the fields an owner signed for into the engine's Grant: kept fields are granted,
// unticked ones are recorded as rejected so the engine neither asks again nor releases them.
import type Provider from 'oidc-provider';
import type { RequestedField } from '../fields/fields.js';

export async function saveConsentGrant(
  provider: Provider,
  request: { accountId: string; clientId: string; scope: string; requested: RequestedField[]; kept: string[] },
): Promise<string> {
  const kept = new Set(request.kept);
  const fieldScopes = new Set(request.requested.map((field) => field.scope));
  const keptScopes = new Set(request.requested.filter((field) => kept.has(field.name)).map((field) => field.scope));
  // Scopes that carry no field (openid, offline_access) pass through as requested.
  const otherScopes = request.scope.split(' ').filter((scope) => scope && !fieldScopes.has(scope));

  const grant = new provider.Grant({ accountId: request.accountId, clientId: request.clientId });
  grant.addOIDCScope([...otherScopes, ...keptScopes].join(' '));
  const droppedScopes = [...fieldScopes].filter((scope) => !keptScopes.has(scope));
  if (droppedScopes.length) grant.rejectOIDCScope(droppedScopes.join(' '));
  // Profile fields are OIDC claims of their own; claim topics travel as scopes only.
  const profile = request.requested.filter((field) => field.kind === 'profile');
  const keptProfile = profile.filter((field) => kept.has(field.name)).map((field) => field.name);
  const dropped = profile.filter((field) => !kept.has(field.name)).map((field) => field.name);
  if (keptProfile.length) grant.addOIDCClaims(keptProfile);
  if (dropped.length) grant.rejectOIDCClaims(dropped);
  return grant.save();
}
