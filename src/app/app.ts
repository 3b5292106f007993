import { createDpopNonces, dpopNonceSecret } from '../domain/dpop/dpop_nonces.js';
import { createDpopCheck } from '../domain/dpop/dpop_proof.js';
import { allFields } from '../domain/fields/fields.js';
import { createAccessHistory } from '../domain/history/access_history.js';
import { createHistoryLog } from '../domain/history/history_log.js';
import { createProfileStore } from '../domain/profile/profile.js';
import { createAccountFeature } from '../features/account/account_feature.js';
import { createCibaFeature } from '../features/ciba/ciba_feature.js';
import { cibaFeature } from '../features/ciba/ciba_settings.js';
import { createClaimsFeature } from '../features/claim_admin/claims_feature.js';
import { createClientAdminFeature } from '../features/client_admin/client_admin_feature.js';
import { createChainWatching, createLoginEnds } from '../features/consent_end/consent_end_feature.js';
import { createAccessGrantStore } from '../features/grants/access_grant_store.js';
import { createGrantHolders } from '../features/grants/grant_holders.js';
import { createAccessGrantParts, createGrantsFeature } from '../features/grants/grants_feature.js';
import { healthRoutes } from '../features/health/health.js';
import { createInteractionFeature } from '../features/interaction/interaction_feature.js';
import { createLandingFeature } from '../features/landing/landing_feature.js';
import { createProvider } from '../features/oidc/provider.js';
import { createLoginGrantRevoker } from '../features/oidc/revoke_login_grant.js';
import { createOwnerDataFeature } from '../features/owner_data/owner_data_feature.js';
import { createServicesFeature } from '../features/services/services_feature.js';
import { createSignalEmitter, signalRoutes } from '../features/signals/signals_feature.js';
import { createWebhooksFeature } from '../features/webhook_admin/webhooks_feature.js';
import { createHttpApp } from '../http/http_app.js';
import { openApiDocumentOf } from '../http/openapi.js';
import { openApiRoute } from '../http/openapi_route.js';
import type { AnyRoute } from '../http/route.js';
import { onChains } from '../infra/chain/chains.js';
import { identityKeyOf } from '../infra/chain/identity_key.js';
import { createOidcAdapter } from '../infra/store/oidc_adapter.js';
import type { AppDeps, SignetApp } from './app_deps.js';
import { type ChainDeps, createAppParts } from './app_parts.js';

export type { AppDeps, ChainDeps, SignetApp };

