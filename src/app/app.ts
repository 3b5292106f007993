// createApp(deps) assembles Signet: the shared parts, each feature (its services and its
// routes), the engine, and one route table served by Koa in front of the engine. It does no
// I/O of its own: the store, the chain client and the clock come in as deps.
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config/config.js';
import { createAccountFeature } from '../features/account/account_feature.js';
import { createCibaFeature } from '../features/ciba/ciba_feature.js';
import { cibaFeature } from '../features/ciba/ciba_settings.js';
import { createClaimsFeature } from '../features/claim_admin/claims_feature.js';
import { clientsAdminRoutes } from '../features/client_admin/clients_admin_routes.js';
import { type ChainConsentEnds, createChainConsentEnds } from '../features/consent_end/chain_consent_ends.js';
import { createLoginGrantEnd } from '../features/consent_end/login_grant_end.js';
import { createLoginSessionSid } from '../features/consent_end/login_session_sid.js';
import { createRefreshKeyCheck } from '../features/consent_end/refresh_key_check.js';
import { createAccessGrantStore } from '../features/grants/access_grant_store.js';
import type { AccessGrants } from '../features/grants/access_grants.js';
import { createGrantHolders } from '../features/grants/grant_holders.js';
import { createAccessGrantParts, createGrantsFeature } from '../features/grants/grants_feature.js';
import { healthRoutes } from '../features/health/health.js';
import { createInteractionFeature } from '../features/interaction/interaction_feature.js';
import { createLandingFeature } from '../features/landing/landing_feature.js';
import { createProvider } from '../features/oidc/provider.js';
import { createLoginGrantRevoker } from '../features/oidc/revoke_login_grant.js';
import type { ErasureJobs, ErasureSettings } from '../features/owner_data/erasure_jobs.js';
import type { ErasureStep } from '../features/owner_data/erasure_steps.js';
import { createOwnerDataFeature } from '../features/owner_data/owner_data_feature.js';
import type { ApiKeys } from '../features/services/api_keys.js';
import { createServicesFeature } from '../features/services/services_feature.js';
import { createSignalEmitter, signalRoutes } from '../features/signals/signals_feature.js';
import { createWebhooksFeature } from '../features/webhook_admin/webhooks_feature.js';
import { createHttpApp } from '../http/http_app.js';
import { type OpenApiDocument, openApiDocumentOf } from '../http/openapi.js';
import { openApiRoute } from '../http/openapi_route.js';
import type { RenderPage } from '../http/pages.js';
import type { AnyRoute } from '../http/route.js';
import { type Chain, onChains } from '../infra/chain/chains.js';
import { identityKeyOf } from '../infra/chain/identity_key.js';
import { settledPointFor } from '../infra/chain/settled_point.js';
import type { Logger } from '../infra/observability/logger.js';
import type { Metrics } from '../infra/observability/metrics.js';
import { createGuardedFetch } from '../infra/outbound/guarded_fetch.js';
import type { DialAddress } from '../infra/outbound/pinned_request.js';
import { createUrlGuard, type ResolveHost } from '../infra/outbound/url_guard.js';
import { createOidcAdapter } from '../infra/store/oidc_adapter.js';
import type { Store } from '../infra/store/store.js';
import type { SignetIssuer } from '../shared/claim_issuer/signet_issuer.js';
import type { ClaimsService } from '../shared/claims/claims_service.js';
import type { DisplayNames } from '../shared/claims/display_names.js';
import type { ClientRegistry } from '../shared/clients/client_registry.js';
import { createClientRemoval, type RemoveClient } from '../shared/clients/client_removal.js';
import { configuredOutboundUrls, createClientRules } from '../shared/clients/client_rules.js';
import { seedConfiguredClients } from '../shared/clients/client_seeding.js';
import { engineValidation } from '../shared/clients/engine_validation.js';
import { registeredClients } from '../shared/clients/registered_clients.js';
import type { ConsentReceipts } from '../shared/consent/consent_receipts.js';
import type { GrantEndReason, Signals } from '../shared/consent/consent_signal.js';
import { createDpopNonces, dpopNonceSecret } from '../shared/dpop/dpop_nonces.js';
import { createDpopCheck } from '../shared/dpop/dpop_proof.js';
import { allFields } from '../shared/fields/fields.js';
import { type AccessHistory, createAccessHistory } from '../shared/history/access_history.js';
import { createHistoryLog } from '../shared/history/history_log.js';
import type { IdentityRegistry } from '../shared/identity/identity_registry.js';
import type { ProfileStore } from '../shared/profile/profile.js';
import { createProfileStore } from '../shared/profile/profile.js';
import { type ChainConsentHandlers, type ChainWatcher, claimIssuersOf, createChainWatcher, watchersAsOne } from '../shared/watch/chain_watcher.js';
import type { Watchlist } from '../shared/watch/watchlist.js';
import type { WebhookQueue } from '../shared/webhooks/webhook_queue.js';
import { type ChainDeps, createAppParts } from './app_parts.js';

