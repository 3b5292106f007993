// The owner's data feature: access history, export and erasure over what the other features
// hold. It sits above them (it reads grants, receipts, sessions, profiles and claims, and ends
// them on erasure) and nothing imports it back.

import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { type Address, getAddress, type Hex } from 'viem';
import type { Config } from '../../config/config.js';
import type { BackchannelInbox } from '../../domain/backchannel/backchannel_inbox.js';
import type { ClaimRequests } from '../../domain/claim_issuer/claim_requests.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { DisplayNames } from '../../domain/claims/display_names.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { parseSubject, subjectOf } from '../../domain/identity/subject.js';
import type { AccountSessions } from '../../domain/owner_sessions/account_sessions.js';
import type { SessionCallers } from '../../domain/owner_sessions/session_callers.js';
import type { HeldElsewhere } from '../../domain/providers/held_elsewhere.js';
import type { IssueChallenge, IssuedChallenge } from '../../domain/wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../../domain/wallet/verify_challenge.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import { createOwnerWebhooks } from '../../domain/webhooks/owner_webhooks.js';
import type { RenderPage } from '../../http/pages.js';
import type { Chains } from '../../domain/chains/chains.js';
import type { IdentityKey } from '../../infra/chain/identity_key.js';
import type { Logger } from '../../infra/observability/logger.js';
import { keys } from '../../infra/store/keys.js';
import { sessionCopyKeyOf } from '../../infra/store/oidc_adapter.js';
import type { Store } from '../../infra/store/store.js';
import type { ListedGrant } from '../grants/grant_listing.js';
import type { GrantsFeature } from '../grants/grants_feature.js';
import { createDataExport } from './data_export.js';
import { createErasureJobs, type ErasureSettings } from './erasure_jobs.js';
import { type ErasureStep, erasureSteps } from './erasure_steps.js';
import { ownerDataPages } from './owner_data_pages.js';
import { ownerDataRoutes } from './owner_data_routes.js';

export type OwnerDataDeps = {
  /** Each chain's identity reads, profiles, Signet's claim records and issuer: the session's chain's identity is the one exported and erased. */
  chains: Chains;
  config: Pick<Config, 'issuer' | 'retention'>;
  store: Store;
  now: () => number;
  logger: Logger;
  provider: Provider;
  sessions: AccountSessions;
  sessionCallers: SessionCallers;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  receipts: ConsentReceipts;
  /** The owner's grants: listed for the export, ended by an erasure. */
  grants: Pick<GrantsFeature, 'listing' | 'accessGrants'>;
  revokeLoginGrant: (grantId: string) => Promise<void>;
  topics: ClaimTopics;
  claimRequests?: ClaimRequests;
  backchannel: BackchannelInbox;
  history: AccessHistory;
  /** The credentials issued to the owner's wallets and the grants of its offers, revoked and forgotten by an erasure (src/features/credentials/). */
  credentials?: { eraseAll(identity: string): Promise<unknown> };
  watchlists: Watchlists;
  renderPage: RenderPage;
  names: DisplayNames;
  demoWallet: boolean;
  /** Claim data held at other Information Providers: the grants Signet holds there (exported, ended by an erasure) and the data kept per login. */
  heldElsewhere?: Pick<HeldElsewhere, 'endGrantsOf' | 'forgetCopy' | 'grantsOf'>;
  /** Erasure job timing (tests shorten the lease and the sweep). */
  erasureSettings?: Partial<ErasureSettings>;
  /** Called before each erasure step (tests cut the process there). */
  beforeErasureStep?: (step: ErasureStep) => Promise<void>;
};

const DAY_SECONDS = 86_400;

