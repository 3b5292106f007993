// The parts several features share, built once per app from its deps: the clock, logs, pages,
// every chain with all its parts (src/domain/chains/), the claim topics and display names, the
// one URL guard, the receipt store, the clients (their records, which the engine reads too, and
// Signet's registry of them), the rate limits, the wallet's challenge and signature checks, the
// owner sessions (the account signs owners in; the grants, the owner's data and CIBA read them),
// the CIBA inbox the engine and the owner both use, and the access history every door that
// releases data writes to.
import { join } from 'node:path';
import { projectRoot } from '../base/project_root.js';
import type { Config } from '../config/config.js';
import { createBackchannelInbox } from '../domain/backchannel/backchannel_inbox.js';
import { createClientRegistry } from '../domain/clients/client_registry.js';
import { createConsentReceipts } from '../domain/consent/consent_receipts.js';
import { createAccessHistory } from '../domain/history/access_history.js';
import { createHistoryLog } from '../domain/history/history_log.js';
import { type ChainDeps, createChains } from '../domain/chains/chains.js';
import { createDisplayNames } from '../domain/claims/display_names.js';
import { createAccountSessions } from '../domain/owner_sessions/account_sessions.js';
import { ACCOUNT_TABS } from '../domain/owner_sessions/account_tabs.js';
import { sessionCallers } from '../domain/owner_sessions/session_callers.js';
import { createChallengeIssuer } from '../domain/wallet/challenge.js';
import { createChallengeVerifier } from '../domain/wallet/verify_challenge.js';
import { createWatchlists } from '../domain/watch/watchlist.js';
import { createPageRenderer } from '../http/pages.js';
import { cookiesAreSecure } from '../http/proxy_trust.js';
import { createHeldElsewhere } from '../domain/providers/held_elsewhere.js';
import { informationProviders } from '../domain/providers/information_providers.js';
import { createProviderClient } from '../domain/providers/provider_client.js';
import { createProviderCopies } from '../domain/providers/provider_copies.js';
import { createProviderGrants } from '../domain/providers/provider_grants.js';
import { type Logger, silentLogger } from '../infra/observability/logger.js';
import type { Metrics } from '../infra/observability/metrics.js';
import { createGuardedFetch } from '../infra/outbound/guarded_fetch.js';
import type { DialAddress } from '../infra/outbound/pinned_request.js';
import { createUrlGuard, type ResolveHost } from '../infra/outbound/url_guard.js';
import { createRateLimits } from '../infra/rate_limits/rate_limits.js';
import { createClientRecords } from '../infra/store/client_records.js';
import type { Store } from '../infra/store/store.js';

export type { ChainDeps };

