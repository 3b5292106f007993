// Every stable `reason` Signet answers with, the error code (and so the HTTP status) it comes
// with, and what it means. Clients and tests match on the reason, never on the sentence; the
// OpenAPI document and the README's list are generated from this table. A reason, once
// published, keeps its name and its meaning.
import type { ErrorCode } from './error_codes.js';

type ReasonEntry = { error: ErrorCode; meaning: string };

/** Refusals of a request as a whole, before any route's own logic. */
const requestReasons = {
  body_too_large: { error: 'payload_too_large', meaning: 'The body is over the route class’s byte limit.' },
  content_encoding_unsupported: { error: 'unsupported_media_type', meaning: 'The body is compressed; send it uncompressed.' },
  content_type_unsupported: { error: 'unsupported_media_type', meaning: 'The body is not of the media type the route reads.' },
  charset_unsupported: { error: 'unsupported_media_type', meaning: 'The body is not in UTF-8.' },
  body_length_mismatch: { error: 'invalid_request', meaning: 'The body does not match its Content-Length.' },
  request_aborted: { error: 'invalid_request', meaning: 'The client stopped sending the body.' },
  unreadable_body: { error: 'invalid_request', meaning: 'The body cannot be read.' },
  invalid_utf8: { error: 'invalid_request', meaning: 'The body is not valid UTF-8.' },
  invalid_json: { error: 'invalid_request', meaning: 'The body is not valid JSON.' },
  json_too_deep: { error: 'invalid_request', meaning: 'The JSON body nests deeper than the route allows.' },
  string_too_long: { error: 'invalid_request', meaning: 'A string in the body is longer than the route allows.' },
  form_too_many_fields: { error: 'invalid_request', meaning: 'The form has more fields than the route allows.' },
  invalid_body: { error: 'invalid_request', meaning: 'A body field is missing or has the wrong form; the sentence names it.' },
  invalid_path: { error: 'invalid_request', meaning: 'A path parameter has the wrong form; the sentence names it.' },
  invalid_query: { error: 'invalid_request', meaning: 'A query parameter has the wrong form; the sentence names it.' },
  query_parameter_repeated: {
    error: 'invalid_request',
    meaning: 'A query parameter came more than once, or in a list form (`name[]`, `name[key]`); the sentence names it. Send each parameter once.',
  },
  route_not_found: { error: 'not_found', meaning: 'No route answers this method and path.' },
  method_not_allowed: { error: 'method_not_allowed', meaning: 'The path exists, but not with this method.' },
  rate_limited: { error: 'rate_limited', meaning: 'Too many requests of this kind; try again after Retry-After.' },
} satisfies Record<string, ReasonEntry>;

/** Outages: never the client's fault; trying again after Retry-After may succeed. */
const outageReasons = {
  store_unavailable: { error: 'temporarily_unavailable', meaning: 'Redis does not answer.' },
  chain_unavailable: { error: 'temporarily_unavailable', meaning: 'The chain’s RPC node refused, failed or was too slow.' },
  dns_unavailable: {
    error: 'temporarily_unavailable',
    meaning: 'The host of a URL Signet would call (a webhook, an SSF endpoint, a client’s URL) could not be resolved now.',
  },
  server_error: { error: 'server_error', meaning: 'Signet failed; the log has the details (never the answer).' },
} satisfies Record<string, ReasonEntry>;

/** Who is calling: sessions, API keys, the admin token, the login's interaction cookie. */
const callerReasons = {
  session_missing: { error: 'invalid_token', meaning: 'No owner session: sign in with your wallet first.' },
  identity_missing: { error: 'access_denied', meaning: 'The signed-in wallet has no identity yet.' },
  sign_in_missing: { error: 'invalid_request', meaning: 'No account sign-in is under way in this browser.' },
  api_key_invalid: { error: 'invalid_client', meaning: 'The X-API-Key is missing, unknown or revoked.' },
  caller_missing: { error: 'invalid_client', meaning: 'Neither an X-API-Key nor an owner session came with the request.' },
  admin_token_invalid: { error: 'invalid_token', meaning: 'The admin token is missing or wrong.' },
  admin_api_off: { error: 'not_found', meaning: 'The admin API is off: ADMIN_TOKEN is not set.' },
  interaction_cookie_missing: { error: 'access_denied', meaning: 'The login’s cookie is missing: continue in the browser that started it.' },
  interaction_mismatch: { error: 'access_denied', meaning: 'The login’s cookie belongs to another login.' },
  interaction_not_found: { error: 'not_found', meaning: 'The login expired or is already finished.' },
  login_refused: { error: 'invalid_request', meaning: 'The engine refused this step of the login; the sentence says why.' },
} satisfies Record<string, ReasonEntry>;

