import { createDpopNonces, credentialNonceSecret, dpopNonceSecret } from '../domain/dpop/dpop_nonces.js';
import { createDpopCheck } from '../domain/dpop/dpop_proof.js';
import { allFields } from '../domain/fields/fields.js';
import { createAccountFeature } from '../features/account/account_feature.js';
import { createCibaFeature } from '../features/ciba/ciba_feature.js';
import { cibaFeature } from '../features/ciba/ciba_settings.js';
import { createClaimsFeature } from '../features/claim_admin/claims_feature.js';
import { createClientAdminFeature } from '../features/client_admin/client_admin_feature.js';
import { createChainWatching, createLoginEnds } from '../features/consent_end/consent_end_feature.js';
import { createCredentialsFeature } from '../features/credentials/credentials_feature.js';
import { createAccessGrantStore } from '../features/grants/access_grant_store.js';
import { createGrantHolders } from '../features/grants/grant_holders.js';
import { createAccessGrantParts, createGrantsFeature } from '../features/grants/grants_feature.js';
import { createHealthFeature } from '../features/health/health.js';
import { createInteractionFeature } from '../features/interaction/interaction_feature.js';
import { createLandingFeature } from '../features/landing/landing_feature.js';
import { createLoginGrants } from '../features/oidc/login_grants.js';
import { createProvider } from '../features/oidc/provider.js';
import { createOwnerDataFeature } from '../features/owner_data/owner_data_feature.js';
import { createServicesFeature } from '../features/services/services_feature.js';
import { createSignalEmitter, signalRoutes } from '../features/signals/signals_feature.js';
import { createWebhooksFeature } from '../features/webhook_admin/webhooks_feature.js';
import { leavingPage } from '../features/oidc/leaving_page.js';
import { createHttpApp } from '../http/http_app.js';
import { openApiDocumentOf } from '../http/openapi.js';
import { openApiRoute } from '../http/openapi_route.js';
import type { AnyRoute } from '../http/route.js';
import { createOidcAdapter } from '../infra/store/oidc_adapter.js';
import type { AppDeps, SignetApp } from './app_deps.js';
import { type ChainDeps, createAppParts } from './app_parts.js';

export type { AppDeps, ChainDeps, SignetApp };

