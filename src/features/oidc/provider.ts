// Builds the oidc-provider engine: the standard endpoints with Signet's choices (PKCE S256
// for every client, rotating refresh tokens, keys from configuration, clients from Signet's
// client records) and Signet's parts plugged in (adapter, account model, interaction URL, pages).

import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import { LANGUAGES } from '../../base/languages.js';
import { SIGNET_CLIENT_METADATA, signetMetadataProblem } from '../../config/client_metadata.js';
import type { Config } from '../../config/config.js';
import { LOCALIZED_NAME_FIELDS } from '../../domain/clients/client_presentation.js';
import { FAPI_PROFILE, fapiClientProblem, isFapiClient, withFapiDefaults } from '../../domain/clients/fapi_profile.js';
import type { RegisteredClients } from '../../domain/clients/registered_clients.js';
import { DPOP_ALGS } from '../../domain/dpop/dpop_proof.js';
import { scopeClaims } from '../../domain/fields/fields.js';
import { claimsParameterProblem, listsWrapped, purposeProblem } from '../../domain/fields/verified_claims_request.js';
import { VERIFIED_SCOPE } from '../../domain/fields/verified_fields.js';
import type { RenderPage } from '../../http/pages.js';
import { fapiSigningAlgOf, signingKeysOf } from '../../infra/keys/signing_keys.js';
import { type Logger, silentLogger } from '../../infra/observability/logger.js';
import type { ClientRecords } from '../../infra/store/client_records.js';
import { createOidcAdapter } from '../../infra/store/oidc_adapter.js';
import type { Store } from '../../infra/store/store.js';
import { type AccountDeps, createFindAccount, readAccountAhead } from './account.js';
import { reasonEngineErrors } from './engine_error_reasons.js';
import { explainRefusedFetches } from './engine_fetch_refusals.js';
import { answerEngineOutages, answerOutage, outageIn } from './engine_outages.js';
import { keepSignetErrors } from './engine_signet_errors.js';
import { identityAssuranceMetadata } from './identity_assurance_metadata.js';

