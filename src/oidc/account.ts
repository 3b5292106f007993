// The engine's account model: the subject is the identity's CAIP-10 id, the claims are the
// owner's profile and, under claim:<topic> scopes, the onchain claims kept in the grant's
// signed consent, read fresh. The engine then keeps only what the grant allows. When the chain
// cannot be read, tokens and userinfo still answer: each kept claim is named with status
// "chain_unavailable" and no data (nothing is released unchecked, nothing is silently dropped).
import type { Context } from 'koa';
import type { Account, FindAccount, KoaContextWithOIDC } from 'oidc-provider';
import type { Address } from 'viem';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import { SignetError } from '../errors.js';
import type { AccessHistory } from '../history/access_history.js';
import { clientAddress } from '../http/client_address.js';
import { identityOfSubject } from '../identity/subject.js';
import type { ConsentReceipts } from '../consent/consent_receipts.js';
import type { Profile, ProfileStore } from '../profile/profile.js';
import { ONCHAIN_CLAIMS, PROFILE_FIELDS } from '../fields/fields.js';

export type AccountDeps = {
  chainId: number;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  claims: ClaimsService;
  topics: ClaimTopics;
  /** Where each release through the ID token or userinfo is recorded for the owner. */
  history?: AccessHistory;
  /** Reads the signing wallet's key live before a refresh; false ends it (the engine answers invalid_grant). */
  mayRefresh?: (grantId: string) => Promise<boolean>;
};

/** A claim as the tokens carry it: with its data when it was released. */
type SharedClaim = { claim_id: string; topic: number; data?: unknown };

const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';

/** The profile fields the engine lets out: those of the scopes or named in the claims request, not rejected, with a value. */
function releasedFields(profile: Profile, scopes: Set<string>, requested: unknown, rejected: readonly string[]): string[] {
  const named = requested && typeof requested === 'object' ? Object.keys(requested) : [];
  return PROFILE_FIELDS.filter(
    (field) => (scopes.has(field.scope) || named.includes(field.name)) && !rejected.includes(field.name) && profile[field.name as keyof Profile] !== undefined,
  ).map((field) => field.name);
}

function recordRelease(
  deps: AccountDeps,
  ctx: KoaContextWithOIDC,
  identity: Address,
  use: string,
  grantId: string | undefined,
  fields: string[],
  shared: readonly SharedClaim[],
): void {
  const clientId = ctx.oidc?.client?.clientId;
  if (!deps.history || !clientId) return;
  const door = use === 'userinfo' ? 'userinfo' : ctx.oidc.params?.grant_type === CIBA_GRANT ? 'ciba' : 'id_token';
  deps.history.record(identity, {
    client_id: clientId,
    grant_id: grantId ?? null,
    door,
    fields,
    claims: shared.filter((claim) => claim.data !== undefined).map((claim) => claim.claim_id),
    client_address: clientAddress(ctx as unknown as Context),
  });
}

/** The kept claims Signet can name without the chain (those of trusted issuers), unverified. */
function unverifiedClaims(topics: ClaimTopics, claimIds: readonly string[]) {
  return claimIds.flatMap((claimId) => {
    const known = topics.trustedClaim(claimId);
    if (!known) return [];
    return [
      {
        claim_id: claimId,
        topic: known.topic.topic,
        topic_name: known.topic.name,
        issuer: known.issuer,
        trusted: true,
        valid: false,
        status: 'chain_unavailable' as const,
      },
    ];
  });
}

export function createFindAccount(deps: AccountDeps): FindAccount {
  return async (ctx, sub, token): Promise<Account | undefined> => {
    const identity = identityOfSubject(deps.chainId, sub);
    if (!identity) return undefined;
    // The engine finds the account of a refresh before it spends the refresh token: no account, invalid_grant.
    const refreshing = ctx.oidc?.params?.grant_type === 'refresh_token' && token?.kind === 'RefreshToken' && token.grantId;
    if (refreshing && deps.mayRefresh && !(await deps.mayRefresh(token.grantId!))) return undefined;
    return {
      accountId: sub,
      async claims(use, scope, requested, rejected) {
        const scopes = new Set(scope.split(' '));
        const topics = new Set(deps.topics.all.filter((topic) => scopes.has(deps.topics.scopeOf(topic))).map((topic) => topic.topic));
        const grantId = token?.grantId;
        const wantsClaims = topics.size > 0 && grantId !== undefined;
        // The profile and the receipt are read together: one round trip.
        const [profile, receipt] = await Promise.all([deps.profiles.get(identity), wantsClaims ? deps.receipts.find(grantId) : undefined]);
        const fields = releasedFields(profile, scopes, requested, rejected ?? []);
        if (!wantsClaims) {
          recordRelease(deps, ctx, identity, use, grantId, fields, []);
          return { sub, ...profile };
        }
        const kept = (receipt?.claims ?? []) as `0x${string}`[];
        let shared: SharedClaim[];
        try {
          shared = await deps.claims.shared(identity, kept);
        } catch (error) {
          if (!(error instanceof SignetError && error.reason === 'chain_unavailable')) throw error;
          shared = unverifiedClaims(deps.topics, kept);
        }
        const released = shared.filter((claim) => topics.has(claim.topic));
        recordRelease(deps, ctx, identity, use, grantId, fields, released);
        return { sub, ...profile, [ONCHAIN_CLAIMS]: released };
      },
    };
  };
}
