// The text an owner signs to grant a service access (docs/decisions.md, 16): plain EIP-191 text, since the
// service, not Signet, shows it to the owner. It names Signet, the service, the kind, the
// resource and each field, the identity, the grant, a nonce and an expiry.
import { randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import type { GrantKind } from './access_grant.js';

export function grantChallenge(request: {
  issuer: string;
  serviceName: string;
  kind: GrantKind;
  identitySubject: string;
  resourceUrl: string;
  fields: string[];
  grantId: string;
  expiresAt: string;
}): string {
  const host = new URL(request.issuer).host;
  const how = request.kind === 'immediate' ? 'one-time access (a single read)' : 'lasting access, until you revoke it,';
  return [
    `Signet (${host}) access grant`,
    '',
    `${request.serviceName} asks for ${how} to your data.`,
    '',
    `Identity: ${request.identitySubject}`,
    `Resource: ${request.resourceUrl}`,
    `Fields: ${request.fields.join(', ')}`,
    `Kind: ${request.kind}`,
    `Grant: ${request.grantId}`,
    `Nonce: ${randomBytes(12).toString('base64url')}`,
    `Expires: ${request.expiresAt}`,
  ].join('\n');
}

/** The text an owner signs to revoke a grant without an account session. */
export function revocationText(issuer: string, grantId: string, identity: Address): string {
  return `Signet (${new URL(issuer).host}): revoke access grant ${grantId} of identity ${identity}`;
}