/** The wallet's challenge and signature (login, account sign-in). */
const walletReasons = {
  challenge_missing: { error: 'invalid_request', meaning: 'No challenge was issued for this login or sign-in.' },
  challenge_expired: { error: 'expired', meaning: 'The challenge expired; request a new one.' },
  challenge_used: { error: 'conflict', meaning: 'The challenge was already signed and used.' },
  challenge_burnt: { error: 'conflict', meaning: 'Too many wrong signatures: the challenge is void.' },
  nonce_unknown: { error: 'invalid_request', meaning: 'The signed text names a nonce Signet did not issue.' },
  nonce_other_binding: { error: 'invalid_request', meaning: 'The signed text’s nonce belongs to another login.' },
  message_mismatch: { error: 'invalid_request', meaning: 'The signed text differs from the challenge.' },
  message_malformed: { error: 'invalid_request', meaning: 'The signed text is not an EIP-4361 message.' },
  signature_malformed: { error: 'invalid_request', meaning: 'The signature is not a 0x-prefixed hex signature.' },
  signature_invalid: { error: 'invalid_signature', meaning: 'The signature was not made by the challenge’s wallet.' },
} satisfies Record<string, ReasonEntry>;

/** URLs given at run time that Signet calls (webhooks, SSF endpoints: webhook_url_* kept the name it had before it covered them all), and the admin API of the webhook queue. */
const webhookReasons = {
  dead_letter_not_found: { error: 'not_found', meaning: 'No dead letter with this event id.' },
  webhook_url_not_public: { error: 'invalid_request', meaning: 'The URL resolves to a loopback, private, link-local or metadata address.' },
  webhook_url_unresolvable: { error: 'invalid_request', meaning: 'The URL’s host does not resolve.' },
} satisfies Record<string, ReasonEntry>;

/** Claims: reading them, releasing their data, and the admin API's claim documents. */
const claimReasons = {
  claim_not_found: { error: 'not_found', meaning: 'The identity has no claim with this id.' },
  claim_issuer_untrusted: { error: 'access_denied', meaning: 'The claim’s issuer is not trusted for its topic.' },
  claim_not_confirmed: { error: 'access_denied', meaning: 'The issuer no longer confirms the claim (revoked, or not signed by its key).' },
  claim_expired: { error: 'expired', meaning: 'The claim expired.' },
  claim_data_missing: { error: 'not_found', meaning: 'Signet holds no off-chain data for the claim.' },
  claim_data_mismatch: { error: 'conflict', meaning: 'The claim’s off-chain data does not match its onchain hash.' },
  claim_data_too_deep: { error: 'invalid_request', meaning: 'The claim’s data document nests too deep.' },
  claim_data_too_large: { error: 'invalid_request', meaning: 'The claim’s data document is too large.' },
  claim_verified_claims_invalid: {
    error: 'invalid_request',
    meaning:
      'The claim’s `data.verified_claims` is not one `{ verification, claims }` element of OpenID Identity Assurance; the sentence names the first problem.',
  },
  claim_topic_unknown: { error: 'invalid_request', meaning: '"topic" names no configured claim topic.' },
  claim_expiry_invalid: { error: 'invalid_request', meaning: '"expires_at" is not an ISO-8601 date.' },
  issued_claim_not_found: { error: 'not_found', meaning: 'Signet issued no claim with this id to the identity.' },
  claim_already_revoked: { error: 'conflict', meaning: 'The claim Signet issued was already revoked.' },
} satisfies Record<string, ReasonEntry>;

/** Identities created for owners' wallets. */
const identityReasons = {
  deployment_refused: { error: 'conflict', meaning: 'The chain refused the identity’s deployment.' },
} satisfies Record<string, ReasonEntry>;

/** Identities and the wallets linked to them, read live from the chain. */
const linkReasons = {
  identity_not_registered: { error: 'access_denied', meaning: 'The identity is not one of the IdFactory’s.' },
  identity_not_a_contract: { error: 'access_denied', meaning: 'The address is not an identity contract.' },
  wallet_not_linked: { error: 'access_denied', meaning: 'The wallet holds no MANAGEMENT or ACTION key on the identity.' },
  wallet_without_identity: { error: 'not_found', meaning: 'The IdFactory links no identity to the wallet; name the identity.' },
  chain_not_configured: { error: 'invalid_request', meaning: 'The chain id names no chain this Signet serves.' },
} satisfies Record<string, ReasonEntry>;