export function createApp(deps: AppDeps): SignetApp {
  const parts = createAppParts(deps);
  const { config, store } = parts;
  const claims = createClaimsFeature(parts);
  const services = createServicesFeature(parts);
  const logins = createLoginGrants(createOidcAdapter(store));
  const accessGrantStore = createAccessGrantStore(store);
  // Telling the websites (back-channel logout, SSF), built before the engine: its refresh check
  // and the grants emit to it. The clients holding a live grant of an identity are told when its
  // wallets' keys change.
  const clientsOf = createGrantHolders({ grants: accessGrantStore, receipts: parts.receipts, isLoginActive: logins.isActive });
  const emitter = createSignalEmitter({ ...parts, queue: deps.webhooks, clientsOf });
  // What the features below share: the app's parts (every chain with all its parts among them),
  // the owners' requests for Signet's claims, and the signals they emit.
  const shared = { ...parts, claimRequests: claims.claimRequests, signals: emitter.signals, isLoginActive: logins.isActive };
  const loginEnds = createLoginEnds({ ...shared, revokeLoginGrant: logins.revoke });
  // The access grants themselves, before the engine: deleting a client ends those it holds.
  const access = createAccessGrantParts({ ...shared, grants: accessGrantStore, serviceName: services.serviceName, webhooks: deps.webhooks });
  const clientAdmin = createClientAdminFeature({
    ...shared,
    dialAddress: deps.dialAddress,
    ends: {
      revokeLoginGrant: logins.revoke,
      endAccessGrantsOf: access.endAccessGrantsOf,
      removeApiKeysOf: services.apiKeys.removeAll,
      removeSsfStreamsOf: emitter.removeStreamsOf,
    },
  });
  // The engine's DPoP nonces and Signet's routes' are one: one secret, derived once.
  const nonceSecret = dpopNonceSecret(config.cookieKeys);
  const fields = allFields(parts.topics);
  // Credentials for owners' wallets: their issuance is the engine's to call, so it comes first.
  // The proofs' nonces have a secret of their own, derived like the DPoP one.
  const credentials = createCredentialsFeature({
    ...shared,
    watchlists: parts.watchlists,
    nonceSecret: credentialNonceSecret(config.cookieKeys),
    revokeGrant: logins.revoke,
  });
  const provider = createProvider({
    ...shared,
    dpopNonceSecret: nonceSecret,
    ciba: cibaFeature({ ...parts, inbox: parts.backchannel, fields: () => fields }),
    mayRefresh: loginEnds.mayRefresh,
    registeredClients: clientAdmin.registered,
    fetch: clientAdmin.engineFetch,
    credentials: credentials.engine,
  });
  // Signet's routes check DPoP proofs as the engine does, with its nonces and its replay record.
  const engine = { ...shared, provider, checkDpop: createDpopCheck({ provider, nonces: createDpopNonces(nonceSecret) }) };
  const clientsWithEngine = clientAdmin.withEngine(provider);
  const interaction = createInteractionFeature({ ...engine, credentialFields: credentials.fields, dialAddress: deps.dialAddress });
  const grants = createGrantsFeature({ ...engine, services, access, revokeLoginGrant: loginEnds.endLoginGrantById('owner_revoked') });
  const account = createAccountFeature({ ...engine, grants, serviceName: services.serviceName });
  const ownerData = createOwnerDataFeature({
    ...engine,
    credentials,
    grants,
    revokeLoginGrant: loginEnds.endLoginGrantById('erasure'),
    erasureSettings: deps.erasureSettings,
    beforeErasureStep: deps.beforeErasureStep,
  });
  const watching = createChainWatching({
    ...engine,
    access,
    endLoginGrant: loginEnds.endLoginGrant,
    consentEnds: deps.consentEnds,
    credentials: credentials.revocation,
    metrics: deps.metrics,
  });
  const ciba = createCibaFeature({ ...engine, completeConsent: interaction.completeConsent, fields });
  const routes: AnyRoute[] = [
    ...createHealthFeature({ ...parts, watching }).routes,
    // The document is made from this table, this route included: it is read once both exist.
    openApiRoute(() => openApi),
    ...interaction.routes,
    ...account.routes,
    ...ownerData.routes,
    ...grants.routes,
    ...ciba.routes,
    ...credentials.withEngine(provider).routes,
    ...claims.routes,
    ...services.routes,
    ...clientsWithEngine.routes,
    ...createWebhooksFeature({ queue: deps.webhooks, config }).routes,
    ...signalRoutes({ ...engine, streams: emitter.streams, guard: parts.urlGuard }),
    ...createLandingFeature({ ...parts, demo: config.demo.enabled }).routes,
    ...(deps.extraRoutes?.({ renderPage: parts.renderPage, names: parts.names, clients: parts.clients, chains: parts.chains }) ?? []),
  ];
  const openApi = openApiDocumentOf(routes, { issuer: config.issuer });
  // Run-time clients' error and logout redirects go through a page that names their host (decision 74).
  const aroundEngine = [leavingPage({ isConfigured: parts.clients.isConfigured, renderPage: parts.renderPage })];
  const app = createHttpApp({ ...parts, provider, routes, aroundEngine, metrics: deps.metrics });
  const { receipts, history, clients, chains } = parts;
  // What a bare identity address means, for the processes and tests that drive one chain.
  const { profiles, registry, claims: claimsService, issuer } = chains.named(undefined);
  return {
    app,
    provider,
    chains,
    profiles,
    receipts,
    registry,
    history,
    clients,
    claims: claimsService,
    issuer,
    issuerOn: (chainId) => chains.get(chainId)?.issuer,
    apiKeys: services.apiKeys,
    accessGrants: grants.accessGrants,
    chainConsentEnds: watching.chainConsentEnds,
    signals: emitter.signals,
    seedClients: clientsWithEngine.seedClients,
    removeClient: clientAdmin.removeClient,
    erasures: ownerData.erasures,
    routes,
    openApi,
    watcher: watching.watcher,
    watchlist: parts.watchlists(),
    heldElsewhere: parts.heldElsewhere,
  };
}
