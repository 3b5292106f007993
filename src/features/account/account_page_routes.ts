// The owner's account pages (server-rendered; JavaScript only for wallet calls) as route
// declarations, kept out of /openapi.json: sign in, create an identity, then overview, profile,
// wallets, claims and accesses. Forms post here, each with the session's form token, and a post
// from a page of another origin is refused (src/domain/owner_sessions/account_sessions.ts).
import type { Context } from 'koa';
import type { Address } from 'viem';
import { z } from 'zod';
import { refuse } from '../../base/errors.js';
import type { BackchannelInbox } from '../../domain/backchannel/backchannel_inbox.js';
import type { ClaimRequests } from '../../domain/claim_issuer/claim_requests.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { ClaimsService } from '../../domain/claims/claims_service.js';
import type { DisplayNames } from '../../domain/claims/display_names.js';
import type { AccountSessions, IdentitySession } from '../../domain/owner_sessions/account_sessions.js';
import { signInReturnPath } from '../../domain/owner_sessions/account_tabs.js';
import { FROM_OWN_PAGES, sessionCallers, toSignIn } from '../../domain/owner_sessions/session_callers.js';
import { ADDRESS_PARTS, type AddressPart, type Profile, type ProfileFieldName, type ProfileStore, profileSchema } from '../../domain/profile/profile.js';
import { type Authenticator, anyone } from '../../http/authenticators.js';
import type { RenderPage } from '../../http/pages.js';
import { type AnyRoute, route } from '../../http/route.js';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import { PURPOSES, signsIn } from '../../infra/chain/contracts.js';
import type { GrantListing } from '../grants/grant_listing.js';
import { grantPath } from '../grants/grant_schemas.js';
import type { IdentityCreator } from './identity_creation.js';
import type { IdentityKeys } from './identity_keys.js';

/** The owner's grants as the pages show and revoke them (the access-grant feature's). */
export type OwnerGrants = {
  /** `chainId`: as records name the identity's chain (none on the default chain). */
  list(identity: Address, chainId?: number): ReturnType<GrantListing['list']>;
  revoke(grantId: string, identity: Address, chainId?: number): Promise<unknown>;
};

/** What the pages read on one chain. */
export type AccountPagesChain = { profiles: ProfileStore; identityKeys: IdentityKeys; claims: ClaimsService; creator: IdentityCreator; issuesClaims: boolean };

export type AccountPagesDeps = {
  renderPage: RenderPage;
  sessions: AccountSessions;
  /** Each chain's profiles, keys and claims: the pages show the session's identity's chain. */
  onChain: ChainSet<ServedChain & AccountPagesChain>;
  topics: ClaimTopics;
  grants: OwnerGrants;
  backchannel: Pick<BackchannelInbox, 'pendingFor'>;
  claimRequests?: ClaimRequests;
  serviceName: (service: string) => Promise<string>;
  demoWallet: boolean;
  /** Issuer, topic and field names the pages show instead of addresses and codes. */
  names: DisplayNames;
  /** Grant id -> when it last released data (the access history's); `chainId`: of another chain's identity. */
  lastReads: (identity: Address, chainId?: number) => Promise<Record<string, string>>;
};

const TAG = 'Account pages';

/** The profile form: one input per value, the address flattened. */
const PROFILE_FORM = [
  { name: 'given_name', label: 'First name', type: 'text', autocomplete: 'given-name' },
  { name: 'family_name', label: 'Last name', type: 'text', autocomplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autocomplete: 'email' },
  { name: 'phone_number', label: 'Phone', type: 'tel', autocomplete: 'tel', hint: '(international format, like +33612345678)' },
  { name: 'street_address', label: 'Street address', type: 'text', autocomplete: 'street-address' },
  { name: 'locality', label: 'City', type: 'text', autocomplete: 'address-level2' },
  { name: 'region', label: 'Region', type: 'text', autocomplete: 'address-level1' },
  { name: 'postal_code', label: 'Postal code', type: 'text', autocomplete: 'postal-code' },
  { name: 'country', label: 'Country', type: 'text', autocomplete: 'country-name' },
  { name: 'website', label: 'Website', type: 'url', autocomplete: 'url', hint: '(https://…)' },
] as const satisfies readonly { name: FormValueName; label: string; type: string; autocomplete: string; hint?: string }[];

