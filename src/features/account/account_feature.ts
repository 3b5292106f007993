// The owner's account feature: signing owners in (their sessions: src/domain/owner_sessions/),
// identity creation, the identity's keys and claims as transactions for the owner's wallet,
// owners' claim requests, the owner's webhook, and the account's API and pages.
import type { Config } from '../../config/config.js';
import type { BackchannelInbox } from '../../domain/backchannel/backchannel_inbox.js';
import type { ClaimRequests } from '../../domain/claim_issuer/claim_requests.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { DisplayNames } from '../../domain/claims/display_names.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import type { AccountSessions } from '../../domain/owner_sessions/account_sessions.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import type { IssueChallenge, IssuedChallenge } from '../../domain/wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../../domain/wallet/verify_challenge.js';
import { createOwnerWebhooks } from '../../domain/webhooks/owner_webhooks.js';
import type { RenderPage } from '../../http/pages.js';
import type { Chains } from '../../domain/chains/chains.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import type { Logger } from '../../infra/observability/logger.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import type { RateLimits } from '../../infra/rate_limits/rate_limits.js';
import type { Store } from '../../infra/store/store.js';
import type { GrantsFeature } from '../grants/grants_feature.js';
import { accountPageRoutes } from './account_page_routes.js';
import { accountRoutes } from './account_routes.js';
import { createClaimActions } from './claim_actions.js';
import { createIdentityCreator } from './identity_creation.js';
import { createIdentityKeys } from './identity_keys.js';

export type AccountFeatureDeps = {
  /** Each chain's identity reads, profiles, claims and claim reader, and Signet's issuer there: an owner signs in on any chain. */
  chains: Chains;
  issuer: string;
  store: Store;
  logger: Logger;
  limits: Pick<RateLimits, 'consume' | 'consumeAll'>;
  receipts: ConsentReceipts;
  /** Owner sessions: opened here at sign-in, read by the grants, the owner's data and CIBA too. */
  sessions: AccountSessions;
  sessionCallers: SessionCallers;
  topics: ClaimTopics;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  /** Owners' requests to Signet's issuer, when Signet issues claims here (the claims feature's). */
  claimRequests?: ClaimRequests;
  /** Its identityDeployerKey: the factory owner's key that pays for owners' identities (none: owners bring their own). */
  config: Pick<Config, 'identityDeployerKey'>;
  /** The address check of owners' webhook URLs at save (src/infra/outbound/url_guard.ts). */
  urlGuard: UrlGuard;
  /** The owner's grants: listed and revoked through the access-grant feature. */
  grants: Pick<GrantsFeature, 'listing' | 'revokeAsOwner'>;
  backchannel: Pick<BackchannelInbox, 'pendingFor'>;
  renderPage: RenderPage;
  names: DisplayNames;
  serviceName: (service: string) => Promise<string>;
  /** When each grant last released data. */
  history: Pick<AccessHistory, 'lastReads'>;
  demoWallet: boolean;
  now: () => number;
};

export function createAccountFeature(deps: AccountFeatureDeps) {
  const { store, now, sessions, sessionCallers: callers } = deps;
  // Each chain's keys and claim changes, on its own client.
  const onChain = deps.chains.withParts((each) => ({
    issuesClaims: each.issuer !== undefined,
    // Identities are created through the chain's IdFactory, with the factory owner's key (the same key on every chain).
    creator: createIdentityCreator({
      store,
      client: each.client,
      factory: each.settings.identity_factory,
      deployerKey: deps.config.identityDeployerKey,
      walletKey: each.identityKey,
      logger: deps.logger,
      limits: deps.limits,
      now,
    }),
    identityKeys: createIdentityKeys({ store, client: each.client, factory: each.settings.identity_factory }),
    claimActions: createClaimActions({ client: each.client, reader: each.reader }),
  }));
  const { claimRequests } = deps;
  const ownerWebhooks = createOwnerWebhooks(store);

  const routes = [
    ...accountRoutes({
      onChain,
      receipts: deps.receipts,
      sessions,
      callers,
      issueChallenge: deps.issueChallenge,
      verifyChallenge: deps.verifyChallenge,
      ownerWebhooks,
      webhookUrlGuard: deps.urlGuard,
      now,
    }),
    ...accountPageRoutes({
      renderPage: deps.renderPage,
      sessions,
      onChain,
      topics: deps.topics,
      grants: {
        list: (identity, chainId) => deps.grants.listing.list(chainId === undefined ? { identity } : { identity, chainId }, { limit: 100 }),
        // The grant must be the identity's on its chain (the same address on another chain is another identity).
        revoke: (grantId, identity, chainId) => deps.grants.revokeAsOwner(grantId, identity, chainId),
      },
      backchannel: deps.backchannel,
      claimRequests,
      serviceName: deps.serviceName,
      demoWallet: deps.demoWallet,
      names: deps.names,
      lastReads: (identity, chainId) => deps.history.lastReads(identityKeyOf(identity, chainId)),
    }),
  ];
  return { routes, claimRequests };
}

export type AccountFeature = ReturnType<typeof createAccountFeature>;