export type { ChainDeps };

export type AppDeps = {
  config: Config;
  store: Store;
  /** One chain, or several in order (CHAINS; the first is the one a bare identity address means). */
  chain: ChainDeps | readonly ChainDeps[];
  logger?: Logger;
  /** Prometheus metrics of this process (off when absent). */
  metrics?: Metrics;
  /** The clock, in epoch milliseconds; tests freeze it. */
  now?: () => number;
  /** The embedded demo offers its built-in wallet on the consent page. */
  demoWallet?: boolean;
  /** Where access-grant notifications to services go (Redis Streams, or memory in the demo). */
  webhooks: WebhookQueue;
  /** DNS for the URLs given at run time (webhooks, SSF endpoints, clients' URLs the engine fetches), at save and at the engine's fetches (default: the system resolver). */
  resolveHost?: ResolveHost;
  /** Tests only: where the engine's socket for an approved public address goes (src/infra/outbound/pinned_request.ts). */
  dialAddress?: DialAddress;
  /** Extra route declarations, in the table with Signet's own (the embedded demo's relying party). */
  extraRoutes?: (parts: { renderPage: RenderPage; names: DisplayNames; clients: ClientRegistry }) => AnyRoute[];
  /** Erasure job timing (tests shorten the lease and the sweep). */
  erasureSettings?: Partial<ErasureSettings>;
  /** Called before each erasure step (tests cut a process there). */
  beforeErasureStep?: (step: ErasureStep) => Promise<void>;
  /** What the chain watcher does with the events that end consents (default: Signet's own, src/features/consent_end/chain_consent_ends.ts). */
  consentEnds?: ChainConsentHandlers;
};

export type SignetApp = {
  app: Koa;
  provider: Provider;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  registry: IdentityRegistry;
  claims: ClaimsService;
  issuer?: SignetIssuer;
  /** Signet's issuer on each chain served (the first's is `issuer`). */
  issuerOn: (chainId: number) => SignetIssuer | undefined;
  apiKeys: ApiKeys;
  accessGrants: AccessGrants;
  history: AccessHistory;
  /** What the chain's events that end consent do (the chain watcher calls these). */
  chainConsentEnds: ChainConsentEnds;
  /** Tells the websites that consent ended: back-channel logout tokens and SSF events (src/features/signals/). */
  signals: Signals;
  /** The clients, CLIENTS' and those added at run time (src/clients/). */
  clients: ClientRegistry;
  /** Writes CLIENTS to the client records (decision 23); a process runs it before it serves. */
  seedClients(): Promise<void>;
  /** Deletes a client and ends what it held (decision 24), as the admin API's DELETE does. */
  removeClient: RemoveClient;
  /** Erasure jobs: start() resumes open ones and sweeps for those whose process died; stop() ends the sweep. */
  erasures: ErasureJobs;
  /** Every Signet route, as declared (the router and /openapi.json are made from it). */
  routes: readonly AnyRoute[];
  openApi: OpenApiDocument;
  /** Follows the chain for the events that end consents; server.ts starts and stops it. */
  watcher: ChainWatcher;
  /** The identities the first chain's watcher follows. */
  watchlist: Watchlist;
};