export function createOwnerDataFeature(deps: OwnerDataDeps) {
  const { store, topics } = deps;
  const ownerWebhooks = createOwnerWebhooks(store);
  const topicNames = topics.all.map((topic) => topic.name);

  /** Every grant of the identity (`chainId`: as records name its chain), every page. */
  const allGrants = async (identity: Address, chainId?: number): Promise<ListedGrant[]> => {
    const grants: ListedGrant[] = [];
    let cursor: string | undefined;
    do {
      const page = await deps.grants.listing.list(chainId === undefined ? { identity } : { identity, chainId }, { cursor, limit: 100 });
      grants.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return grants;
  };

  // Each chain's export: the session's chain's identity, never the same address on another chain.
  const onChain = deps.chains.withParts((each) => {
    const other = each.idInRecords;
    return {
      exportFor: createDataExport({
        issuer: deps.config.issuer,
        chainId: each.chainId,
        store,
        profile: (identity) => each.profiles.get(identity),
        sessions: (identity) => deps.sessions.listFor(each.identityKey(identity)),
        grants: (identity) => allGrants(identity, other),
        claimRecords: (identity) => each.records.listFor(identity),
        claimRequests: async (identity) => (await deps.claimRequests?.listFor(identity, topicNames, other)) ?? [],
        webhookUrl: async (identity) => (await ownerWebhooks.get(each.identityKey(identity)))?.url,
        pendingLogins: (identity) => deps.backchannel.pendingFor(identity, other),
        history: { all: (identity) => deps.history.all(each.identityKey(identity)) },
        walletKey: each.identityKey,
        providerGrants: deps.heldElsewhere?.grantsOf,
        now: deps.now,
      }),
    };
  });

  /**
   * An erasure job names its identity as the chain's Redis keys do (the default chain's by its
   * address, another's by CAIP-10): a job resumed after a restart knows its chain.
   */
  const targetOf = (named: IdentityKey) => {
    const parsed = named.startsWith('eip155:') ? parseSubject(named) : undefined;
    const on = onChain.named(parsed?.chainId);
    return { on, identity: parsed?.identity ?? getAddress(named), chainId: on.idInRecords };
  };

  const receiptSeconds = Math.max(1, Math.round(deps.config.retention.receiptDays * DAY_SECONDS));
  const erasures = createErasureJobs({
    store,
    now: deps.now,
    settings: deps.erasureSettings,
    beforeStep: deps.beforeErasureStep ? (step) => deps.beforeErasureStep!(step) : undefined,
    onFailure: (error) => deps.logger.error('erasure job interrupted; it resumes on the next sweep', error),
    run: erasureSteps({
      store,
      // Each step gets the job's identity as its chain's keys name it (see targetOf).
      endAccountSessions: (named) => deps.sessions.endAll(named),
      endEngineSessions: async (named) => {
        const { on, identity } = targetOf(named);
        const index = keys.engineSessionsOf(subjectOf(on.chainId, identity));
        const sessions = await store.indexMembers(index);
        // Each with the copy of it its uid key holds (src/infra/store/oidc_adapter.ts).
        const copies = (await store.getMany(sessions)).map(sessionCopyKeyOf).filter((key) => key !== undefined);
        await store.delete(...sessions, ...sessions.map((session) => keys.consumed(session)), ...copies, index);
      },
      pendingBackchannel: (named) => {
        const { identity, chainId } = targetOf(named);
        return deps.backchannel.pendingFor(identity, chainId);
      },
      denyBackchannel: async (id) => {
        if (await deps.backchannel.take(id)) {
          await deps.provider.backchannelResult(id, new errors.AccessDenied('the identity owner erased their data')).catch(() => {
            // The engine's request already ended (expired or decided): nothing is waiting for it.
          });
        }
      },
      accessGrantIds: async (named) => {
        const { identity, chainId } = targetOf(named);
        return (await allGrants(identity, chainId)).filter((grant) => grant.kind !== 'login').map((grant) => grant.id);
      },
      currentGrant: (id) => deps.grants.accessGrants.current(id),
      denyGrant: (id, named) => {
        const { identity, chainId } = targetOf(named);
        return deps.grants.accessGrants.deny(id, identity, chainId);
      },
      revokeGrant: (id, named) => {
        const { identity, chainId } = targetOf(named);
        return deps.grants.accessGrants.revoke(id, chainId === undefined ? { identity } : { identity, chainId }, 'erasure');
      },
      receipts: (named) => {
        const { identity, chainId } = targetOf(named);
        return deps.receipts.listFor(identity, chainId);
      },
      keepReceipt: (receipt, seconds) => deps.receipts.save(receipt, seconds),
      revokeLoginGrant: deps.revokeLoginGrant,
      endProviderGrants:
        deps.heldElsewhere &&
        (async (named) => {
          const { on, identity } = targetOf(named);
          await deps.heldElsewhere!.endGrantsOf(subjectOf(on.chainId, identity));
        }),
      forgetProviderData: deps.heldElsewhere?.forgetCopy,
      issuedClaims: (named) => {
        const { on, identity } = targetOf(named);
        return on.records.listFor(identity);
      },
      // Records exist only on chains where Signet issues claims, so each has its chain's issuer.
      revokeIssuedClaim: async (named, claimId) => {
        const { on, identity } = targetOf(named);
        await on.issuer?.revoke(identity, claimId as Hex);
      },
      removeClaimRequests: deps.claimRequests
        ? async (named) => {
            const { identity, chainId } = targetOf(named);
            await deps.claimRequests!.removeFor(identity, topicNames, chainId);
          }
        : undefined,
      history: deps.history,
      eraseCredentials: deps.credentials && ((identity) => deps.credentials!.eraseAll(identity)),
      // Each chain's watcher stops following that chain's identity (the same address elsewhere is another).
      unwatch: async (named) => {
        const { identity, chainId } = targetOf(named);
        await deps.watchlists(chainId).unwatch(identity);
      },
      receiptSeconds,
    }),
  });

  const routes = ownerDataRoutes({
    issuer: deps.config.issuer,
    owner: deps.sessionCallers.owner,
    onChain,
    history: deps.history,
    erasures,
    issueChallenge: deps.issueChallenge,
    verifyChallenge: deps.verifyChallenge,
    receiptDays: deps.config.retention.receiptDays,
  });
  const pages = ownerDataPages({
    onChain,
    renderPage: deps.renderPage,
    sessions: deps.sessions,
    history: deps.history,
    names: deps.names,
    demoWallet: deps.demoWallet,
    retention: deps.config.retention,
  });
  return { routes: [...routes, ...pages], erasures };
}

export type OwnerDataFeature = ReturnType<typeof createOwnerDataFeature>;
