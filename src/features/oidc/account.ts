// The engine's account model: the subject is the identity's CAIP-10 id, the claims are the
// owner's profile, under claim:<topic> scopes the onchain claims kept in the grant's signed
// consent, and, when the website asks for them (the claims parameter or the verified_claims
// scope), `verified_claims` answered from the verified data of the claims the owner kept, all
// read fresh. The engine then keeps only what the grant allows. When the chain cannot be read,
// tokens and userinfo still answer: each kept claim is named with status "chain_unavailable"
// and no data, and no verified_claims element is made (nothing is released unchecked, nothing
// is silently dropped).
import type { Context } from 'koa';
import type { Account, FindAccount, KoaContextWithOIDC } from 'oidc-provider';
import type { Address } from 'viem';
import { SignetError } from '../../base/errors.js';
import { keptAnswers } from '../../base/kept_answers.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { ClaimsService, ClaimView } from '../../domain/claims/claims_service.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import { ONCHAIN_CLAIMS, PROFILE_FIELDS } from '../../domain/fields/fields.js';
import { SCOPE_REQUEST, type VerifiedRequest, verifiedRequestsIn } from '../../domain/fields/verified_claims_request.js';
import { VERIFIED_CLAIMS, VERIFIED_SCOPE, type VerifiedPick, verifiedFieldName } from '../../domain/fields/verified_fields.js';
import type { AccessHistory } from '../../domain/history/access_history.js';
import { parseSubject } from '../../domain/identity/subject.js';
import type { Profile, ProfileStore } from '../../domain/profile/profile.js';
import type { HeldElsewhere } from '../../domain/providers/held_elsewhere.js';
import { answerRequest } from '../../domain/verified_claims/verified_claims_answer.js';
import type { VerifiedClaimsElement } from '../../domain/verified_claims/verified_claims_schema.js';
import type { VerifiedSource, VerifiedSources } from '../../domain/verified_claims/verified_sources.js';
import { clientAddress } from '../../http/client_address.js';
import type { IdentityKey } from '../../infra/chain/identity_key.js';
import type { ReadAccountAhead } from '../../infra/store/read_account_ahead.js';

/** What the account reads on the chain a subject names: its profiles, claims and verified data, and how its history names an identity. */
export type AccountChain = {
  profiles: ProfileStore;
  claims: ClaimsService;
  /** The kept claims' verified data, for `verified_claims` (src/domain/verified_claims/verified_sources.ts). */
  verified?: VerifiedSources;
  /** The default chain's identity by its address, another chain's by its CAIP-10 id (its own owner's history). */
  identityKey(identity: Address): IdentityKey;
};

