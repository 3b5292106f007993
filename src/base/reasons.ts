// Every stable `reason` Signet answers with, the error code (and so the HTTP status) it comes
// with, and what it means. Clients and tests match on the reason, never on the sentence; the
// OpenAPI document and the table of docs/integration.md are generated from this table. A reason,
// once published, keeps its name and its meaning; one merged into another stays answered as
// `previous_reason` for a transition (REPLACED_REASONS).
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
  authorization_request_too_large: {
    error: 'invalid_request',
    meaning:
      'An authorization or pushed authorization request is longer than Signet keeps (8 KiB in all), or one of its parameters is (2 KiB); the sentence names it.',
  },
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
  sign_in_missing: { error: 'invalid_request', meaning: 'No account sign-in is under way in this browser.' },
  api_key_invalid: { error: 'invalid_client', meaning: 'The X-API-Key is missing, unknown or revoked.' },
  caller_missing: { error: 'invalid_client', meaning: 'Neither an X-API-Key nor an owner session came with the request.' },
  admin_token_invalid: { error: 'invalid_token', meaning: 'The admin token is missing or wrong.' },
  cross_origin_request: {
    error: 'access_denied',
    meaning:
      'A request that changes an account or a login under way came from a page of another origin than Signet’s (its Origin or Sec-Fetch-Site header says so); nothing was changed.',
  },
  form_token_invalid: {
    error: 'access_denied',
    meaning:
      'A request that changes an account did not carry its session’s form token (the X-CSRF-Token header, or the csrf_token field of a form), or carried another’s; nothing was changed.',
  },
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
  claim_not_found: { error: 'not_found', meaning: 'The identity has no claim with this id (to revoke: none that Signet issued).' },
  claim_issuer_untrusted: { error: 'access_denied', meaning: 'The claim’s issuer is not trusted for its topic.' },
  claim_not_confirmed: {
    error: 'access_denied',
    meaning: 'The claim’s issuer does not confirm the claim (revoked, not signed by its key, or its data or topic differ).',
  },
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
  claim_topic_unknown: {
    error: 'invalid_request',
    meaning: 'The topic named is not one Signet issues claims of here (no configured claim topic of that name).',
  },
  claim_expiry_invalid: { error: 'invalid_request', meaning: '"expires_at" is not an ISO-8601 date.' },
  claim_already_revoked: { error: 'conflict', meaning: 'The claim Signet issued was already revoked.' },
} satisfies Record<string, ReasonEntry>;

/** Identities created for owners' wallets. */
const identityReasons = {
  deployment_refused: { error: 'conflict', meaning: 'The chain refused the identity’s deployment.' },
} satisfies Record<string, ReasonEntry>;

/** Identities and the wallets linked to them, read live from the chain. */
const linkReasons = {
  identity_not_found: {
    error: 'not_found',
    meaning: 'The address is not an identity of Signet’s IdFactory: not registered with it, or no identity contract at all.',
  },
  wallet_not_linked: { error: 'access_denied', meaning: 'The wallet holds no MANAGEMENT or ACTION key on the identity.' },
  wallet_without_identity: {
    error: 'not_found',
    meaning: 'The wallet has no identity: the IdFactory links none to it and none is being created. At login, name the identity; in the account, create it.',
  },
  chain_not_configured: { error: 'invalid_request', meaning: 'The chain id names no chain this Signet serves.' },
} satisfies Record<string, ReasonEntry>;