export function createApp(deps: AppDeps): SignetApp {
  const parts = createAppParts(deps);
  const { config, store, chain, backchannel, now } = parts;
  const claims = createClaimsFeature({ config, chains: parts.chains, store, registryOn: (chainId) => parts.identities.require(chainId).registry, now });
  // What the login, the account and CIBA read of claims.
  const claimParts = {
    claims: claims.claims,
    verified: claims.verified,
    topics: claims.topics,
    names: claims.names,
    reader: claims.reader,
    claimRequests: claims.claimRequests,
  };
  // Each chain's parts a login reads: its identity reads, profiles, claims and verified data.
  const chainParts = onChains(parts.chains, (chain) => ({
    registry: parts.identities.require(chain.chainId).registry,
    verifyLinkedSignature: parts.identities.require(chain.chainId).verifyLinkedSignature,
    profiles: chain === parts.chains.first ? parts.profiles : createProfileStore(store, chain.identityKey),
    claims: claims.onChain.require(chain.chainId).claims,
    verified: claims.onChain.require(chain.chainId).verified,
  }));
  const fields = allFields(claims.topics);
  const ciba = cibaFeature({ ...parts, inbox: backchannel, fields: () => fields });
  const services = createServicesFeature({ config, clients: parts.clients, store, now });
  const history = createAccessHistory({
    log: createHistoryLog(store, now),
    settings: config.retention,
    clientName: services.serviceName,
    now,
    onLost: (error) => parts.logger.error('an access history entry was not recorded (the release went ahead)', error),
  });
  const engineAdapter = createOidcAdapter(store);
  const revokeLoginGrant = createLoginGrantRevoker(engineAdapter);
  const engineGrants = new engineAdapter('Grant');
  const isLoginActive = async (grantId: string) => (await engineGrants.find(grantId)) !== undefined;
  const accessGrantStore = createAccessGrantStore(store);
  // Telling the websites: back-channel logout tokens and SSF events, through the webhook queue.
  // Built before the engine (its refresh check and the grants emit to it); the SSF routes and
  // the engine's own logouts are joined to it once the engine exists.
  const emitter = createSignalEmitter({
    ...parts,
    queue: deps.webhooks,
    // The clients holding a live grant of an identity: told when its wallets' keys change.
    clientsOf: createGrantHolders({ grants: accessGrantStore, receipts: parts.receipts, isLoginActive }),
  });
  const signals: Signals = emitter.signals;
  const endLoginGrant = createLoginGrantEnd({
    isActive: isLoginActive,
    revokeLoginGrant,
    sidOf: createLoginSessionSid(store, chain.chainId),
    signals,
    now,
  });
  /** Ends a login grant by its id, as `reason` says, and tells the website. */
  const endLoginGrantById = (reason: GrantEndReason) => async (grantId: string) => {
    const receipt = await parts.receipts.find(grantId);
    if (receipt) await endLoginGrant(receipt, reason);
    else await revokeLoginGrant(grantId);
  };
  const mayRefresh = createRefreshKeyCheck({
    receipts: parts.receipts,
    registry: parts.registry,
    registryOn: (chainId) => chainParts.require(chainId).registry,
    endLoginGrant,
    whenChainDown: config.refreshWhenChainDown,
  });
  // The access grants themselves, before the engine: deleting a client ends those it holds.
  const access = createAccessGrantParts({
    ...parts,
    grants: accessGrantStore,
    claims: claimParts.claims,
    serviceName: services.serviceName,
    webhooks: deps.webhooks,
    onChain: chainParts,
    signals,
    settings: {
      immediateSeconds: config.challengeTtlSeconds,
      persistentRequestSeconds: config.grants.pendingSeconds,
      persistentTokenSeconds: config.ttl.accessToken,
    },
  });
  // The one address check of the URLs given at run time (src/infra/outbound/): the clients' rules, the
  // engine's fetches, owners' webhooks and SSF endpoints at save; the webhook queue checks again at delivery.
  const urlGuard = createUrlGuard({ allowPrivate: config.webhooks.allowPrivate, resolveHost: deps.resolveHost });
  // Clients added at run time meet Signet's rules (src/shared/clients/client_rules.ts); deleting one
  // ends its logins, access grants, API keys and SSF streams, and its record.
  const clientRules = createClientRules({ production: config.mode === 'production', guard: urlGuard });
  // What the engine fetches for a client (jwks_uri, sector_identifier_uri) goes through the same
  // check, pinned, redirects checked hop by hop; CLIENTS' own URLs are the operator's.
  const operatorUrls = configuredOutboundUrls(config.clients);
  const engineFetch = createGuardedFetch({ guard: urlGuard, trusted: (href) => operatorUrls.has(href), dial: deps.dialAddress });
  const removeClient = createClientRemoval({
    loginGrantIdsOf: parts.receipts.grantIdsOf,
    forgetLoginGrantsOf: parts.receipts.forgetClient,
    revokeLoginGrant,
    endAccessGrantsOf: access.endAccessGrantsOf,
    removeApiKeysOf: services.apiKeys.removeAll,
    removeSsfStreamsOf: emitter.removeStreamsOf,
    deleteRecord: parts.clientRecords.delete,
  });
  const registered = registeredClients({
    store,
    records: parts.clientRecords,
    rules: clientRules,
    remove: removeClient,
    isConfigured: parts.clients.isConfigured,
    limits: config.clientRegistrationLimits,
  });
  // The engine's DPoP nonces and Signet's routes' are one: one secret, derived once.
  const nonceSecret = dpopNonceSecret(config.cookieKeys);
  const provider = createProvider({
    dpopNonceSecret: nonceSecret,
    ...parts,
    ...claimParts,
    ciba,
    history,
    mayRefresh,
    onChain: (chainId) => chainParts.get(chainId),
    registeredClients: registered,
    fetch: engineFetch,
  });
  // A registered client's first token (a login's, or its own by client credentials) keeps it; until then it expires unused.
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    const clientId = ctx.oidc.client?.clientId;
    if (clientId) registered.keep(clientId).catch((error: unknown) => parts.logger.error('a registered client could not be kept after its first token', error));
  });
  const validateClient = engineValidation(provider);
  const interaction = createInteractionFeature({ ...parts, provider, grantTtlSeconds: config.ttl.grant, ...claimParts, onChain: chainParts });
  // Signet's routes check DPoP proofs as the engine does, with its nonces and its replay record.
  const checkDpop = createDpopCheck({ provider, nonces: createDpopNonces(nonceSecret) });
  // The owner sessions are the parts' (src/shared/owner_sessions/): the grants read them, the account opens them.
  const grants = createGrantsFeature({
    ...parts,
    access,
    provider,
    checkDpop,
    services: services.services,
    service: services.service,
    revokeLoginGrant: endLoginGrantById('owner_revoked'),
    onChain: chainParts,
    history,
  });
  const account = createAccountFeature({
    ...parts,
    ...claimParts,
    urlGuard,
    identityDeployerKey: config.identityDeployerKey,
    // Each chain's identity reads, profiles, claims and claim reader: an owner signs in on any chain.
    onChain: onChains(parts.chains, (chain) => {
      const { reader, issuer } = claims.onChain.require(chain.chainId);
      return { ...chainParts.require(chain.chainId), reader, issuesClaims: issuer !== undefined };
    }),
    grants: {
      list: (identity, chainId) => grants.listing.list(chainId === undefined ? { identity } : { identity, chainId }, { limit: 100 }),
      // The grant must be the identity's on its chain (the same address on another chain is another identity).
      revoke: (grantId, identity, chainId) => grants.revokeAsOwner(grantId, identity, chainId),
    },
    serviceName: services.serviceName,
    lastReads: (identity, chainId) => history.lastReads(identityKeyOf(identity, chainId)),
  });
  const ownerData = createOwnerDataFeature({
    ...parts,
    ...claimParts,
    provider,
    callers: parts.sessionCallers,
    listing: grants.listing,
    accessGrants: grants.accessGrants,
    revokeLoginGrant: endLoginGrantById('erasure'),
    // Each chain's identity reads, profiles, Signet's claim records and issuer: the session's chain's identity is exported and erased.
    onChain: onChains(parts.chains, (chain) => {
      const { registry, profiles } = chainParts.require(chain.chainId);
      const { records, issuer } = claims.onChain.require(chain.chainId);
      return { registry, profiles, records, ...(issuer ? { issuer } : {}) };
    }),
    history,
    erasureSettings: deps.erasureSettings,
    beforeErasureStep: deps.beforeErasureStep,
  });
  const ssfRoutes = signalRoutes({ ...parts, provider, checkDpop, signals: emitter.signals, streams: emitter.streams, guard: urlGuard });
  // What the chain watcher's events do (src/features/consent_end/chain_consent_ends.ts), on each chain:
  // that chain's reads, and the receipts and grants of that chain's identities only.
  const consentEndsOn = (on: (typeof claims.onChain.all)[number]) => {
    const other = on.chain === parts.chains.first ? undefined : on.chain.chainId;
    return createChainConsentEnds({
      client: on.chain.client,
      chainId: other,
      reader: on.reader,
      receipts: { listFor: (identity) => parts.receipts.listFor(identity, other) },
      accessGrantsOf: async (identity) => access.accessGrants.currentOf(await access.accessGrantIdsOf(identity, other)),
      isLoginActive,
      endLoginGrant,
      revokeAccessGrant: (grant) => access.accessGrants.revoke(grant.id, { identity: grant.identity, chainId: grant.chain_id }, 'key_removed'),
      watchedIdentities: () => parts.watchlists(on.chain.chainId).identities(),
      signals,
      now,
    });
  };
  const chainConsentEnds = consentEndsOn(claims.onChain.first);
  // When each chain's events count: its own setting, the one for every chain, or its id's default.
  const settledPointOf = (chain: Chain) => {
    const { settled, known } = settledPointFor(chain.chainId, chain.confirmations, config.chainWatch.confirmations);
    if (!known && config.chainWatch.enabled) {
      parts.logger.warn(
        `chain ${chain.chainId} has no known settled point: the watcher acts on the newest block (0 confirmations); set its confirmations ("safe", "finalized" or a number) if it reorganises`,
      );
    }
    return settled;
  };
  // One watcher per chain, each with its own lease and cursor; the metrics carry each one's chain_id.
  const watchers = claims.onChain.all.map((on) => {
    const first = on.chain === parts.chains.first;
    return createChainWatcher({
      store,
      client: on.chain.client,
      ...(first ? {} : { chainId: on.chain.chainId }),
      watchlist: parts.watchlists(on.chain.chainId),
      issuers: parts.chains.several ? claimIssuersOf(config, on.chain.chainId, on.issuer?.address) : claimIssuersOf(config),
      handlers: first ? (deps.consentEnds ?? chainConsentEnds) : consentEndsOn(on),
      settings: config.chainWatch,
      settled: settledPointOf(on.chain),
      endpoints: on.chain.endpoints,
      metrics: deps.metrics,
      metricsChainId: on.chain.chainId,
      logger: parts.logger,
      now,
    });
  });
  const watcher = watchersAsOne(watchers);
  const backchannelRoutes = createCibaFeature({
    ...parts,
    ...claimParts,
    provider,
    inbox: backchannel,
    owner: parts.sessionCallers.owner,
    completeConsent: interaction.completeConsent,
    onChain: chainParts,
    fields,
  }).routes;
  const routes: AnyRoute[] = [
    ...healthRoutes({
      store,
      chains: parts.chains.all,
      readyWithChains: config.readyWithChains,
      chainWatch: () => watcher.report(),
      chainWatches: () => watchers.map((each) => each.report()),
    }),
    // The document is made from this table, this route included: it is read once both exist.
    openApiRoute(() => openApi),
    ...interaction.routes,
    ...account.routes,
    ...ownerData.routes,
    ...grants.routes,
    ...backchannelRoutes,
    ...claims.routes,
    ...services.routes,
    ...clientsAdminRoutes({
      issuer: config.issuer,
      adminToken: config.adminToken,
      records: parts.clientRecords,
      registry: parts.clients,
      validate: validateClient,
      rules: clientRules,
      remove: removeClient,
    }),
    ...createWebhooksFeature({ queue: deps.webhooks, config }).routes,
    ...ssfRoutes,
    ...createLandingFeature({ ...parts, demo: config.demo.enabled }).routes,
    ...(deps.extraRoutes?.({ renderPage: parts.renderPage, names: claims.names, clients: parts.clients }) ?? []),
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
    issuerOn: (chainId) => claims.onChain.get(chainId)?.issuer,
    apiKeys: services.apiKeys,
    accessGrants: grants.accessGrants,
    history,
    chainConsentEnds,
    signals,
    clients: parts.clients,
    seedClients: () => seedConfiguredClients({ store, records: parts.clientRecords, configured: config.clients, validate: validateClient }),
    removeClient,
    erasures: ownerData.erasures,
    routes,
    openApi,
    watcher,
    watchlist: parts.watchlists(),
  };
}