export function createAppParts(deps: {
  config: Config;
  store: Store;
  /** One chain, or several in the order of CHAINS (src/domain/chains/). */
  chain: ChainDeps | readonly ChainDeps[];
  logger?: Logger;
  now?: () => number;
  demoWallet?: boolean;
  /** DNS for the URLs given at run time (default: the system resolver). */
  resolveHost?: ResolveHost;
  clientCacheMs?: number;
  historySchedule?: (flush: () => void) => void;
  /** Tests only: where the socket for an address the guard approved goes (pinned_request.ts). */
  dialAddress?: DialAddress;
  metrics?: Metrics;
}) {
  const { config, store } = deps;
  const now = deps.now ?? Date.now;
  const names = createDisplayNames(config);
  // Each chain with all its parts, built once: its identity reads, profiles and claims on its own client (one chain's outage stays its own).
  const chains = createChains(Array.isArray(deps.chain) ? deps.chain : [deps.chain as ChainDeps], { config, store, names, now });
  const limits = createRateLimits(store, config.rateLimits);
  const sessions = createAccountSessions(store, {
    secureCookies: cookiesAreSecure(config.issuer),
    issuer: config.issuer,
    cookieKeys: config.cookieKeys,
  });
  // One cache of client records per process, shared by the engine's adapter and the registry.
  const clientRecords = createClientRecords(store, { cacheMs: deps.clientCacheMs });
  const clients = createClientRegistry(
    clientRecords,
    config.clients.map((client) => client.client_id),
  );
  const logger = deps.logger ?? silentLogger;
  const urlGuard = createUrlGuard({ allowPrivate: config.webhooks.allowPrivate, resolveHost: deps.resolveHost });
  const providers = informationProviders(config.informationProviders);
  const providerGrants = createProviderGrants(store);
  return {
    config,
    store,
    /** Every chain served with all its parts, by chain id (src/domain/chains/). */
    chains,
    /** The claims' and issuers' display names. */
    names,
    /**
     * The claim topics: their names and scopes are alike on every chain; what discovery and the
     * credentials say of trust frameworks is the default chain's (each chain's own is `chain.topics`).
     */
    topics: chains.named(undefined).topics,
    now,
    issuer: config.issuer,
    logger,
    renderPage: createPageRenderer(
      join(projectRoot, 'views'),
      join(projectRoot, 'public'),
      {
        localesDir: join(projectRoot, 'locales'),
        defaultLanguage: config.defaultLanguage,
        ...(config.operatorName === undefined ? {} : { operatorName: config.operatorName }),
      },
      { accountTabs: ACCOUNT_TABS },
    ),
    demoWallet: deps.demoWallet ?? false,
    receipts: createConsentReceipts(store),
    /** The engine's client records (src/infra/store/client_records.ts) and Signet's registry of them (src/domain/clients/). */
    clientRecords,
    clients,
    limits,
    /**
     * The one address check of the URLs given at run time (src/infra/outbound/): the clients'
     * rules, the engine's fetches, owners' webhooks and SSF endpoints at save; the webhook queue
     * checks again at delivery.
     */
    urlGuard,
    /** Claim data held at other Information Providers (src/domain/providers/): the login fetches it, the releases read it. */
    heldElsewhere: createHeldElsewhere({
      store,
      providers,
      // The providers' own origins are the operator's (as CLIENTS' URLs are); a redirect elsewhere is checked hop by hop.
      client: createProviderClient({
        fetch: createGuardedFetch({ guard: urlGuard, trusted: providers.trusts, dial: deps.dialAddress }),
        onRequest: ({ provider, step, outcome }) => deps.metrics?.providerRequests.inc({ provider, step, outcome }),
      }),
      grants: providerGrants,
      copies: createProviderCopies({ store, providers, now }),
      timeoutMs: config.providerTimeoutMs,
      recheckSeconds: config.providerRecheckSeconds,
      challengeTtlSeconds: config.challengeTtlSeconds,
      now,
      logger: logger.child({ part: 'information_providers' }),
    }),
    providerGrants,
    issueChallenge: createChallengeIssuer(store, { issuer: config.issuer, chainId: chains.idOf(undefined), ttlSeconds: config.challengeTtlSeconds }, now),
    verifyChallenge: createChallengeVerifier(
      store,
      chains.named(undefined).client,
      config.rateLimits.failedSignaturesPerChallenge,
      config.challengeTtlSeconds,
      now,
      (chainId) => chains.require(chainId).client,
    ),
    /** Owner sessions (src/domain/owner_sessions/): opened by the account's sign-in, read by every owner's route. */
    sessions,
    sessionCallers: sessionCallers(sessions),
    backchannel: createBackchannelInbox(store),
    /** The identities each chain's watcher follows (src/domain/watch/): the features list them as grants start. */
    watchlists: createWatchlists(store, now, chains.idOf(undefined)),
    /** The owner's access history (src/domain/history/): the engine, the grants, the account and the owner's data write or read it. */
    history: createAccessHistory({
      log: createHistoryLog(store, now),
      settings: config.retention,
      clientName: clients.nameOf,
      now,
      onLost: (error) => logger.error('an access history entry was not recorded (the release went ahead)', error),
      schedule: deps.historySchedule,
    }),
  };
}

export type AppParts = ReturnType<typeof createAppParts>;