/** Access grants and the resources they cover. */
const grantReasons = {
  identity_not_found: { error: 'not_found', meaning: 'No identity of Signet’s IdFactory has this address.' },
  grant_not_found: { error: 'not_found', meaning: 'No access grant with this id for the caller.' },
  grant_expired: { error: 'expired', meaning: 'The access request expired before the owner signed it.' },
  grant_not_pending: { error: 'conflict', meaning: 'The access grant was already decided.' },
  grant_not_active: { error: 'conflict', meaning: 'The grant is not active (already revoked, used or never granted).' },
  grant_used: { error: 'conflict', meaning: 'The immediate grant was already used for its one read.' },
  grant_revoked: { error: 'access_denied', meaning: 'The grant of this token was revoked.' },
  grant_not_usable: { error: 'access_denied', meaning: 'The grant of this token is not active.' },
  grant_missing: { error: 'access_denied', meaning: 'No active grant of the service covers this resource.' },
  identity_not_yours: { error: 'access_denied', meaning: 'An owner can list only the grants of the identity signed in.' },
  owner_proof_missing: { error: 'invalid_token', meaning: 'Neither an owner session nor the owner’s signature of the revocation.' },
  resource_empty: { error: 'not_found', meaning: 'The resource has no data to share.' },
  fields_empty: { error: 'invalid_request', meaning: '"fields" names no field.' },
  field_unknown: { error: 'invalid_request', meaning: '"fields" names a field the resource does not have.' },
  authorization_malformed: { error: 'invalid_token', meaning: 'The Authorization header is not "Bearer <token>" or "DPoP <token>".' },
  token_invalid: { error: 'invalid_token', meaning: 'The access token is invalid, expired or revoked.' },
  token_scope_insufficient: { error: 'insufficient_scope', meaning: 'The token’s grant does not cover this resource.' },
  token_dpop_bound: { error: 'invalid_token', meaning: 'The access token is DPoP-bound: send it as "Authorization: DPoP <token>" with a DPoP proof.' },
  token_not_dpop_bound: { error: 'invalid_token', meaning: 'The access token is not DPoP-bound: send it as "Authorization: Bearer <token>".' },
  dpop_proof_invalid: {
    error: 'invalid_dpop_proof',
    meaning: 'The DPoP proof is missing, malformed, for another request, key or token, too old, or replayed.',
  },
  dpop_nonce_required: { error: 'use_dpop_nonce', meaning: 'Sign a new DPoP proof with the nonce in the DPoP-Nonce header.' },
} satisfies Record<string, ReasonEntry>;

/** The owner's account: sign-in, identity creation, keys, claims and consents. */
const accountReasons = {
  identity_exists: { error: 'invalid_request', meaning: 'The signed-in wallet already has an identity.' },
  identity_not_created: { error: 'not_found', meaning: 'The signed-in wallet has no identity and none is being created.' },
  identity_deployment_off: { error: 'not_found', meaning: 'Signet does not deploy identities here: IDENTITY_DEPLOYER_KEY is not set.' },
  identity_creation_in_progress: { error: 'conflict', meaning: 'An identity is already being created for this wallet.' },
  key_already_held: { error: 'conflict', meaning: 'The wallet already holds a key of this purpose on the identity.' },
  key_not_held: { error: 'not_found', meaning: 'The wallet holds no key of this purpose on the identity.' },
  last_management_key: { error: 'conflict', meaning: 'The last MANAGEMENT key cannot be removed: the identity would be lost.' },
  claim_unconfirmed_by_issuer: { error: 'invalid_request', meaning: 'The claim’s issuer does not confirm the claim to add (signature, data or topic).' },
  claim_topic_not_issued: { error: 'invalid_request', meaning: 'Signet’s claim issuer does not issue claims of this topic.' },
  consent_not_found: { error: 'not_found', meaning: 'No consent receipt with this id for the signed-in identity.' },
  erasure_not_found: { error: 'not_found', meaning: 'No erasure job with this id (or its state is no longer kept).' },
} satisfies Record<string, ReasonEntry>;

