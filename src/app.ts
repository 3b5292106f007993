// createApp(deps) wires Koa, the pages, Signet's routers and the oidc-provider engine.
// It does no I/O of its own: the store, the chain client and the clock come in as deps.
import { join } from 'node:path';
import Koa from 'koa';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import type { Address, PublicClient } from 'viem';
import { createAccountFeature } from './account/account_feature.js';
import { chainDeadline } from './chain/chain_deadline.js';
import { createClaimsFeature } from './claims/claims_feature.js';
import type { ClaimsService } from './claims/claims_service.js';
import type { DisplayNames } from './claims/display_names.js';
import type { SignetIssuer } from './claims/signet_issuer.js';
import { createBackchannelInbox } from './ciba/backchannel_inbox.js';
import { createCibaFeature } from './ciba/ciba_feature.js';
import { cibaFeature } from './ciba/ciba_settings.js';
import type { Config } from './config.js';
import { allFields } from './oidc/fields.js';
import type { AccessGrants } from './grants/access_grants.js';
import { createGrantsFeature } from './grants/grants_feature.js';
import { serviceAuth, serviceCaller } from './services/service_caller.js';
import { mountRoutes } from './http/mount_routes.js';
import { openApiDocumentOf, type OpenApiDocument } from './http/openapi.js';
import { openApiRoute } from './http/openapi_route.js';
import type { AnyRoute } from './http/route.js';
import { createWebhooksFeature } from './notify/webhooks_feature.js';
import type { WebhookQueue } from './notify/webhook_queue.js';
import type { ResolveHost } from './notify/webhook_url_guard.js';
import { createLoginGrantRevoker } from './oidc/revoke_login_grant.js';
import type { ApiKeys } from './services/api_keys.js';
import { createServicesFeature } from './services/services_feature.js';
import { createOidcAdapter } from './store/oidc_adapter.js';
import { engineBodyGuard } from './http/engine_body_guard.js';
import { clientAuthLimits } from './http/client_auth_limits.js';
import { errorHandler, type Logger } from './http/error_handler.js';
import { healthRoutes } from './http/health.js';
import { createPageRenderer } from './http/pages.js';
import { secureCookiesFor, trustProxies } from './http/proxy_trust.js';
import { createRateLimits } from './http/rate_limits.js';
import { securityHeaders } from './http/security_headers.js';
import { staticFiles } from './http/static_files.js';
import { answerUnrouted } from './http/unrouted.js';
import { observeEngine } from './observability/engine_events.js';
import { asAppLogger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import { observeRequests } from './observability/request_observer.js';
import { createIdentityRegistry, type IdentityRegistry } from './identity/identity_registry.js';
import { createConsentReceipts, type ConsentReceipts } from './interaction/consent_receipts.js';
import { createInteractionFeature } from './interaction/interaction_feature.js';
import { createLandingFeature } from './landing/landing_feature.js';
import { createProvider } from './oidc/provider.js';
import { projectRoot } from './project_root.js';
import { createProfileStore, type ProfileStore } from './profile/profile.js';
import type { Store } from './store/store.js';
import { createChallengeIssuer } from './wallet/challenge.js';
import { createChallengeVerifier } from './wallet/verify_challenge.js';
import { createLinkedSignatureVerifier } from './wallet/verify_linked_signature.js';

export type ChainDeps = { client: PublicClient; rpcUrl: string; chainId: number; identityFactory: Address };

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
  extraRoutes?: (parts: { renderPage: ReturnType<typeof createPageRenderer>; names: DisplayNames }) => AnyRoute[];
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
  /** Every Signet route, as declared (the router and /openapi.json are made from it). */
  routes: readonly AnyRoute[];
  openApi: OpenApiDocument;
};


export const silentLogger: Logger = { error: () => {}, info: () => {} };

