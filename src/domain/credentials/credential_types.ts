// The credentials Signet issues, one type per `vct`: the age credential (yes/no proofs derived
// from a verified date of birth) and, per claim topic that holds verified data, the verified
// data itself. Each type is a credential configuration of the issuer metadata (OpenID4VCI 1.0),
// granted by a scope of its own, and has type metadata served at its `vct` (SD-JWT VC).
import type { FieldDefinition } from '../fields/fields.js';
import { VERIFIED_SCOPE_CLAIMS, type VerifiedClaimName, verifiedClaimLabel } from '../fields/verified_fields.js';

export type CredentialType =
  | { id: 'age'; kind: 'age'; vct: string; scope: string; name: string }
  | { id: string; kind: 'verified'; topic: string; vct: string; scope: string; name: string };

/** The verified claims a topic's credential carries, each a disclosure of its own. */
export const VERIFIED_CREDENTIAL_CLAIMS: readonly VerifiedClaimName[] = VERIFIED_SCOPE_CLAIMS;

const SLUG = /^[a-z0-9_]+$/;

export function credentialTypes(issuer: string, verifiedTopics: readonly string[]): CredentialType[] {
  const base = `${issuer.replace(/\/$/, '')}/credentials/types`;
  return [
    { id: 'age', kind: 'age', vct: `${base}/age`, scope: 'credential:age', name: 'Age proofs' },
    ...verifiedTopics
      .filter((topic) => SLUG.test(topic))
      .map((topic) => ({
        id: `verified_${topic}`,
        kind: 'verified' as const,
        topic,
        vct: `${base}/verified_${topic}`,
        scope: `credential:verified_${topic}`,
        name: `Verified data (${topic})`,
      })),
  ];
}

const AGE_WORDS = (threshold: string) => `${threshold} or over`;

/** The configuration the issuer metadata lists for a type (credential_configurations_supported). */
export function configurationOf(type: CredentialType, thresholds: readonly number[]) {
  const claims =
    type.kind === 'age'
      ? thresholds.map((threshold) => ({ path: ['age_equal_or_over', String(threshold)], display: [{ name: AGE_WORDS(String(threshold)), locale: 'en' }] }))
      : VERIFIED_CREDENTIAL_CLAIMS.map((claim) => ({ path: [claim], display: [{ name: claim.replace(/_/g, ' '), locale: 'en' }] }));
  return {
    format: 'dc+sd-jwt',
    vct: type.vct,
    scope: type.scope,
    cryptographic_binding_methods_supported: ['jwk'],
    credential_signing_alg_values_supported: ['ES256'],
    proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
    credential_metadata: { display: [{ name: type.name, locale: 'en' }], claims },
  };
}

/**
 * The consent page's field of each type: a wallet asking for a credential through the
 * authorization code flow names its scope, and the owner's signed text names the credential
 * and everything it would carry.
 */
export function credentialFields(types: readonly CredentialType[], thresholds: readonly number[]): FieldDefinition[] {
  return types.map((type) => {
    const carries =
      type.kind === 'age'
        ? thresholds.map((threshold) => AGE_WORDS(String(threshold))).join(', ')
        : VERIFIED_CREDENTIAL_CLAIMS.map(verifiedClaimLabel).join(', ');
    return {
      name: type.scope,
      scope: type.scope,
      label: `${type.name.toLowerCase()} credential for your wallet (${carries})`,
      description:
        type.kind === 'age'
          ? `A credential for your wallet that answers yes or no to ${carries}, from your verified date of birth, which it never holds`
          : `A credential for your wallet holding your ${carries}, as verified in your ${type.topic} claim`,
      kind: 'credential' as const,
      resource: type.vct,
    };
  });
}

/** SD-JWT VC type metadata, served at the type's `vct`. */
export function typeMetadataOf(type: CredentialType, thresholds: readonly number[]) {
  const configuration = configurationOf(type, thresholds);
  return {
    vct: type.vct,
    name: type.name,
    description:
      type.kind === 'age'
        ? 'Whether the holder is at least each age named, derived from a date of birth a trusted issuer verified on chain; never the date itself.'
        : `The data a trusted issuer verified, held in the holder's onchain ${type.topic} claim.`,
    display: [{ locale: 'en', name: type.name }],
    claims: configuration.credential_metadata.claims.map((claim) => ({ ...claim, sd: 'always' })),
  };
}