/** Access grants and the resources they cover. */
const grantReasons = {
  grant_not_found: { error: 'not_found', meaning: 'No access grant with this id for the caller.' },
  grant_expired: { error: 'expired', meaning: 'The access request expired before the owner signed it.' },
  grant_not_pending: { error: 'conflict', meaning: 'The access grant was already decided.' },
  grant_not_active: {
    error: 'conflict',
    meaning:
      'The grant is no longer active (already revoked, used, expired or denied), so the change asked of it does not apply. The sentence names its state.',
  },
  grant_missing: { error: 'access_denied', meaning: 'No active grant of the service covers this resource.' },
  identity_not_yours: { error: 'access_denied', meaning: 'An owner can list only the grants of the identity signed in.' },
  owner_proof_missing: { error: 'invalid_token', meaning: 'Neither an owner session nor the owner’s signature of the revocation.' },
  resource_empty: { error: 'not_found', meaning: 'The resource has no data to share.' },
  fields_empty: { error: 'invalid_request', meaning: '"fields" names no field.' },
  field_unknown: { error: 'invalid_request', meaning: '"fields" names a field Signet does not know, or one the resource does not have.' },
  authorization_malformed: { error: 'invalid_token', meaning: 'The Authorization header is not "Bearer <token>" or "DPoP <token>".' },
  token_invalid: { error: 'invalid_token', meaning: 'The access token is invalid, expired or revoked.' },
  token_revoked: {
    error: 'invalid_token',
    meaning:
      'The access token’s grant was revoked (by its owner, a key removed on chain, an erasure or the service’s removal): the token is dead; ask for a new grant.',
  },
  token_used: { error: 'invalid_token', meaning: 'The access token of an immediate grant was used for its one read: the token is dead; ask for a new grant.' },
  token_scope_insufficient: {
    error: 'insufficient_scope',
    meaning: 'The access token does not cover this resource: its grant is for another, or it lacks the scope the route needs (ssf for the SSF routes).',
  },
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
  identity_deployment_off: { error: 'not_found', meaning: 'Signet does not deploy identities here: IDENTITY_DEPLOYER_KEY is not set.' },
  identity_creation_in_progress: { error: 'conflict', meaning: 'An identity is already being created for this wallet.' },
  key_already_held: { error: 'conflict', meaning: 'The wallet already holds a key of this purpose on the identity.' },
  key_not_held: { error: 'not_found', meaning: 'The wallet holds no key of this purpose on the identity.' },
  last_management_key: { error: 'conflict', meaning: 'The last MANAGEMENT key cannot be removed: the identity would be lost.' },
  consent_not_found: { error: 'not_found', meaning: 'No consent receipt with this id for the signed-in identity.' },
  erasure_not_found: { error: 'not_found', meaning: 'No erasure job with this id (or its state is no longer kept).' },
  credential_not_found: { error: 'not_found', meaning: 'No credential with this id was issued to the signed-in identity (or it has expired).' },
  credential_offer_not_found: { error: 'not_found', meaning: 'No credential offer at this address: it was never made, or its 10 minutes have passed.' },
  credential_type_unknown: { error: 'invalid_request', meaning: 'Signet issues no credential of this configuration id (see the credential issuer metadata).' },
} satisfies Record<string, ReasonEntry>;

/** The credential endpoint's own refusals (OpenID4VCI's errors carry their code as reason): its bounds. */
const credentialIssuanceReasons = {
  credential_token_spent: {
    error: 'credential_request_denied',
    meaning: 'This access token has received its credentials already (one request, up to 10 proofs, per token): ask the owner for a new offer.',
  },
  credentials_daily_limit: {
    error: 'rate_limited',
    meaning: 'The identity received as many credentials in the last 24 hours as Signet issues (CREDENTIALS_PER_IDENTITY_PER_DAY): try again after Retry-After.',
  },
  credential_status_full: { error: 'temporarily_unavailable', meaning: 'No status list has a free slot now; slots come free as credentials expire.' },
} satisfies Record<string, ReasonEntry>;