export function createApp(deps: AppDeps): SignetApp {
  const { config, store, chain } = deps;
  const now = deps.now ?? Date.now;
  const logger = deps.logger ?? silentLogger;
  const renderPage = createPageRenderer(join(projectRoot, 'views'));
  const profiles = createProfileStore(store);
  const receipts = createConsentReceipts(store);
  const registry = createIdentityRegistry(chain.client, chain.identityFactory);
  const claimsFeature = createClaimsFeature({ config, client: chain.client, store, registry, now });
  const { topics, names, reader, claims, issuer, claimRequests } = claimsFeature;
  const backchannel = createBackchannelInbox(store);
  const knownFields = allFields(topics);
  const provider = createProvider({
    config,
    chainId: chain.chainId,
    store,
    profiles,
    receipts,
    claims,
    topics,
    renderPage,
    logger,
    ciba: cibaFeature({ issuer: config.issuer, chainId: chain.chainId, registry, inbox: backchannel, fields: () => knownFields, now }),
  });

  const issueChallenge = createChallengeIssuer(
    store,
    { issuer: config.issuer, chainId: chain.chainId, ttlSeconds: config.challengeTtlSeconds },
    now,
  );
  const limits = createRateLimits(store, config.rateLimits, config.challengeTtlSeconds);
  const verifyChallenge = createChallengeVerifier(store, chain.client, limits, now);

  const interaction = createInteractionFeature({
    provider,
    issuer: config.issuer,
    chainId: chain.chainId,
    grantTtlSeconds: config.ttl.grant,
    registry,
    receipts,
    topics,
    claims,
    issueChallenge,
    verifyChallenge,
    renderPage,
    demoWallet: deps.demoWallet ?? false,
    names,
    now,
  });

  const serviceNames = new Map(config.clients.map((client) => [client.client_id, client.client_name]));
  const account = createAccountFeature({
    issuer: config.issuer,
    chain: { client: chain.client, chainId: chain.chainId, identityFactory: chain.identityFactory },
    store,
    logger,
    limits,
    registry,
    receipts,
    profiles,
    claims,
    topics,
    reader,
    issueChallenge,
    verifyChallenge,
    claimRequests,
    identityDeployerKey: config.identityDeployerKey,
    webhooks: { allowPrivate: config.webhooks.allowPrivate, resolveHost: deps.resolveHost },
    // The grants feature reads the sessions made here; the pages read its grants at request time.
    grants: {
      list: (identity) => grants.listing.list({ identity }, { limit: 100 }),
      revoke: (grantId, identity) => grants.revokeAsOwner(grantId, identity),
    },
    backchannel,
    renderPage,
    names,
    serviceName: (service) => serviceNames.get(service) ?? service,
    demoWallet: deps.demoWallet ?? false,
    now,
  });
  const { sessions } = account;

  const servicesFeature = createServicesFeature({ config, store, now });
  const { apiKeys, services, serviceName } = servicesFeature;
  const verifyLinkedSignature = createLinkedSignatureVerifier(chain.client, registry);
  const grants = createGrantsFeature({
    issuer: config.issuer,
    chainId: chain.chainId,
    store,
    provider,
    registry,
    profiles,
    claims,
    receipts,
    sessions,
    sessionCallers: account.sessionCallers,
    services,
    service: servicesFeature.service,
    backchannel,
    verifyLinkedSignature,
    serviceName,
    webhooks: deps.webhooks,
    revokeLoginGrant: createLoginGrantRevoker(createOidcAdapter(store)),
    settings: {
      immediateSeconds: config.challengeTtlSeconds,
      persistentRequestSeconds: config.grants.pendingSeconds,
      persistentTokenSeconds: config.ttl.accessToken,
    },
    now,
  });
  const { accessGrants } = grants;
  const ciba = createCibaFeature({
    provider,
    inbox: backchannel,
    owner: account.sessionCallers.owner,
    completeConsent: interaction.completeConsent,
    claims,
    topics,
    fields: knownFields,
    verifyLinkedSignature,
  });
  const webhooksFeature = createWebhooksFeature({ queue: deps.webhooks, config });
  const landing = createLandingFeature({ renderPage, issuer: config.issuer, demo: config.demo.enabled });

  const app = new Koa({ keys: [...config.cookieKeys] });
  trustProxies(app, provider, config.trustProxy);
  // Request id, access log line and HTTP metrics around everything else.
  app.use(observeRequests(asAppLogger(logger), deps.metrics));
  observeEngine(provider, asAppLogger(logger), deps.metrics);
  app.use(secureCookiesFor(config.issuer));
  app.use(securityHeaders());
  app.use(errorHandler(renderPage, logger));
  // One chain budget per request: every route that reads the chain answers within it.
  app.use(chainDeadline(config.chainTimeouts.requestMs));
  app.use(answerUnrouted());
  app.use(staticFiles(join(projectRoot, 'public')));
  const routes: AnyRoute[] = [
    ...healthRoutes({ store, chain: chain.client }),
    openApiRoute(() => openApi),
    ...grants.routes,
    ...interaction.routes,
    ...ciba.routes,
    ...account.routes,
    ...claimsFeature.routes,
    ...servicesFeature.routes,
    ...webhooksFeature.routes,
    ...landing.routes,
    ...(deps.extraRoutes?.({ renderPage, names }) ?? []),
  ];
  const openApi = openApiDocumentOf(routes, { issuer: config.issuer });
  const table = mountRoutes(routes, limits);
  app.use(table.routes());
  app.use(table.allowedMethods());
  app.use(clientAuthLimits(limits));
  app.use(engineBodyGuard());
  app.use(mount(provider));
  return { app, provider, profiles, receipts, registry, claims, issuer, apiKeys, accessGrants, routes, openApi };
}