/** The profile's values as the form has them: its fields, the address's parts in place of the address. */
type FormValueName = Exclude<ProfileFieldName, 'address'> | AddressPart;
/** Compiles only if the form has an input for every value of the profile (PROFILE_FORM's `satisfies` refuses any other name). */
const formIsComplete: Exclude<FormValueName, (typeof PROFILE_FORM)[number]['name']> extends never ? true : never = true;
void formIsComplete;

const isAddressPart = (name: string): name is AddressPart => (ADDRESS_PARTS as readonly string[]).includes(name);

function flatten(profile: Profile): Record<string, string> {
  const { address, ...rest } = profile;
  return { ...(rest as Record<string, string>), ...(address as Record<string, string> | undefined) };
}

function profileFromForm(form: Record<string, unknown>) {
  const value = (name: string) => {
    const raw = form[name];
    return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
  };
  const address = Object.fromEntries(ADDRESS_PARTS.map((part) => [part, value(part)]).filter(([, v]) => v !== undefined));
  const fields = Object.fromEntries(PROFILE_FORM.filter((input) => !isAddressPart(input.name)).map((input) => [input.name, value(input.name)]));
  return { ...fields, ...(Object.keys(address).length ? { address } : {}) };
}

/** A page's optional query word: anything else (a repeated parameter) reads as absent. */
const word = z.string().optional().catch(undefined);

