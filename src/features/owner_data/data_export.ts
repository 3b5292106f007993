// The owner's copy of everything Signet holds about their identity (portability): one JSON
// document of the versioned form in docs/export.md. Secrets stay out: no token, no session id,
// no webhook secret, nothing of another identity's.
import type { Address } from 'viem';
import type { BackchannelRequest } from '../../domain/backchannel/backchannel_inbox.js';
import type { ClaimRecord } from '../../domain/claims/claim_records.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { Profile } from '../../domain/profile/profile.js';
import type { HeldGrant } from '../../domain/providers/provider_grants.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { ListedGrant } from '../grants/grant_listing.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './owner_data_schemas.js';

export type ExportDeps = {
  issuer: string;
  chainId: number;
  store: Store;
  profile(identity: Address): Promise<Profile | undefined>;
  sessions(identity: Address): Promise<{ id: string; wallet: Address; created_at: string }[]>;
  /** Every grant of the identity: access grants and OIDC logins with their signed texts. */
  grants(identity: Address): Promise<ListedGrant[]>;
  /** The claims Signet's issuer holds off-chain data for. */
  claimRecords(identity: Address): Promise<ClaimRecord[]>;
  claimRequests(identity: Address): Promise<{ topic: string; requested_at: string }[]>;
  webhookUrl(identity: Address): Promise<string | undefined>;
  pendingLogins(identity: Address): Promise<BackchannelRequest[]>;
  /** The identity's access history on this chain. */
  history: { all(identity: Address): ReturnType<AccessHistory['all']> };
  /** The grants Signet holds for the identity at other Information Providers (by its CAIP-10 subject). */
  providerGrants?: (subject: string) => Promise<HeldGrant[]>;
  /** How the identity creation records name a wallet on this chain (default: by its address, as on the default chain). */
  walletKey?: (wallet: Address) => string;
  now: () => number;
};

export function createDataExport(deps: ExportDeps) {
  const { store } = deps;

  /** Until when a key is kept: its expiry, or null when only an owner action ends it. */
  const keptUntil = async (key: string): Promise<string | null> => {
    const left = await store.ttl(key);
    if (left === undefined || !Number.isFinite(left)) return null;
    return new Date(deps.now() + left * 1000).toISOString();
  };

  return async function exportFor(identity: Address, currentSessionId: string) {
    const wallets = (await store.indexMembers(keys.identityWallets(identity))) as Address[];
    const [profile, sessions, grants, records, claimRequests, webhookUrl, pendingLogins, history, providerGrants] = await Promise.all([
      deps.profile(identity),
      deps.sessions(identity),
      deps.grants(identity),
      deps.claimRecords(identity),
      deps.claimRequests(identity),
      deps.webhookUrl(identity),
      deps.pendingLogins(identity),
      deps.history.all(identity),
      deps.providerGrants?.(subjectOf(deps.chainId, identity)) ?? [],
    ]);
    const sessionWallets = sessions.map((session) => session.wallet);
    const creationWallets = [...new Set([...wallets, ...sessionWallets].map((wallet) => wallet.toLowerCase()))];
    const walletKey = deps.walletKey ?? ((wallet: Address) => wallet);
    const creations = (await Promise.all(creationWallets.map((wallet) => store.get(keys.identityCreation(walletKey(wallet as Address))))))
      .filter((raw): raw is string => raw !== undefined)
      .map((raw) => JSON.parse(raw) as { identity: string | null })
      .filter((creation) => creation.identity?.toLowerCase() === identity.toLowerCase());
    return {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: new Date(deps.now()).toISOString(),
      issuer: deps.issuer,
      identity,
      subject: subjectOf(deps.chainId, identity),
      profile: profile && Object.keys(profile).length ? profile : null,
      wallets,
      identity_creations: creations,
      account_sessions: sessions.map((session) => ({ wallet: session.wallet, created_at: session.created_at, current: session.id === currentSessionId })),
      claims: await Promise.all(
        records.map(async (record) => ({
          claim_id: record.claim_id,
          topic: record.topic,
          issuer: record.issuer,
          data: record.document.data,
          expires_at: record.document.expires_at,
          salt: record.salt,
          hash: record.hash,
          uri: record.uri,
          issued_at: record.issued_at,
          revoked_at: record.revoked_at ?? null,
          kept_until: await keptUntil(keys.claimRecord(identity, record.claim_id)),
        })),
      ),
      claim_requests: claimRequests.map(({ topic, requested_at }) => ({ topic, requested_at })),
      grants: await Promise.all(
        grants.map(async (grant) => ({
          ...grant,
          kept_until: await keptUntil(grant.kind === 'login' ? keys.consent(grant.id) : keys.accessGrant(grant.id)),
        })),
      ),
      access_history: history,
      webhooks: webhookUrl ? [{ url: webhookUrl }] : [],
      pending_logins: pendingLogins,
      provider_grants: providerGrants.map(({ provider, claim_id, grant_id, resource, granted_at }) => ({ provider, claim_id, grant_id, resource, granted_at })),
    };
  };
}

export type DataExport = ReturnType<typeof createDataExport>;