export function createApp(deps: AppDeps): SignetApp {
  const parts = createAppParts(deps);
  const { config, store, backchannel, now, logger } = parts;
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
    ...parts.identities.require(chain.chainId),
    profiles: chain === parts.chains.first ? parts.profiles : createProfileStore(store, chain.identityKey),
    claims: claims.onChain.require(chain.chainId).claims,
    verified: claims.onChain.require(chain.chainId).verified,
  }));
  const fields = allFields(claims.topics);
  const services = createServicesFeature({ config, clients: parts.clients, store, now });
  const history = createAccessHistory({
    log: createHistoryLog(store, now),
    settings: config.retention,
    clientName: services.serviceName,
    now,
    onLost: (error) => logger.error('an access history entry was not recorded (the release went ahead)', error),
  });
  const engineAdapter = createOidcAdapter(store);
  const revokeLoginGrant = createLoginGrantRevoker(engineAdapter);
  const engineGrants = new engineAdapter('Grant');
  const isLoginActive = async (grantId: string) => (await engineGrants.find(grantId)) !== undefined;
  const accessGrantStore = createAccessGrantStore(store);
  // Telling the websites (back-channel logout, SSF), built before the engine: its refresh check and the grants emit to it.
  const emitter = createSignalEmitter({
    ...parts,
    queue: deps.webhooks,
    // The clients holding a live grant of an identity: told when its wallets' keys change.
    clientsOf: createGrantHolders({ grants: accessGrantStore, receipts: parts.receipts, isLoginActive }),
  });
  const { signals } = emitter;
  const loginEnds = createLoginEnds({
    ...parts,
    registryOn: (chainId) => chainParts.require(chainId).registry,
    isLoginActive,
    revokeLoginGrant,
    signals,
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
  const clientAdmin = createClientAdminFeature({
    ...parts,
    dialAddress: deps.dialAddress,
    ends: {
      loginGrantIdsOf: parts.receipts.grantIdsOf,
      forgetLoginGrantsOf: parts.receipts.forgetClient,
      revokeLoginGrant,
      endAccessGrantsOf: access.endAccessGrantsOf,
      removeApiKeysOf: services.apiKeys.removeAll,
      removeSsfStreamsOf: emitter.removeStreamsOf,
    },
  });
  // The engine's DPoP nonces and Signet's routes' are one: one secret, derived once.
  const nonceSecret = dpopNonceSecret(config.cookieKeys);
  const ciba = cibaFeature({ ...parts, inbox: backchannel, fields: () => fields });
  const provider = createProvider({
    dpopNonceSecret: nonceSecret,
    ...parts,
    ...claimParts,
    ciba,
    history,
    mayRefresh: loginEnds.mayRefresh,
    onChain: (chainId) => chainParts.get(chainId),
    registeredClients: clientAdmin.registered,
    fetch: clientAdmin.engineFetch,
  });
  const clientsWithEngine = clientAdmin.withEngine(provider);
  const interaction = createInteractionFeature({ ...parts, provider, grantTtlSeconds: config.ttl.grant, ...claimParts, onChain: chainParts });
  // Signet's routes check DPoP proofs as the engine does, with its nonces and its replay record.
  const checkDpop = createDpopCheck({ provider, nonces: createDpopNonces(nonceSecret) });
  const grants = createGrantsFeature({
    ...parts,
    access,
    provider,
    checkDpop,
    services: services.services,
    service: services.service,
    revokeLoginGrant: loginEnds.endLoginGrantById('owner_revoked'),
    onChain: chainParts,
    history,
  });
  const account = createAccountFeature({
    ...parts,
    ...claimParts,
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
    revokeLoginGrant: loginEnds.endLoginGrantById('erasure'),
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
  const watching = createChainWatching({
    ...parts,
    onChain: claims.onChain,
    access,
    isLoginActive,
    endLoginGrant: loginEnds.endLoginGrant,
    signals,
    consentEnds: deps.consentEnds,
    metrics: deps.metrics,
  });
  const cibaRoutes = createCibaFeature({
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
      chainWatch: () => watching.watcher.report(),
      chainWatches: () => watching.watchers.map((each) => each.report()),
    }),
    // The document is made from this table, this route included: it is read once both exist.
    openApiRoute(() => openApi),
    ...interaction.routes,
    ...account.routes,
    ...ownerData.routes,
    ...grants.routes,
    ...cibaRoutes,
    ...claims.routes,
    ...services.routes,
    ...clientsWithEngine.routes,
    ...createWebhooksFeature({ queue: deps.webhooks, config }).routes,
    ...signalRoutes({ ...parts, provider, checkDpop, signals, streams: emitter.streams, guard: parts.urlGuard }),
    ...createLandingFeature({ ...parts, demo: config.demo.enabled }).routes,
    ...(deps.extraRoutes?.({ renderPage: parts.renderPage, names: claims.names, clients: parts.clients }) ?? []),
  ];
  const openApi = openApiDocumentOf(routes, { issuer: config.issuer });
  const app = createHttpApp({ ...parts, provider, routes, metrics: deps.metrics });
  return {
    app,
    provider,
    profiles: parts.profiles,
    receipts: parts.receipts,
    registry: parts.registry,
    claims: claims.claims,
    issuer: claims.issuer,
    issuerOn: (chainId) => claims.onChain.get(chainId)?.issuer,
    apiKeys: services.apiKeys,
    accessGrants: grants.accessGrants,
    history,
    chainConsentEnds: watching.chainConsentEnds,
    signals,
    clients: parts.clients,
    seedClients: clientsWithEngine.seedClients,
    removeClient: clientAdmin.removeClient,
    erasures: ownerData.erasures,
    routes,
    openApi,
    watcher: watching.watcher,
    watchlist: parts.watchlists(),
  };
}
