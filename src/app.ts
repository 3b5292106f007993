// createApp(deps) assembles Signet: the shared parts, each feature (its services and its
// routes), the engine, and one route table served by Koa in front of the engine. It does no
// I/O of its own: the store, the chain client and the clock come in as deps.
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { createAccountFeature } from './account/account_feature.js';
import { type ChainDeps, createAppParts, silentLogger } from './app_parts.js';
import { createCibaFeature } from './ciba/ciba_feature.js';
import { cibaFeature } from './ciba/ciba_settings.js';
import { createClaimsFeature } from './claims/claims_feature.js';
import type { ClaimsService } from './claims/claims_service.js';
import type { DisplayNames } from './claims/display_names.js';
import type { SignetIssuer } from './claims/signet_issuer.js';
import type { Config } from './config.js';
import type { AccessGrants } from './grants/access_grants.js';
import { createGrantsFeature } from './grants/grants_feature.js';
import type { Logger } from './http/error_handler.js';
import { healthRoutes } from './http/health.js';
import { createHttpApp } from './http/http_app.js';
import { type OpenApiDocument, openApiDocumentOf } from './http/openapi.js';
import { openApiRoute } from './http/openapi_route.js';
import type { RenderPage } from './http/pages.js';
import type { AnyRoute } from './http/route.js';
import type { IdentityRegistry } from './identity/identity_registry.js';
import type { ConsentReceipts } from './interaction/consent_receipts.js';
import { createInteractionFeature } from './interaction/interaction_feature.js';
import { createLandingFeature } from './landing/landing_feature.js';
import type { WebhookQueue } from './notify/webhook_queue.js';
import type { ResolveHost } from './notify/webhook_url_guard.js';
import { createWebhooksFeature } from './notify/webhooks_feature.js';
import { allFields } from './oidc/fields.js';
import { createProvider } from './oidc/provider.js';
import { createLoginGrantRevoker } from './oidc/revoke_login_grant.js';
import type { Metrics } from './observability/metrics.js';
import type { ProfileStore } from './profile/profile.js';
import type { ApiKeys } from './services/api_keys.js';
import { createServicesFeature } from './services/services_feature.js';
import { type AccessHistory, createAccessHistory } from './history/access_history.js';
import { createHistoryLog } from './history/history_log.js';
import type { ErasureJobs, ErasureSettings } from './owner_data/erasure_jobs.js';
import type { ErasureStep } from './owner_data/erasure_steps.js';
import { createOwnerDataFeature } from './owner_data/owner_data_feature.js';
import { createOidcAdapter } from './store/oidc_adapter.js';
import type { Store } from './store/store.js';

export { type ChainDeps, silentLogger };

export type AppDeps = {
  config: Config;
  store: Store;
  chain: ChainDeps;
  logger?: Logger;
  /** Prometheus metrics of this process (off when absent). */
  metrics?: Metrics;
  /** The clock, in epoch milliseconds; tests freeze it. */
  now?: () => number;
  /** The embedded demo offers its built-in wallet on the consent page. */
  demoWallet?: boolean;
  /** Where access-grant notifications to services go (Redis Streams, or memory in the demo). */
  webhooks: WebhookQueue;
  /** DNS for owners' webhook URLs, checked at save (default: the system resolver). */
  resolveHost?: ResolveHost;
  /** Extra route declarations, in the table with Signet's own (the embedded demo's relying party). */
  extraRoutes?: (parts: { renderPage: RenderPage; names: DisplayNames }) => AnyRoute[];
  /** Erasure job timing (tests shorten the lease and the sweep). */
  erasureSettings?: Partial<ErasureSettings>;
  /** Called before each erasure step (tests cut a process there). */
  beforeErasureStep?: (step: ErasureStep) => Promise<void>;
};

export type SignetApp = {
  app: Koa;
  provider: Provider;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  registry: IdentityRegistry;
  claims: ClaimsService;
  issuer?: SignetIssuer;
  apiKeys: ApiKeys;
  accessGrants: AccessGrants;
  history: AccessHistory;
  /** Erasure jobs: start() resumes open ones and sweeps for those whose process died; stop() ends the sweep. */
  erasures: ErasureJobs;
  /** Every Signet route, as declared (the router and /openapi.json are made from it). */
  routes: readonly AnyRoute[];
  openApi: OpenApiDocument;
};