export type AccountDeps = {
  receipts: ConsentReceipts;
  topics: ClaimTopics;
  /** The clock a request's `max_age` is measured on. */
  now?: () => number;
  /** Where each release through the ID token or userinfo is recorded for the owner. */
  history?: AccessHistory;
  /** Each chain's own parts, for subjects of that chain; undefined: not served. */
  chains: { get(chainId: number): AccountChain | undefined };
  /** Reads the signing wallet's key live before a refresh; false ends it (the engine answers invalid_grant). */
  mayRefresh?: (grantId: string) => Promise<boolean>;
  /** Claim data other Information Providers hold, kept for the grant (src/domain/providers/). */
  heldElsewhere?: HeldElsewhere;
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

/** The account's deps with one chain's parts. */
type OnChain = Omit<AccountDeps, 'chains'> & AccountChain;

/** Where the release is recorded through: its door and the caller's facts (undefined: not recorded). */
function releaseOf(deps: OnChain, ctx: KoaContextWithOIDC, use: string, grantId: string | undefined) {
  const clientId = ctx.oidc?.client?.clientId;
  if (!deps.history || !clientId) return undefined;
  const door = use === 'userinfo' ? 'userinfo' : ctx.oidc.params?.grant_type === CIBA_GRANT ? 'ciba' : 'id_token';
  return { client_id: clientId, grant_id: grantId ?? null, door, client_address: clientAddress(ctx as unknown as Context) } as const;
}

function recordRelease(
  deps: OnChain,
  ctx: KoaContextWithOIDC,
  /** As the chain's history names it (AccountChain.identityKey). */
  identity: IdentityKey,
  use: string,
  grantId: string | undefined,
  fields: string[],
  claimIds: readonly string[],
  providers: Record<string, string> = {},
): void {
  const release = releaseOf(deps, ctx, use, grantId);
  if (!release) return;
  deps.history!.record(identity, { ...release, fields, claims: [...claimIds], providers });
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

/** The kept onchain claims as they stand now; named unverified, without data, when the chain cannot be read. */
async function sharedClaims(deps: OnChain, identity: Address, kept: readonly `0x${string}`[]): Promise<SharedClaim[]> {
  try {
    return await deps.claims.shared(identity, kept);
  } catch (error) {
    if (!(error instanceof SignetError && error.reason === 'chain_unavailable')) throw error;
    return unverifiedClaims(deps.topics, kept);
  }
}

/** What one token asks of verified claims: its part of the claims parameter, else the verified_claims scope's request. */
function verifiedRequestsFor(scopes: Set<string>, requested: unknown, rejected: readonly string[]): VerifiedRequest[] {
  if (rejected.includes(VERIFIED_CLAIMS)) return [];
  const asked = verifiedRequestsIn(requested);
  if (asked.length) return asked;
  return scopes.has(VERIFIED_SCOPE) ? [SCOPE_REQUEST] : [];
}

/** One element per request and per kept claim that meets it, holding only the claims kept from that claim. */
function answerVerified(requests: VerifiedRequest[], sources: VerifiedSource[], picks: readonly VerifiedPick[], now: number) {
  const elements: VerifiedClaimsElement[] = [];
  const fields = new Set<string>();
  const claims = new Set<string>();
  for (const request of requests) {
    for (const source of sources) {
      const pick = picks.find((each) => each.claim_id.toLowerCase() === source.claim.claim_id.toLowerCase());
      const element = pick && answerRequest(source.element, request, new Set(pick.claims), now);
      if (!element) continue;
      elements.push(element);
      for (const name of Object.keys(element.claims)) fields.add(verifiedFieldName(name));
      claims.add(source.claim.claim_id);
    }
  }
  return { elements, fields: [...fields], claims: [...claims] };
}

/** The kept claims' verified data as it stands now; none when the chain cannot be read (never unchecked). */
async function verifiedSourcesOf(deps: OnChain, identity: Address, picks: readonly VerifiedPick[]): Promise<VerifiedSource[]> {
  if (!deps.verified || picks.length === 0) return [];
  try {
    return await deps.verified.among(
      identity,
      picks.map((pick) => pick.claim_id as `0x${string}`),
    );
  } catch (error) {
    if (error instanceof SignetError && error.reason === 'chain_unavailable') return [];
    throw error;
  }
}

/** What a token's scope string tells the account model. */
type ScopeReading = {
  scopes: Set<string>;
  /** The claim topics its scopes name (the configuration's topics). */
  topics: Set<number>;
  /** Whether its claims are answered from the consent receipt: a claim topic, or verified claims. */
  namesReceipt: boolean;
};

// A token's scope is read once per distinct string (every userinfo of a website asks the same
// one, and a website asks with few), by the account's claims and by its read-ahead alike: one
// reading per configuration's topics.
const scopeReaders = new WeakMap<ClaimTopics, (scope: string) => ScopeReading>();
function scopeReaderOf(topics: ClaimTopics): (scope: string) => ScopeReading {
  let reader = scopeReaders.get(topics);
  if (!reader) {
    reader = keptAnswers(256, (scope) => {
      const scopes = new Set(scope.split(' '));
      const named = new Set(topics.all.filter((topic) => scopes.has(topics.scopeOf(topic))).map((topic) => topic.topic));
      return { scopes, topics: named, namesReceipt: named.size > 0 || scopes.has(VERIFIED_SCOPE) };
    });
    scopeReaders.set(topics, reader);
  }
  return reader;
}

export function createFindAccount(shared: AccountDeps): FindAccount {
  const readScope = scopeReaderOf(shared.topics);
  // Each chain's parts beside the shared ones, made once per chain.
  const onChains = new Map<AccountChain, OnChain>();
  const onChainOf = (own: AccountChain) => onChains.get(own) ?? onChains.set(own, { ...shared, ...own }).get(own)!;
  return async (ctx, sub, token): Promise<Account | undefined> => {
    const subject = parseSubject(sub);
    if (!subject) return undefined;
    const { identity } = subject;
    // The subject names its chain: that chain's profiles and claims, never another's.
    const own = shared.chains.get(subject.chainId);
    if (!own) return undefined;
    const deps = onChainOf(own);
    // Another chain's identity has its own history, never the default chain's at that address.
    const historyIdentity = own.identityKey(identity);
    // The engine finds the account of a refresh before it spends the refresh token: no account, invalid_grant.
    const refreshing = ctx.oidc?.params?.grant_type === 'refresh_token' && token?.kind === 'RefreshToken' && token.grantId;
    if (refreshing && deps.mayRefresh && !(await deps.mayRefresh(token.grantId!))) return undefined;
    return {
      accountId: sub,
      async claims(use, scope, requested, rejected) {
        const { scopes, topics } = readScope(scope);
        const grantId = token?.grantId;
        const wantsClaims = topics.size > 0 && grantId !== undefined;
        const verifiedRequests = grantId === undefined ? [] : verifiedRequestsFor(scopes, requested, rejected ?? []);
        // The profile (read ahead when the engine found the token: readAccountAhead) and the
        // receipt are read together: one round trip at most.
        const readsReceipt = wantsClaims || verifiedRequests.length > 0;
        const [profile, receipt] = readsReceipt
          ? await Promise.all([deps.profiles.get(identity), deps.receipts.find(grantId!)])
          : [await deps.profiles.get(identity)];
        const fields = releasedFields(profile, scopes, requested, rejected ?? []);
        const answer: Record<string, unknown> & { sub: string } = { sub, ...profile };
        const picks = verifiedRequests.length ? (receipt?.verified ?? []) : [];
        // The onchain claims and the verified ones are read side by side (a login that kept
        // neither, most of them, reads no more).
        const [shared, sources] =
          wantsClaims || picks.length
            ? await Promise.all([
                wantsClaims ? sharedClaims(deps, identity, (receipt?.claims ?? []) as `0x${string}`[]) : [],
                verifiedSourcesOf(deps, identity, picks),
              ])
            : [[], []];
        const inScope = shared.filter((claim) => topics.has(claim.topic));
        // Data another provider holds comes from the copy kept for this grant (read again there when old).
        const elsewhere =
          deps.heldElsewhere && grantId && inScope.length
            ? await deps.heldElsewhere.release(grantId, sub, identity, inScope as ClaimView[])
            : { views: inScope, sources: {} };
        const released: SharedClaim[] = elsewhere.views;
        if (wantsClaims) answer[ONCHAIN_CLAIMS] = released;
        const verified = answerVerified(verifiedRequests, sources, picks, (deps.now ?? Date.now)());
        // One element is an object, several a list: both are the standard's forms.
        if (verified.elements.length) answer[VERIFIED_CLAIMS] = verified.elements.length === 1 ? verified.elements[0] : verified.elements;
        const releasedIds = new Set([...released.filter((claim) => claim.data !== undefined).map((claim) => claim.claim_id), ...verified.claims]);
        recordRelease(deps, ctx, historyIdentity, use, grantId, [...fields, ...verified.fields], [...releasedIds], elsewhere.sources);
        return answer;
      },
    };
  };
}

/**
 * Fills the store's ReadAccountAhead port (src/infra/store/read_account_ahead.ts, decision 57):
 * what the claims and checks of a code or token read next, read as soon as its record is found,
 * in the MGET of its Grant: the owner's profile, and the grant's consent receipt where it will
 * be read (a refresh checks the signing wallet's key by it; claim topics and verified claims are
 * answered from it).
 */
export function readAccountAhead(
  deps: Pick<AccountDeps, 'receipts' | 'topics'> & { chains: { get(chainId: number): Pick<AccountChain, 'profiles'> | undefined } },
): ReadAccountAhead {
  const readScope = scopeReaderOf(deps.topics);
  return ({ model, accountId, grantId, scope }) => {
    const subject = parseSubject(accountId);
    if (!subject) return [];
    // A subject of a chain not served: the engine finds no account, nothing is read.
    const profiles = deps.chains.get(subject.chainId)?.profiles;
    if (!profiles) return [];
    const profile = profiles.readAhead(subject.identity);
    const readsReceipt = model === 'RefreshToken' || readScope(scope ?? '').namesReceipt;
    return grantId && readsReceipt ? [profile, deps.receipts.readAhead(grantId)] : [profile];
  };
}