/** The login's consent interaction and CIBA decisions. */
const loginReasons = {
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
  client_logo_unavailable: {
    error: 'not_found',
    meaning:
      'Signet serves no logo for this client: none given, not an https URL on a redirect URI’s host, or its image unreachable, over 100 KiB, or not a PNG, JPEG, WebP or GIF.',
  },
  client_not_found: {
    error: 'not_found',
    meaning:
      'No client has this id: none registered by it, the website of a login no longer registered, or the demo website’s client "demo" missing from CLIENTS.',
  },
  client_configured: {
    error: 'conflict',
    meaning: 'The client is listed in CLIENTS: change or remove it there (the next start would undo a change made through the API).',
  },
  client_id_taken: { error: 'conflict', meaning: 'A client with this client_id already exists.' },
  client_metadata_invalid: { error: 'invalid_request', meaning: 'The client’s metadata breaks a rule of the engine or of Signet; the sentence says which.' },
  api_key_not_found: { error: 'not_found', meaning: 'The service has no API key with this id.' },
  api_key_revoked: { error: 'conflict', meaning: 'The API key is already revoked: it cannot be rotated or revoked again.' },
  api_key_id_taken: { error: 'conflict', meaning: 'A new API key drew an id already in use; trying again draws another.' },
} satisfies Record<string, ReasonEntry>;

/** The embedded demo's website (its OIDC login) and its built-in wallet. */
const demoReasons = {
  demo_login_missing: { error: 'invalid_request', meaning: 'The demo website’s login cookie is missing: start again from /demo.' },
  demo_wallet_method_unsupported: { error: 'invalid_request', meaning: 'The demo wallet does not offer this JSON-RPC method.' },
  demo_wallet_params_invalid: { error: 'invalid_request', meaning: 'The method’s "params" are not of the form it takes.' },
} satisfies Record<string, ReasonEntry>;

/** Shared Signals (SSF) streams that clients manage with a client credentials token. */
const ssfReasons = {
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
  ...credentialIssuanceReasons,
  ...loginReasons,
  ...adminReasons,
  ...demoReasons,
  ...ssfReasons,
  ...operatorReasons,
} as const satisfies Record<string, ReasonEntry>;

export type Reason = keyof typeof REASONS;

export const isReason = (value: unknown): value is Reason => typeof value === 'string' && Object.hasOwn(REASONS, value);

/**
 * Reasons merged into another of the same meaning (docs/decisions.md, 49; a dead grant token's
 * words, 59): each old word and the reason sent in its place. Clients matched on the old words,
 * so until PREVIOUS_REASON_UNTIL a refusal that would have carried one still names it, as
 * `previous_reason` beside `reason`.
 */
export const REPLACED_REASONS = {
  identity_missing: 'wallet_without_identity',
  identity_not_created: 'wallet_without_identity',
  identity_not_registered: 'identity_not_found',
  identity_not_a_contract: 'identity_not_found',
  grant_not_usable: 'token_invalid',
  grant_revoked: 'token_revoked',
  grant_used: 'token_used',
  service_not_found: 'client_not_found',
  login_client_unknown: 'client_not_found',
  demo_client_missing: 'client_not_found',
  consent_field_unknown: 'field_unknown',
  claim_unconfirmed_by_issuer: 'claim_not_confirmed',
  claim_topic_not_issued: 'claim_topic_unknown',
  issued_claim_not_found: 'claim_not_found',
  ssf_scope_missing: 'token_scope_insufficient',
} as const satisfies Record<string, Reason>;

export type ReplacedReason = keyof typeof REPLACED_REASONS;

/** The old words a reason was sent as before it replaced them. */
export type ReplacedBy<R extends Reason> = { [Old in ReplacedReason]: (typeof REPLACED_REASONS)[Old] extends R ? Old : never }[ReplacedReason];

/** The last day (UTC) `previous_reason` is sent; from the day after, only `reason` is. */
export const PREVIOUS_REASON_UNTIL = '2027-06-30';

const previousReasonEnds = Date.parse(`${PREVIOUS_REASON_UNTIL}T00:00:00Z`) + 24 * 60 * 60 * 1000;

/** Whether a refusal answered at `now` (ms) still names the old word it replaces. */
export const previousReasonSent = (now: number) => now < previousReasonEnds;
