// Builds the oidc-provider engine: the standard endpoints with Signet's choices (PKCE S256
// for every client, rotating refresh tokens, keys and clients from configuration) and
// Signet's parts plugged in (adapter, account model, interaction URL, pages).
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config.js';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { AccessHistory } from '../history/access_history.js';
import type { ConsentReceipts } from '../consent/consent_receipts.js';
import type { ProfileStore } from '../profile/profile.js';
import { createOidcAdapter } from '../store/oidc_adapter.js';
import type { Store } from '../store/store.js';
import type { Logger } from '../observability/logger.js';
import type { RenderPage } from '../http/pages.js';
import { keepSignetErrors } from './engine_signet_errors.js';
import { reasonEngineErrors } from './engine_error_reasons.js';
import { createFindAccount } from './account.js';
import { answerEngineOutages, answerOutage, outageIn } from './engine_outages.js';
import { scopeClaims } from '../fields/fields.js';
import { signingKeysOf } from '../keys/signing_keys.js';

export type ProviderDeps = {
  config: Config;
  chainId: number;
  store: Store;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  claims: ClaimsService;
  topics: ClaimTopics;
  renderPage: RenderPage;
  /** OpenID CIBA in poll mode, the owner's inbox as the authentication device (src/ciba/ciba_settings.ts). */
  ciba: NonNullable<NonNullable<Configuration['features']>['ciba']>;
  /** Where the engine's failures are logged (outages answered 503, the rest 500). */
  logger?: Logger;
  /** Where releases through the ID token and userinfo are recorded for the owner. */
  history?: AccessHistory;
  /** The live key check of a refresh (see src/consent_end/refresh_key_check.ts). */
  mayRefresh?: (grantId: string) => Promise<boolean>;
};

export function createProvider(deps: ProviderDeps): Provider {
  const { config, renderPage } = deps;
  const configuration: Configuration = {
    // A consumed refresh token stays for reuse detection as long as the access tokens issued with it.
    adapter: createOidcAdapter(deps.store, { reuseWindowSeconds: config.ttl.accessToken }),
    // The engine gets the OIDC metadata; webhook settings stay Signet's.
    clients: config.clients.map(({ webhook_url: _url, webhook_secret: _secret, ...client }) => ({
      ...client,
      response_types: client.grant_types.includes('authorization_code') ? ['code'] : [],
    })),
    // The configured keys, or a development key (shared with the signals' signer: signing_keys.ts).
    jwks: signingKeysOf(config) as Configuration['jwks'],
    cookies: { keys: [...config.cookieKeys] },
    findAccount: createFindAccount(deps),
    claims: scopeClaims(deps.topics),
    // `ssf`: a client's token of the client credentials grant for its Shared Signals streams.
    scopes: ['openid', 'offline_access', 'ssf', ...deps.topics.all.map((topic) => deps.topics.scopeOf(topic))],
    // The ID token carries the fields kept too, not only userinfo.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      claimsParameter: { enabled: true },
      // A client may introspect and revoke only the tokens issued to it.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: true },
      ciba: deps.ciba,
      // Logout tokens to clients' backchannel_logout_uri (sent through the webhook queue, see
      // src/signals/), `sid` in ID tokens of clients that require it.
      backchannelLogout: { enabled: true },
      // Tokens for a client's own calls (its SSF streams, scope `ssf`), never about an owner.
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          renderPage(ctx, 'logout', { title: 'Sign out', form, host: ctx.host });
        },
        postLogoutSuccessSource: async (ctx) => {
          renderPage(ctx, 'logged_out', { title: 'Signed out' });
        },
      },
    },
    // A login grant is the owner's signed consent: it gets a refresh token, rotated on use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: config.ttl.accessToken,
      AuthorizationCode: 60,
      IdToken: config.ttl.idToken,
      RefreshToken: config.ttl.refreshToken,
      ClientCredentials: config.ttl.accessToken,
      Grant: config.ttl.grant,
      Session: config.ttl.session,
      Interaction: config.ttl.interaction,
      // A CIBA request waits this long for the owner in the inbox.
      BackchannelAuthenticationRequest: 600,
    },
    renderError: async (ctx: KoaContextWithOIDC, out, error) => {
      const outage = outageIn(error);
      if (outage) return answerOutage(ctx, outage, renderPage);
      ctx.status = Math.max(ctx.status, 400);
      renderPage(ctx, 'error', {
        title: 'Something went wrong',
        error: String(out.error),
        description: String(out.error_description ?? ''),
      });
    },
  };
  const provider = new Provider(config.issuer, configuration);
  // Proxy trust (TRUST_PROXY) is set by createApp on both Koa apps, the engine's and Signet's.
  answerEngineOutages(provider, renderPage, deps.logger ?? { error: () => {}, info: () => {} });
  keepSignetErrors(provider);
  reasonEngineErrors(provider);
  return provider;
}