/** The engine's deps: the account model's (the claims it releases, the history, the refresh check), and its own. */
export type ProviderDeps = AccountDeps & {
  config: Config;
  /** The DPoP nonce secret every process shares, derived once (app.ts): Signet's routes use the same. */
  dpopNonceSecret: Buffer;
  store: Store;
  renderPage: RenderPage;
  /** OpenID CIBA in poll mode, the owner's inbox as the authentication device (src/features/ciba/ciba_settings.ts). */
  ciba: NonNullable<NonNullable<Configuration['features']>['ciba']>;
  /** Where the engine's failures are logged (outages answered 503, the rest 500). */
  logger?: Logger;
  /** Where the engine's clients live (src/infra/store/client_records.ts), shared with Signet's client registry. */
  clientRecords: ClientRecords;
  /** Signet's checks of a client registered by RFC 7591 and what deleting one does (src/domain/clients/registered_clients.ts). */
  registeredClients?: RegisteredClients;
  /** How the engine fetches a client's jwks_uri and sector_identifier_uri: through Signet's URL guard (src/infra/outbound/guarded_fetch.ts). */
  fetch: NonNullable<Configuration['fetch']>;
  /**
   * Credentials for owners' wallets (OpenID4VCI, src/features/credentials/): the engine's feature
   * with Signet's issuance, the scopes the credential endpoint's tokens carry, and how long an offer waits.
   */
  credentials?: {
    openid4vci: NonNullable<NonNullable<Configuration['features']>['openid4vci']>;
    scopes: readonly string[];
    /**
     * The audience of the credential endpoint's tokens: from the issuer, not from a request's
     * host, so that every process behind the issuer takes the tokens every other one issued.
     */
    audience: string;
    offerSeconds: number;
    /** The wallets' client, whose grants (credential offers) live `offerGrantSeconds`, not a login's. */
    walletClientId: string;
    offerGrantSeconds: number;
    /** The engine's clients with the wallets' own in front (src/features/credentials/wallet_client.ts). */
    clients: ClientRecords;
  };
};

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export function createProvider(deps: ProviderDeps): Provider {
  const { config, renderPage } = deps;
  const signingKeys = signingKeysOf(config);
  const fapiAlg = fapiSigningAlgOf(signingKeys);
  const configuration: Configuration = {
    // Every URL the engine fetches for a client goes through Signet's guard: checked, pinned,
    // redirects checked hop by hop (src/infra/outbound/), never the engine's own.
    fetch: deps.fetch,
    // A stranger's jwks_uri or sector_identifier_uri cannot stream into memory: a key set or a
    // list of redirect URIs is a few kilobytes (the engine's own bound is none).
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024, jwks_uri: 64 * 1024, sector_identifier_uri: 64 * 1024 },
    // A consumed refresh token stays for reuse detection as long as the access tokens issued with it.
    // Every client is a dynamic client of the engine, read from Signet's client records (CLIENTS
    // written there at start, others added at run time: src/domain/clients/, decisions 22 to 25).
    adapter: createOidcAdapter(deps.store, {
      reuseWindowSeconds: config.ttl.accessToken,
      // A grant's live access tokens, and a client's own, are bounded (docs/data.md).
      accessTokensPerGrant: config.tokenLimits.accessTokensPerGrant,
      clientCredentialsPerClient: config.tokenLimits.clientCredentialsPerClient,
      clients: deps.credentials?.clients ?? deps.clientRecords,
      registeredClients: deps.registeredClients,
      // The store's ReadAccountAhead port, filled by the account model: what the claims and checks
      // of a code or token read next goes out with its Grant's read (decision 57).
      readAccountAhead: readAccountAhead(deps),
    }),
    // `fapi_profile`: "2.0" puts a client under the FAPI 2.0 Security Profile (src/domain/clients/fapi_profile.ts).
    extraClientMetadata: {
      // webhook_url, webhook_secret: where a service's access-grant notifications go (src/config/client_metadata.ts).
      // client_name#fr…: the client's name in each language Signet speaks (Dynamic Client Registration §2.1).
      properties: ['fapi_profile', ...SIGNET_CLIENT_METADATA, ...LOCALIZED_NAME_FIELDS],
      validator(_ctx, key, value, metadata) {
        if ((LOCALIZED_NAME_FIELDS as readonly string[]).includes(key)) {
          if (value !== undefined && (typeof value !== 'string' || !value.trim())) throw new errors.InvalidClientMetadata(`${key} must be non-empty text`);
          return;
        }
        if (key === 'webhook_url' || key === 'webhook_secret') {
          const problem = signetMetadataProblem(key, value);
          if (problem) throw new errors.InvalidClientMetadata(problem);
          return;
        }
        if (key !== 'fapi_profile') return;
        const problem = fapiClientProblem(metadata);
        if (problem) throw new errors.InvalidClientMetadata(problem);
        if (metadata.fapi_profile !== FAPI_PROFILE) return;
        if (!fapiAlg) throw new errors.InvalidClientMetadata('Signet has no signing key a FAPI 2.0 client accepts (PS256, ES256 or EdDSA)');
        Object.assign(metadata, withFapiDefaults(metadata, fapiAlg));
      },
    },
    // The configured keys, or a development key (shared with the signals' signer: signing_keys.ts).
    jwks: signingKeys as Configuration['jwks'],
    cookies: { keys: [...config.cookieKeys] },
    findAccount: createFindAccount(deps),
    claims: scopeClaims(deps.topics),
    // `ssf`: a client's token of the client credentials grant for its Shared Signals streams.
    // `verified_claims`: a verified name, date of birth and nationality (docs/verified-claims.md).
    scopes: ['openid', 'offline_access', 'ssf', ...deps.topics.all.map((topic) => deps.topics.scopeOf(topic)), VERIFIED_SCOPE],
    // OpenID Connect for Identity Assurance: what Signet releases in verified_claims.
    discovery: {
      ...identityAssuranceMetadata(deps.topics),
      // The languages of the consent page, chosen by `ui_locales` (decision 80).
      ui_locales_supported: [...LANGUAGES],
      // OpenID4VCI: a wallet redeems an offer without a client_id (the wallets' client stands in).
      ...(deps.credentials ? { 'pre-authorized_grant_anonymous_access_supported': true } : {}),
    },
    // The drafts' `purpose` parameter: why the website asks, shown to the owner as it is.
    extraParams: {
      purpose(_ctx, value) {
        const problem = value === undefined ? undefined : purposeProblem(value, 'purpose');
        if (problem) throw new errors.InvalidRequest(problem);
      },
    },
    // The ID token carries the fields kept too, not only userinfo.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // One list of DPoP proof algorithms for the engine's endpoints and Signet's (src/domain/dpop/dpop_proof.ts).
    enabledJWA: { dPoPSigningAlgValues: [...DPOP_ALGS] as NonNullable<Configuration['enabledJWA']>['dPoPSigningAlgValues'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // FAPI 2.0 for the clients that ask for it; every other client as before.
      fapi: { enabled: true, profile: (_ctx, client) => (isFapiClient(client) ? '2.0' : undefined) },
      // RFC 9126 for any client that wants it; required of clients with require_pushed_authorization_requests.
      pushedAuthorizationRequests: { enabled: true },
      // RFC 9449 for any client that wants it; a server nonce is required of FAPI 2.0 clients.
      // The nonce secret is shared by every process (src/domain/dpop/dpop_nonces.ts).
      dPoP: {
        enabled: true,
        nonceSecret: deps.dpopNonceSecret,
        requireNonce: (ctx) => isFapiClient(ctx.oidc.client),
      },
      // Signed request objects (JAR, RFC 9101), by value or pushed; unsigned ones stay refused.
      requestObjects: { enabled: true, requireSignedRequestObject: false },
      // verified_claims in the standard's shape, and every `purpose` 3 to 300 characters (src/domain/fields/verified_claims_request.ts).
      claimsParameter: {
        enabled: true,
        assertClaimsParameter(ctx, claims) {
          const problem = claimsParameterProblem(claims as Record<string, unknown>);
          if (problem) throw new errors.InvalidRequest(problem);
          // A list of verified_claims requests goes on wrapped: the engine drops a list.
          const wrapped = listsWrapped(claims as Record<string, unknown>);
          if (wrapped && ctx.oidc.params) ctx.oidc.params.claims = JSON.stringify(wrapped);
        },
      },
      // A client may introspect and revoke only the tokens issued to it.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      ciba: deps.ciba,
      // Logout tokens to clients' backchannel_logout_uri (sent through the webhook queue, see
      // src/features/signals/), `sid` in ID tokens of clients that require it.
      backchannelLogout: { enabled: true },
      // Tokens for a client's own calls (its SSF streams, scope `ssf`), never about an owner.
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          renderPage(ctx, 'logout', { form, host: ctx.host, languageHint: { uiLocales: ctx.oidc?.params?.ui_locales } });
        },
        postLogoutSuccessSource: async (ctx) => {
          renderPage(ctx, 'logged_out', { languageHint: { uiLocales: ctx.oidc?.params?.ui_locales } });
        },
      },
      // Dynamic client registration (RFC 7591) and its management (RFC 7592), when
      // CLIENT_REGISTRATION opens it (decision 25); the adapter checks Signet's rules first.
      registration: {
        enabled: config.clientRegistration !== 'off',
        initialAccessToken: config.clientRegistration === 'initial_access_token' ? (config.registrationAccessToken ?? false) : false,
      },
      registrationManagement: { enabled: config.clientRegistration !== 'off', rotateRegistrationAccessToken: true },
      ...(deps.credentials
        ? {
            openid4vci: deps.credentials.openid4vci,
            // The credential endpoint takes tokens whose audience it is: a wallet's token names
            // Signet (the credential issuer) as its resource, and carries the credential scopes.
            resourceIndicators: {
              enabled: true,
              // A request for a credential (its scope, or the offer's grant) is for the credential endpoint.
              defaultResource: async (ctx) => {
                const asked = String(ctx.oidc.params?.scope ?? '').split(' ');
                const forCredential = ctx.oidc.params?.grant_type === PRE_AUTHORIZED || asked.some((scope) => deps.credentials!.scopes.includes(scope));
                return forCredential ? config.issuer : undefined;
              },
              useGrantedResource: async () => true,
              getResourceServerInfo: async (_ctx, resource) => {
                if (resource !== config.issuer) throw new errors.InvalidTarget();
                return {
                  scope: deps.credentials!.scopes.join(' '),
                  audience: deps.credentials!.audience,
                  accessTokenFormat: 'opaque',
                  accessTokenTTL: config.ttl.accessToken,
                };
              },
            },
          }
        : {}),
      // The engine's types expect rich authorization requests beside OpenID4VCI; Signet grants
      // credentials by scope alone (decision 53), without `authorization_details`.
    } as NonNullable<Configuration['features']>,
    // A login grant is the owner's signed consent: it gets a refresh token, rotated on use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Rotated on use, except for FAPI 2.0 clients: the profile asks servers not to rotate, their
    // refresh tokens being bound to the client's key authentication already.
    rotateRefreshToken: (ctx) => !isFapiClient(ctx.oidc.client),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: config.ttl.accessToken,
      AuthorizationCode: 60,
      IdToken: config.ttl.idToken,
      RefreshToken: config.ttl.refreshToken,
      ClientCredentials: config.ttl.accessToken,
      Grant: (_ctx, grant) => (deps.credentials && grant.clientId === deps.credentials.walletClientId ? deps.credentials.offerGrantSeconds : config.ttl.grant),
      Session: config.ttl.session,
      Interaction: config.ttl.interaction,
      // A CIBA request waits this long for the owner in the inbox.
      BackchannelAuthenticationRequest: 600,
      // A credential offer waits this long for the wallet.
      PreAuthorizedCode: deps.credentials?.offerSeconds ?? 600,
    },
    renderError: async (ctx: KoaContextWithOIDC, out, error) => {
      const outage = outageIn(error);
      if (outage) return answerOutage(ctx, outage, renderPage);
      ctx.status = Math.max(ctx.status, 400);
      renderPage(ctx, 'error', {
        languageHint: { uiLocales: ctx.oidc?.params?.ui_locales },
        error: String(out.error),
        description: String(out.error_description ?? ''),
      });
    },
  };
  const provider = new Provider(config.issuer, configuration);
  // Proxy trust (TRUST_PROXY) is set by createApp on both Koa apps, the engine's and Signet's.
  answerEngineOutages(provider, renderPage, deps.logger ?? silentLogger);
  keepSignetErrors(provider);
  explainRefusedFetches(provider, renderPage);
  reasonEngineErrors(provider);
  return provider;
}