export function accountPageRoutes(deps: AccountPagesDeps): AnyRoute[] {
  const { visitor } = sessionCallers(deps.sessions);
  /** The session's chain's parts. */
  const on = (session: IdentitySession) => deps.onChain.named(session.chain_id);
  /** Signet's issuer takes requests for claims on the session's chain when it issues there. */
  const requestsClaims = (session: IdentitySession) => Boolean(deps.claimRequests) && on(session).issuesClaims;

  // Each view names its own title (its catalog key).
  const page = (ctx: Context, view: string, session: IdentitySession, data: Record<string, unknown>) => {
    deps.renderPage(ctx, `account/${view}`, {
      identity: session.identity,
      wallet: session.wallet,
      // The identity's chain: the wallet is asked to switch to it before it sends a transaction.
      chainId: on(session).chainId,
      chainName: deps.onChain.several ? on(session).name : undefined,
      demoWallet: deps.demoWallet,
      names: deps.names,
      notice: undefined,
      ...data,
    });
    return {};
  };

  const pageRoute = <Q>(path: string, summary: string, query: z.ZodType<Q>, show: (ctx: Context, session: IdentitySession, query: Q) => Promise<object>) =>
    route({
      method: 'get',
      path,
      summary,
      tag: TAG,
      auth: visitor,
      query,
      responses: { 200: { description: 'The page' } },
      undocumented: true,
      handle: async ({ ctx, query, caller }) => (caller ? show(ctx, caller, query) : toSignIn(ctx)),
    });

  return [
    route({
      method: 'get',
      path: '/account',
      summary: 'Sign in, create the identity, or the overview of the identity',
      tag: TAG,
      auth: anyVisitor(deps.sessions),
      query: z.object({ next: word }),
      responses: { 200: { description: 'The page' } },
      undocumented: true,
      async handle({ ctx, query, caller: any }) {
        if (!any) {
          deps.renderPage(ctx, 'account/signin', {
            // The chain the wallet is asked for when the owner names none.
            chainId: deps.onChain.idOf(undefined),
            chains: deps.onChain.all.map((chain) => ({ chain_id: chain.chainId, name: chain.name })),
            demoWallet: deps.demoWallet,
            next: signInReturnPath(query.next),
          });
          return {};
        }
        if (!any.identity) {
          const chain = deps.onChain.named(any.chain_id);
          const creation = await chain.creator.status(any.wallet);
          if (creation?.status === 'deployed' && creation.identity) {
            await deps.sessions.attachIdentity(any, creation.identity);
            ctx.redirect('/account');
            return {};
          }
          deps.renderPage(ctx, 'account/create', {
            wallet: any.wallet,
            creation,
            chainId: chain.chainId,
            demoWallet: deps.demoWallet,
          });
          return {};
        }
        const session = any as IdentitySession;
        const chain = on(session);
        const [profile, keys, claims, grants, backchannel] = await Promise.all([
          chain.profiles.get(session.identity),
          chain.identityKeys.list(session.identity, [session.wallet]),
          chain.claims.listForTopics(
            session.identity,
            deps.topics.all.map((topic) => topic.topic),
          ),
          deps.grants.list(session.identity, session.chain_id),
          deps.backchannel.pendingFor(session.identity, session.chain_id),
        ]);
        return page(ctx, 'overview', session, {
          profileCount: Object.keys(flatten(profile)).length,
          walletCount: keys.filter((key) => signsIn(key.purposes)).length,
          claimCount: claims.length,
          activeCount: grants.items.filter((grant) => grant.status === 'active').length,
          pendingCount: grants.items.filter((grant) => grant.status === 'pending').length + backchannel.length,
        });
      },
    }),

    route({
      method: 'post',
      path: '/account/signout',
      summary: 'Sign out (the form of the pages)',
      tag: TAG,
      auth: anyone,
      bodyLimit: 'form',
      responses: { 302: { description: 'Back to the sign-in page' } },
      refusals: FROM_OWN_PAGES,
      undocumented: true,
      async handle({ ctx }) {
        await deps.sessions.close(ctx);
        ctx.redirect('/account');
        return {};
      },
    }),

    pageRoute('/account/profile', 'The profile form', z.object({ saved: word }), async (ctx, session, query) => {
      const values = flatten(await on(session).profiles.get(session.identity));
      return page(ctx, 'profile', session, { fields: PROFILE_FORM, values, errors: [], saved: query.saved === '1' });
    }),

    route({
      method: 'post',
      path: '/account/profile',
      summary: 'Save the profile (the form of the profile page)',
      tag: TAG,
      auth: visitor,
      bodyLimit: 'form',
      // Each value is checked below, so that the page can say what to fix beside its input.
      body: z.record(z.string(), z.unknown()),
      responses: { 302: { description: 'Saved: back to the profile page' }, 400: { description: 'The page again, with what to fix' } },
      undocumented: true,
      async handle({ ctx, body: submitted, caller: session }) {
        if (!session) return toSignIn(ctx);
        const parsed = profileSchema.safeParse(profileFromForm(submitted));
        if (!parsed.success) {
          // What to fix, worded by the page in its language (profile_error.* of the catalogs).
          const errors = parsed.error.issues.map((issue) => ({
            field: String(issue.path[issue.path.length - 1]),
            ...(issue.code === 'too_big' ? { max: Number(issue.maximum) } : {}),
          }));
          ctx.status = 400;
          const values = Object.fromEntries(PROFILE_FORM.map((f) => [f.name, typeof submitted[f.name] === 'string' ? submitted[f.name] : '']));
          return page(ctx, 'profile', session, { fields: PROFILE_FORM, values, errors, saved: false });
        }
        await on(session).profiles.set(session.identity, parsed.data);
        ctx.redirect('/account/profile?saved=1');
        return {};
      },
    }),

    pageRoute('/account/wallets', 'The wallets and keys of the identity', z.object({}), async (ctx, session) => {
      const keys = await on(session).identityKeys.list(session.identity, [session.wallet]);
      return page(ctx, 'wallets', session, {
        wallets: keys.filter((key) => signsIn(key.purposes)),
        otherKeys: keys.filter((key) => !signsIn(key.purposes)),
        purposes: PURPOSES,
      });
    }),

    pageRoute('/account/claims', 'The claims of the identity', z.object({ requested: word }), async (ctx, session, query) => {
      const claims = await on(session).claims.listForTopics(
        session.identity,
        deps.topics.all.map((topic) => topic.topic),
      );
      return page(ctx, 'claims', session, {
        claims,
        requestable: requestsClaims(session) ? deps.topics.all : [],
        // A message of the catalogs (locales/), in the page's language.
        notice: query.requested ? { key: 'account.notice.claim_requested', values: { topic: query.requested } } : undefined,
      });
    }),

    route({
      method: 'post',
      path: '/account/claims/requests',
      summary: "Ask Signet's claim issuer for a claim (the form of the claims page)",
      tag: TAG,
      auth: visitor,
      bodyLimit: 'form',
      body: z.object({ topic: z.string({ error: 'choose a claim topic' }) }),
      responses: { 302: { description: 'Sent: back to the claims page' } },
      refusals: ['claim_topic_unknown'],
      undocumented: true,
      async handle({ ctx, body, caller: session }) {
        if (!session) return toSignIn(ctx);
        const topic = deps.topics.byName(body.topic);
        if (!topic || !deps.claimRequests || !requestsClaims(session))
          throw refuse('claim_topic_unknown', 'choose a claim topic Signet issues', { previous: 'claim_topic_not_issued' });
        await deps.claimRequests.add(session.identity, topic.name, session.chain_id);
        ctx.redirect(`/account/claims?requested=${encodeURIComponent(topic.name)}`);
        return {};
      },
    }),

    pageRoute('/account/accesses', 'The grants of the identity and the requests waiting', z.object({ done: word }), async (ctx, session, query) => {
      const [{ items }, backchannel, lastReads] = await Promise.all([
        deps.grants.list(session.identity, session.chain_id),
        deps.backchannel.pendingFor(session.identity, session.chain_id),
        deps.lastReads(session.identity, session.chain_id),
      ]);
      const notices: Record<string, { key: string }> = { revoked: { key: 'account.notice.grant_revoked' }, denied: { key: 'account.notice.request_denied' } };
      // Names from the client registry, read before the page is drawn (a deleted client reads as such).
      const services = [...new Set(items.map((grant) => grant.service))];
      const names = new Map(await Promise.all(services.map(async (service) => [service, await deps.serviceName(service)] as const)));
      return page(ctx, 'accesses', session, {
        grants: items.filter((grant) => grant.status !== 'pending'),
        pending: items.filter((grant) => grant.status === 'pending'),
        backchannel,
        lastReads,
        serviceName: (service: string) => names.get(service) ?? service,
        notice: notices[query.done ?? ''],
      });
    }),

    route({
      method: 'post',
      path: '/account/accesses/{id}/revoke',
      summary: 'Revoke a grant (the form of the accesses page)',
      tag: TAG,
      auth: visitor,
      bodyLimit: 'form',
      params: grantPath,
      responses: { 302: { description: 'Revoked: back to the accesses page' } },
      refusals: ['grant_not_found', 'grant_not_active'],
      undocumented: true,
      async handle({ ctx, params, caller: session }) {
        if (!session) return toSignIn(ctx);
        await deps.grants.revoke(params.id, session.identity, session.chain_id);
        ctx.redirect('/account/accesses?done=revoked');
        return {};
      },
    }),
  ];
}

/** Any signed-in wallet, with or without an identity yet: the account's front page serves both. */
const anyVisitor = (sessions: AccountSessions): Authenticator<Awaited<ReturnType<AccountSessions['findAny']>>> => ({
  kind: 'wallet_session',
  refusals: [],
  authenticate: (ctx) => sessions.findAny(ctx),
});