export function createApp(deps: AppDeps): SignetApp {
  const parts = createAppParts(deps);
  const { config, store, chain, backchannel, now } = parts;
  const claims = createClaimsFeature({ config, client: chain.client, store, registry: parts.registry, now });
  // What the login, the account and CIBA read of claims.
  const claimParts = { claims: claims.claims, topics: claims.topics, names: claims.names, reader: claims.reader, claimRequests: claims.claimRequests };
  const fields = allFields(claims.topics);
  const ciba = cibaFeature({ ...parts, inbox: backchannel, fields: () => fields });
  const services = createServicesFeature({ config, store, now });
  const history = createAccessHistory({
    log: createHistoryLog(store, now),
    settings: config.retention,
    clientName: services.serviceName,
    now,
    onLost: (error) => parts.logger.error('an access history entry was not recorded (the release went ahead)', error),
  });
  const provider = createProvider({ ...parts, ...claimParts, ciba, history });
  const interaction = createInteractionFeature({ ...parts, provider, grantTtlSeconds: config.ttl.grant, ...claimParts });
  const account = createAccountFeature({
    ...parts,
    ...claimParts,
    webhooks: { allowPrivate: config.webhooks.allowPrivate, resolveHost: deps.resolveHost },
    identityDeployerKey: config.identityDeployerKey,
    // The grants feature reads the sessions made here; the pages read its grants at request time.
    grants: {
      list: (identity) => grants.listing.list({ identity }, { limit: 100 }),
      revoke: (grantId, identity) => grants.revokeAsOwner(grantId, identity),
    },
    serviceName: services.serviceName,
    lastReads: (identity) => history.lastReads(identity),
  });
  const revokeLoginGrant = createLoginGrantRevoker(createOidcAdapter(store));
  const grants = createGrantsFeature({
    ...parts,
    provider,
    claims: claimParts.claims,
    sessions: account.sessions,
    sessionCallers: account.sessionCallers,
    services: services.services,
    service: services.service,
    serviceName: services.serviceName,
    webhooks: deps.webhooks,
    revokeLoginGrant,
    history,
    settings: { immediateSeconds: config.challengeTtlSeconds, persistentRequestSeconds: config.grants.pendingSeconds, persistentTokenSeconds: config.ttl.accessToken },
  });
  const ownerData = createOwnerDataFeature({
    ...parts,
    ...claimParts,
    provider,
    sessions: account.sessions,
    callers: account.sessionCallers,
    listing: grants.listing,
    accessGrants: grants.accessGrants,
    revokeLoginGrant,
    issuer: claims.issuer,
    records: claims.records,
    history,
    erasureSettings: deps.erasureSettings,
    beforeErasureStep: deps.beforeErasureStep,
  });
  const backchannelRoutes = createCibaFeature({
    ...parts,
    ...claimParts,
    provider,
    inbox: backchannel,
    owner: account.sessionCallers.owner,
    completeConsent: interaction.completeConsent,
    fields,
  }).routes;
  const routes: AnyRoute[] = [
    ...healthRoutes({ store, chain: chain.client }),
    openApiRoute(() => openApi),
    ...interaction.routes,
    ...account.routes,
    ...ownerData.routes,
    ...grants.routes,
    ...backchannelRoutes,
    ...claims.routes,
    ...services.routes,
    ...createWebhooksFeature({ queue: deps.webhooks, config }).routes,
    ...createLandingFeature({ ...parts, demo: config.demo.enabled }).routes,
    ...(deps.extraRoutes?.({ renderPage: parts.renderPage, names: claims.names }) ?? []),
  ];
  const openApi = openApiDocumentOf(routes, { issuer: config.issuer });
  const app = createHttpApp({ ...parts, provider, routes, metrics: deps.metrics });
  const { profiles, receipts, registry } = parts;
  return {
    app,
    provider,
    profiles,
    receipts,
    registry,
    claims: claims.claims,
    issuer: claims.issuer,
    apiKeys: services.apiKeys,
    accessGrants: grants.accessGrants,
    history,
    erasures: ownerData.erasures,
    routes,
    openApi,
  };
}
