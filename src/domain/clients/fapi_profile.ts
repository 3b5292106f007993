// A client that asks for the FAPI 2.0 Security Profile (client metadata `fapi_profile: "2.0"`)
// must authenticate with private_key_jwt and its own keys and use the authorization code grant
// (with refresh tokens) only; it then gets what the profile requires, whatever else its metadata
// says: pushed authorization requests, DPoP-bound access tokens, and ID tokens signed with an
// algorithm the profile allows. The same rules hold for clients from CLIENTS, from the admin
// API and from dynamic registration: the engine's client validation calls fapiClientProblem.

export const FAPI_PROFILE = '2.0';

/** Whether a client (the engine's, or its metadata) asked for the FAPI 2.0 Security Profile. */
export const isFapiClient = (client: object | undefined) => (client as { fapi_profile?: unknown } | undefined)?.fapi_profile === FAPI_PROFILE;

/** The signing algorithms FAPI 2.0 allows (Security Profile, cryptography and secrets). */
export const FAPI_SIGNING_ALGS = ['PS256', 'ES256', 'EdDSA'] as const;

const FAPI_GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

/** What the profile needs in a client's metadata, as the standard's names. */
export type FapiMetadata = {
  fapi_profile?: unknown;
  token_endpoint_auth_method?: unknown;
  jwks?: unknown;
  jwks_uri?: unknown;
  grant_types?: unknown;
  require_pushed_authorization_requests?: unknown;
  dpop_bound_access_tokens?: unknown;
  id_token_signed_response_alg?: unknown;
};

/** Why this metadata cannot be a FAPI 2.0 client, or undefined when it can (or does not ask to be one). */
export function fapiClientProblem(metadata: FapiMetadata): string | undefined {
  if (metadata.fapi_profile === undefined) return undefined;
  if (metadata.fapi_profile !== FAPI_PROFILE) return `fapi_profile must be "${FAPI_PROFILE}"`;
  if (metadata.token_endpoint_auth_method !== 'private_key_jwt') return 'a FAPI 2.0 client authenticates with private_key_jwt';
  if (metadata.jwks === undefined && metadata.jwks_uri === undefined) return 'a FAPI 2.0 client needs jwks or jwks_uri';
  const grants = Array.isArray(metadata.grant_types) ? metadata.grant_types : ['authorization_code'];
  if (grants.some((grant) => !FAPI_GRANT_TYPES.has(grant))) return 'a FAPI 2.0 client may use the authorization_code and refresh_token grants only';
  return undefined;
}

/**
 * What the profile sets in a FAPI 2.0 client's metadata, whatever the metadata says (the engine
 * fills in its defaults before Signet sees it, so "left out" and "said otherwise" look alike):
 * pushed requests and DPoP-bound tokens, and ID tokens signed with an algorithm the profile
 * allows, the client's own if it named one, else `idTokenAlg`.
 */
export function withFapiDefaults<M extends FapiMetadata>(metadata: M, idTokenAlg: string): M {
  if (metadata.fapi_profile !== FAPI_PROFILE) return metadata;
  const alg = metadata.id_token_signed_response_alg;
  return {
    ...metadata,
    require_pushed_authorization_requests: true,
    dpop_bound_access_tokens: true,
    id_token_signed_response_alg: (FAPI_SIGNING_ALGS as readonly unknown[]).includes(alg) ? alg : idTokenAlg,
  };
}
