// What ends consent, assembled: ending a login grant and telling its website (the owner, an
// erasure, a key removed), the live key check of every refresh, and on each chain the watcher
// whose settled events end what the chain says no longer stands, with that chain's reads only.
import type { Config } from '../../config/config.js';
import type { Chain, Chains } from '../../domain/chains/chains.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { GrantEndReason, Signals } from '../../domain/consent/consent_signal.js';
import { type ChainConsentHandlers, claimIssuersOf, createChainWatcher, watchersAsOne } from '../../domain/watch/chain_watcher.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import { settledPointFor } from '../../infra/chain/settled_point.js';
import type { Logger } from '../../infra/observability/logger.js';
import type { Metrics } from '../../infra/observability/metrics.js';
import type { Store } from '../../infra/store/store.js';
import type { AccessGrantParts } from '../grants/grants_feature.js';
import { type ChainConsentEndDeps, createChainConsentEnds } from './chain_consent_ends.js';
import { createLoginGrantEnd } from './login_grant_end.js';
import { createLoginSessionSid } from './login_session_sid.js';
import { createRefreshKeyCheck } from './refresh_key_check.js';

export type LoginEndsDeps = {
  store: Store;
  /** Each chain's identity reads: a refresh checks its wallet's key on the grant's chain (a receipt names it, or means the default chain). */
  chains: Pick<Chains, 'idOf' | 'named'>;
  receipts: ConsentReceipts;
  isLoginActive: (grantId: string) => Promise<boolean>;
  revokeLoginGrant: (grantId: string) => Promise<void>;
  signals: Signals;
  config: Pick<Config, 'refreshWhenChainDown'>;
  now: () => number;
};

/** Ending login grants: by receipt, by id (the owner, an erasure), and before a refresh whose key is gone. */
export function createLoginEnds(deps: LoginEndsDeps) {
  const endLoginGrant = createLoginGrantEnd({
    isActive: deps.isLoginActive,
    revokeLoginGrant: deps.revokeLoginGrant,
    sidOf: createLoginSessionSid(deps.store, deps.chains),
    signals: deps.signals,
    now: deps.now,
  });
  /** Ends a login grant by its id, as `reason` says, and tells the website. */
  const endLoginGrantById = (reason: GrantEndReason) => async (grantId: string) => {
    const receipt = await deps.receipts.find(grantId);
    if (receipt) await endLoginGrant(receipt, reason);
    else await deps.revokeLoginGrant(grantId);
  };
  const mayRefresh = createRefreshKeyCheck({
    receipts: deps.receipts,
    registryOn: (chainId) => deps.chains.named(chainId).registry,
    endLoginGrant,
    whenChainDown: deps.config.refreshWhenChainDown,
  });
  return { endLoginGrant, endLoginGrantById, mayRefresh };
}

export type LoginEnds = ReturnType<typeof createLoginEnds>;

export type ChainWatchingDeps = {
  config: Pick<Config, 'chainWatch' | 'claims' | 'claimIssuer'>;
  store: Store;
  /** Each chain's client, claim reader and Signet's issuer there, if any. */
  chains: Chains;
  receipts: ConsentReceipts;
  access: Pick<AccessGrantParts, 'accessGrants' | 'accessGrantIdsOf'>;
  isLoginActive: (grantId: string) => Promise<boolean>;
  endLoginGrant: LoginEnds['endLoginGrant'];
  watchlists: Watchlists;
  signals: Signals;
  /** The credentials issued from claims, ended with their claim. */
  credentials?: ChainConsentEndDeps['credentials'];
  /** What the default chain's events do instead of Signet's own (tests). */
  consentEnds?: ChainConsentHandlers;
  metrics?: Metrics;
  logger: Logger;
  now: () => number;
};

/** One watcher per chain, each with its own lease, cursor and settled point, run as one. */
export function createChainWatching(deps: ChainWatchingDeps) {
  const { config, chains } = deps;
  const consentEndsOn = (on: Chain) => {
    const other = on.idInRecords;
    return createChainConsentEnds({
      client: on.client,
      chainId: other,
      reader: on.reader,
      receipts: { listFor: (identity) => deps.receipts.listFor(identity, other) },
      accessGrantsOf: async (identity) => deps.access.accessGrants.currentOf(await deps.access.accessGrantIdsOf(identity, other)),
      isLoginActive: deps.isLoginActive,
      endLoginGrant: deps.endLoginGrant,
      revokeAccessGrant: (grant) => deps.access.accessGrants.revoke(grant.id, { identity: grant.identity, chainId: grant.chain_id }, 'key_removed'),
      watchedIdentities: () => deps.watchlists(on.chainId).identities(),
      signals: deps.signals,
      credentials: deps.credentials,
      now: deps.now,
    });
  };
  // The default chain's are the ones a test may replace (AppDeps.consentEnds).
  const chainConsentEnds = consentEndsOn(chains.named(undefined));
  // When each chain's events count: its own setting, the one for every chain, or its id's default.
  const settledPointOf = (chain: Chain) => {
    const { settled, known } = settledPointFor(chain.chainId, chain.settings.confirmations, config.chainWatch.confirmations);
    if (!known && config.chainWatch.enabled) {
      deps.logger.warn(
        `chain ${chain.chainId} has no known settled point: the watcher acts on the newest block (0 confirmations); set its confirmations ("safe", "finalized" or a number) if it reorganises`,
      );
    }
    return settled;
  };
  // The metrics carry each watcher's chain_id.
  const watching = chains.all.map((on) => {
    // The default chain's lease and cursor keys name no chain (as with one chain).
    const unnamed = on.idInRecords === undefined;
    const watcher = createChainWatcher({
      store: deps.store,
      client: on.client,
      ...(unnamed ? {} : { chainId: on.chainId }),
      watchlist: deps.watchlists(on.chainId),
      // Signet's own issuer on this chain (its entry's claim_issuer, else SIGNET_ISSUER_ADDRESS), with one chain as with several.
      issuers: claimIssuersOf(config, chains.several ? on.chainId : undefined, on.issuer?.address),
      handlers: unnamed ? (deps.consentEnds ?? chainConsentEnds) : consentEndsOn(on),
      settings: config.chainWatch,
      settled: settledPointOf(on),
      endpoints: on.endpoints,
      metrics: deps.metrics,
      metricsChainId: on.chainId,
      logger: deps.logger,
      now: deps.now,
    });
    return { watcher, chain: on };
  });
  return { chainConsentEnds, watcher: watchersAsOne(watching), watchers: watching.map(({ watcher }) => watcher) };
}
