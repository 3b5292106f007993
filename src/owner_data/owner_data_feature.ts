// The owner's data feature: access history, export and erasure over what the other features
// hold. It sits above them (it reads grants, receipts, sessions, profiles and claims, and ends
// them on erasure) and nothing imports it back.
import { errors } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { Address, Hex } from 'viem';
import type { AccountSessions } from '../owner_sessions/account_sessions.js';
import type { ClaimRequests } from '../claims/claim_requests.js';
import type { SessionCallers } from '../owner_sessions/session_callers.js';
import type { BackchannelInbox } from '../backchannel/backchannel_inbox.js';
import type { ClaimRecords } from '../claims/claim_records.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { DisplayNames } from '../claims/display_names.js';
import type { SignetIssuer } from '../claims/signet_issuer.js';
import type { Config } from '../config.js';
import type { AccessGrants } from '../grants/access_grants.js';
import type { GrantListing, ListedGrant } from '../grants/grant_listing.js';
import type { AccessHistory } from '../history/access_history.js';
import type { Logger } from '../observability/logger.js';
import type { RenderPage } from '../http/pages.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { subjectOf } from '../identity/subject.js';
import type { ConsentReceipts } from '../consent/consent_receipts.js';
import { createOwnerWebhooks } from '../notify/owner_webhooks.js';
import type { ProfileStore } from '../profile/profile.js';
import { keys } from '../store/keys.js';
import type { Watchlist } from '../watch/watchlist.js';
import type { Store } from '../store/store.js';
import type { IssueChallenge, IssuedChallenge } from '../wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../wallet/verify_challenge.js';
import { createDataExport } from './data_export.js';
import { createErasureJobs, type ErasureSettings } from './erasure_jobs.js';
import { type ErasureStep, erasureSteps } from './erasure_steps.js';
import { ownerDataPages } from './owner_data_pages.js';
import { ownerDataRoutes } from './owner_data_routes.js';

export type OwnerDataDeps = {
  config: Pick<Config, 'issuer' | 'retention'>;
  chainId: number;
  store: Store;
  now: () => number;
  logger: Logger;
  provider: Provider;
  sessions: AccountSessions;
  callers: SessionCallers;
  registry: IdentityRegistry;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  listing: GrantListing;
  accessGrants: AccessGrants;
  revokeLoginGrant: (grantId: string) => Promise<void>;
  topics: ClaimTopics;
  issuer?: SignetIssuer;
  /** The off-chain data of the claims Signet's issuer gave. */
  records: ClaimRecords;
  claimRequests?: ClaimRequests;
  backchannel: BackchannelInbox;
  history: AccessHistory;
  watchlist: Pick<Watchlist, 'unwatch'>;
  renderPage: RenderPage;
  names: DisplayNames;
  demoWallet: boolean;
  /** Erasure job timing (tests shorten the lease and the sweep). */
  erasureSettings?: Partial<ErasureSettings>;
  /** Called before each erasure step (tests cut the process there). */
  beforeErasureStep?: (step: ErasureStep) => Promise<void>;
};

const DAY_SECONDS = 86_400;

export function createOwnerDataFeature(deps: OwnerDataDeps) {
  const { store, topics, issuer } = deps;
  const ownerWebhooks = createOwnerWebhooks(store);
  const topicNames = topics.all.map((topic) => topic.name);

  const claimRecords = (identity: Address) => deps.records.listFor(identity);

  /** Every grant of the identity, every page. */
  const allGrants = async (identity: Address): Promise<ListedGrant[]> => {
    const grants: ListedGrant[] = [];
    let cursor: string | undefined;
    do {
      const page = await deps.listing.list({ identity }, { cursor, limit: 100 });
      grants.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return grants;
  };

  const exportFor = createDataExport({
    issuer: deps.config.issuer,
    chainId: deps.chainId,
    store,
    profile: (identity) => deps.profiles.get(identity),
    sessions: (identity) => deps.sessions.listFor(identity),
    grants: allGrants,
    claimRecords,
    claimRequests: async (identity) => deps.claimRequests?.listFor(identity, topicNames) ?? [],
    webhookUrl: async (identity) => (await ownerWebhooks.get(identity))?.url,
    pendingLogins: (identity) => deps.backchannel.pendingFor(identity),
    history: deps.history,
    now: deps.now,
  });

  const receiptSeconds = Math.max(1, Math.round(deps.config.retention.receiptDays * DAY_SECONDS));
  const erasures = createErasureJobs({
    store,
    now: deps.now,
    settings: deps.erasureSettings,
    beforeStep: deps.beforeErasureStep ? (step) => deps.beforeErasureStep!(step) : undefined,
    onFailure: (error) => deps.logger.error('erasure job interrupted; it resumes on the next sweep', error),
    run: erasureSteps({
      store,
      endAccountSessions: (identity) => deps.sessions.endAll(identity),
      endEngineSessions: async (identity) => {
        const index = keys.engineSessionsOf(subjectOf(deps.chainId, identity));
        const sessions = await store.indexMembers(index);
        await store.delete(...sessions, ...sessions.map((session) => keys.consumed(session)), index);
      },
      pendingBackchannel: (identity) => deps.backchannel.pendingFor(identity),
      denyBackchannel: async (id) => {
        if (await deps.backchannel.take(id)) {
          await deps.provider.backchannelResult(id, new errors.AccessDenied('the identity owner erased their data')).catch(() => {
            // The engine's request already ended (expired or decided): nothing is waiting for it.
          });
        }
      },
      accessGrantIds: async (identity) => (await allGrants(identity)).filter((grant) => grant.kind !== 'login').map((grant) => grant.id),
      currentGrant: (id) => deps.accessGrants.current(id),
      denyGrant: (id, identity) => deps.accessGrants.deny(id, identity),
      revokeGrant: (id, identity) => deps.accessGrants.revoke(id, { identity }, 'erasure'),
      receipts: (identity) => deps.receipts.listFor(identity),
      keepReceipt: (receipt, seconds) => deps.receipts.save(receipt, seconds),
      revokeLoginGrant: deps.revokeLoginGrant,
      issuedClaims: claimRecords,
      revokeIssuedClaim: issuer
        ? async (identity, claimId) => {
            await issuer.revoke(identity, claimId as Hex);
          }
        : undefined,
      removeClaimRequests: deps.claimRequests ? (identity) => deps.claimRequests!.removeFor(identity, topicNames) : undefined,
      history: deps.history,
      unwatch: (identity) => deps.watchlist.unwatch(identity),
      receiptSeconds,
    }),
  });

  const routes = ownerDataRoutes({
    issuer: deps.config.issuer,
    chainId: deps.chainId,
    owner: deps.callers.owner,
    registry: deps.registry,
    history: deps.history,
    exportFor,
    erasures,
    issueChallenge: deps.issueChallenge,
    verifyChallenge: deps.verifyChallenge,
    receiptDays: deps.config.retention.receiptDays,
  });
  const pages = ownerDataPages({
    chainId: deps.chainId,
    renderPage: deps.renderPage,
    sessions: deps.sessions,
    history: deps.history,
    names: deps.names,
    demoWallet: deps.demoWallet,
    issuesClaims: issuer !== undefined,
    retention: deps.config.retention,
  });
  return { routes: [...routes, ...pages], erasures, exportFor };
}

export type OwnerDataFeature = ReturnType<typeof createOwnerDataFeature>;