/** The login's consent interaction and CIBA decisions. */
const loginReasons = {
  login_client_unknown: { error: 'not_found', meaning: 'The website of this login is no longer registered.' },
  consent_field_unknown: { error: 'invalid_request', meaning: '"fields" names a field Signet does not know.' },
  consent_field_not_requested: { error: 'invalid_request', meaning: '"fields" names a field the website did not ask for.' },
  consent_field_required: { error: 'invalid_request', meaning: '"fields" leaves out a field the website requires.' },
  consent_claim_not_shareable: { error: 'invalid_request', meaning: '"claims" names a claim that is not a valid claim of a kept topic.' },
  consent_verified_not_offered: {
    error: 'invalid_request',
    meaning: '"verified" names a claim or a verified field the consent page does not offer: not a kept verified field, or not held verified by that claim.',
  },
  challenge_identity_missing: { error: 'invalid_request', meaning: 'The signed challenge names no identity: it is not a login challenge.' },
  backchannel_request_not_found: { error: 'not_found', meaning: 'No CIBA login request with this id is waiting for this owner.' },
  backchannel_request_decided: { error: 'conflict', meaning: 'The CIBA login request was already approved or denied.' },
} satisfies Record<string, ReasonEntry>;

/** The admin API: claims Signet issues, clients, services' API keys. */
const adminReasons = {
  claim_issuer_off: { error: 'not_found', meaning: 'Signet is not a claim issuer here: SIGNET_ISSUER_ADDRESS and SIGNET_ISSUER_KEY are not set.' },
  client_not_found: { error: 'not_found', meaning: 'No client has this client_id.' },
  client_configured: {
    error: 'conflict',
    meaning: 'The client is listed in CLIENTS: change or remove it there (the next start would undo a change made through the API).',
  },
  client_id_taken: { error: 'conflict', meaning: 'A client with this client_id already exists.' },
  client_metadata_invalid: { error: 'invalid_request', meaning: 'The client’s metadata breaks a rule of the engine or of Signet; the sentence says which.' },
  service_not_found: { error: 'not_found', meaning: 'No service (client) has this id.' },
  api_key_not_found: { error: 'not_found', meaning: 'The service has no API key with this id.' },
  api_key_revoked: { error: 'conflict', meaning: 'The API key is already revoked: it cannot be rotated or revoked again.' },
  api_key_id_taken: { error: 'conflict', meaning: 'A new API key drew an id already in use; trying again draws another.' },
} satisfies Record<string, ReasonEntry>;

/** The embedded demo's website (its OIDC login) and its built-in wallet. */
const demoReasons = {
  demo_login_missing: { error: 'invalid_request', meaning: 'The demo website’s login cookie is missing: start again from /demo.' },
  demo_client_missing: { error: 'not_found', meaning: 'The demo website’s client "demo" is not registered (CLIENTS).' },
  demo_wallet_method_unsupported: { error: 'invalid_request', meaning: 'The demo wallet does not offer this JSON-RPC method.' },
  demo_wallet_params_invalid: { error: 'invalid_request', meaning: 'The method’s "params" are not of the form it takes.' },
} satisfies Record<string, ReasonEntry>;

/** Shared Signals (SSF) streams that clients manage with a client credentials token. */
const ssfReasons = {
  ssf_scope_missing: { error: 'insufficient_scope', meaning: 'The access token was not issued with scope ssf.' },
  ssf_stream_not_found: { error: 'not_found', meaning: 'The client has no SSF stream with this stream_id.' },
  ssf_delivery_unsupported: {
    error: 'invalid_request',
    meaning: 'The stream’s delivery is not push (urn:ietf:rfc:8935) to an endpoint_url: poll is not offered.',
  },
  ssf_property_mismatch: {
    error: 'invalid_request',
    meaning: 'A transmitter-supplied property in the body (iss, aud, events_supported, events_delivered) differs from the stream’s.',
  },
  ssf_stream_limit: { error: 'conflict', meaning: 'The client already has as many SSF streams as Signet allows (10): delete one first.' },
} satisfies Record<string, ReasonEntry>;

/** The operator's metrics endpoint (its own port). */
const operatorReasons = {
  metrics_unavailable: { error: 'temporarily_unavailable', meaning: 'The metrics could not be collected.' },
} satisfies Record<string, ReasonEntry>;

export const REASONS = {
  ...requestReasons,
  ...outageReasons,
  ...callerReasons,
  ...walletReasons,
  ...webhookReasons,
  ...claimReasons,
  ...identityReasons,
  ...linkReasons,
  ...grantReasons,
  ...accountReasons,
  ...loginReasons,
  ...adminReasons,
  ...demoReasons,
  ...ssfReasons,
  ...operatorReasons,
} as const satisfies Record<string, ReasonEntry>;

export type Reason = keyof typeof REASONS;

export const isReason = (value: unknown): value is Reason => typeof value === 'string' && Object.hasOwn(REASONS, value);
