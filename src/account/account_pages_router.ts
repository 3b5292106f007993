// The owner's account pages (server-rendered; JavaScript only for wallet calls): sign in,
// create an identity, then overview, profile, wallets, claims and accesses. Forms post here;
// the session cookie is SameSite=Strict, so no other site can post them on the owner's behalf.
import Router from '@koa/router';
import type { Context } from 'koa';
import type { ClaimsService } from '../claims/claims_service.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { DisplayNames } from '../claims/display_names.js';
import { SignetError } from '../errors.js';
import type { createGrantListing } from '../grants/grant_listing.js';
import type { RevokeAsOwner } from '../grants/owner_revocation.js';
import { BODY_LIMITS, formBody } from '../http/body.js';
import type { RenderPage } from '../http/pages.js';
import { type Profile, profileSchema } from '../profile/profile.js';
import type { ProfileStore } from '../profile/profile.js';
import type { AccountSessions, IdentitySession } from './account_sessions.js';
import type { BackchannelInbox } from '../ciba/backchannel_inbox.js';
import type { IdentityCreator } from './identity_creation.js';
import { type IdentityKeys, PURPOSE_NAMES } from './identity_keys.js';
import type { ClaimRequests } from './claim_requests.js';

export type AccountPagesDeps = {
  chainId: number;
  renderPage: RenderPage;
  sessions: AccountSessions;
  profiles: ProfileStore;
  identityKeys: IdentityKeys;
  claims: ClaimsService;
  topics: ClaimTopics;
  listing: ReturnType<typeof createGrantListing>;
  backchannel: BackchannelInbox;
  creator: IdentityCreator;
  claimRequests?: ClaimRequests;
  revokeAsOwner: RevokeAsOwner;
  serviceName: (service: string) => string;
  demoWallet: boolean;
  /** Issuer, topic and field names the pages show instead of addresses and codes. */
  names: DisplayNames;
};

/** The tabs, in order; sign-in returns to the one asked for (and only to one of these). */
const TABS = ['/account', '/account/profile', '/account/wallets', '/account/claims', '/account/accesses'];
const returnPath = (asked: unknown) => (typeof asked === 'string' && TABS.includes(asked) ? asked : '/account');

/** What each key purpose lets its holder do, in one line. */
const PURPOSES = {
  1: { name: 'MANAGEMENT', explanation: 'full control: adds and removes keys and claims' },
  2: { name: 'ACTION', explanation: 'signs in and approves sharing, nothing more' },
  3: { name: 'CLAIM', explanation: 'lets a claim issuer add claims to your identity; not a wallet you sign in with' },
} as const;

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
] as const;
const ADDRESS_PARTS = ['street_address', 'locality', 'region', 'postal_code', 'country'] as const;

const STATUS_WORDS = {
  valid: 'valid',
  untrusted_issuer: 'issuer not trusted',
  not_confirmed_by_issuer: 'revoked by its issuer',
  expired: 'expired',
};
const KIND_WORDS = { login: 'login', immediate: 'one-time access', persistent: 'lasting access' };

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
  return {
    given_name: value('given_name'),
    family_name: value('family_name'),
    email: value('email'),
    phone_number: value('phone_number'),
    website: value('website'),
    ...(Object.keys(address).length ? { address } : {}),
  };
}

const FIELD_MESSAGES: Record<string, string> = {
  email: 'Enter an email address like name@example.com',
  phone_number: 'Enter the phone number in international format, like +33612345678',
  website: 'Enter a full web address starting with https://',
};

export function createAccountPagesRouter(deps: AccountPagesDeps): Router {
  const router = new Router({ prefix: '/account' });
  // Every form post, those without fields included, goes through the same bounded reading.
  router.use(formBody(BODY_LIMITS.form));
  const noStore = (ctx: Context) => ctx.set('Cache-Control', 'no-store');

  /** The signed-in owner, or the sign-in page instead. */
  const owner = async (ctx: Context): Promise<IdentitySession | undefined> => {
    noStore(ctx);
    const session = await deps.sessions.find(ctx);
    // Back to the page asked for once signed in (GET pages only: a form post is not replayed).
    if (!session) ctx.redirect(ctx.method === 'GET' && ctx.path !== '/account' ? `/account?next=${encodeURIComponent(ctx.path)}` : '/account');
    return session;
  };
  const page = (ctx: Context, view: string, title: string, session: IdentitySession, data: Record<string, unknown>) =>
    deps.renderPage(ctx, `account/${view}`, {
      title,
      identity: session.identity,
      wallet: session.wallet,
      chainId: deps.chainId,
      demoWallet: deps.demoWallet,
      names: deps.names,
      notice: undefined,
      ...data,
    });

  router.get('/', async (ctx) => {
    noStore(ctx);
    const any = await deps.sessions.findAny(ctx);
    if (!any) {
      return deps.renderPage(ctx, 'account/signin', { title: 'Sign in', chainId: deps.chainId, demoWallet: deps.demoWallet, next: returnPath(ctx.query.next) });
    }
    if (!any.identity) {
      const creation = await deps.creator.status(any.wallet);
      if (creation?.status === 'deployed' && creation.identity) {
        await deps.sessions.attachIdentity(any, creation.identity);
        return ctx.redirect('/account');
      }
      return deps.renderPage(ctx, 'account/create', { title: 'Create your identity', wallet: any.wallet, creation, chainId: deps.chainId, demoWallet: deps.demoWallet });
    }
    const session = any as IdentitySession;
    const [profile, keys, claims, grants] = await Promise.all([
      deps.profiles.get(session.identity),
      deps.identityKeys.list(session.identity, [session.wallet]),
      deps.claims.listForTopics(session.identity, deps.topics.all.map((topic) => topic.topic)),
      deps.listing.list({ identity: session.identity }, { limit: 100 }),
    ]);
    page(ctx, 'overview', 'Your identity', session, {
      profileCount: Object.keys(flatten(profile)).length,
      walletCount: keys.filter((key) => key.purposes.some((purpose) => purpose === 1 || purpose === 2)).length,
      claimCount: claims.length,
      activeCount: grants.items.filter((grant) => grant.status === 'active').length,
      pendingCount: grants.items.filter((grant) => grant.status === 'pending').length + (await deps.backchannel.pendingFor(session.identity)).length,
    });
  });

  router.post('/signout', async (ctx) => {
    await deps.sessions.close(ctx);
    ctx.redirect('/account');
  });

  router.get('/profile', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    const values = flatten(await deps.profiles.get(session.identity));
    page(ctx, 'profile', 'Profile', session, { fields: PROFILE_FORM, values, errors: [], saved: ctx.query.saved === '1' });
  });

  router.post('/profile', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    const submitted = (ctx.request.body ?? {}) as Record<string, unknown>;
    const parsed = profileSchema.safeParse(profileFromForm(submitted));
    if (!parsed.success) {
      const errors = parsed.error.issues.map((issue) => {
        const field = String(issue.path[issue.path.length - 1]);
        return { field, message: FIELD_MESSAGES[field] ?? `${PROFILE_FORM.find((f) => f.name === field)?.label ?? field}: ${issue.message}` };
      });
      ctx.status = 400;
      const values = Object.fromEntries(PROFILE_FORM.map((f) => [f.name, typeof submitted[f.name] === 'string' ? submitted[f.name] : '']));
      return page(ctx, 'profile', 'Profile', session, { fields: PROFILE_FORM, values, errors, saved: false });
    }
    await deps.profiles.set(session.identity, parsed.data);
    ctx.redirect('/account/profile?saved=1');
  });

  router.get('/wallets', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    const keys = await deps.identityKeys.list(session.identity, [session.wallet]);
    const signsIn = (key: (typeof keys)[number]) => key.purposes.some((purpose) => purpose === 1 || purpose === 2);
    page(ctx, 'wallets', 'Wallets', session, {
      wallets: keys.filter(signsIn),
      otherKeys: keys.filter((key) => !signsIn(key)),
      purposes: PURPOSES,
      purposeNames: PURPOSE_NAMES,
    });
  });

  router.get('/claims', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    const claims = await deps.claims.listForTopics(session.identity, deps.topics.all.map((topic) => topic.topic));
    page(ctx, 'claims', 'Claims', session, {
      claims,
      statusWords: STATUS_WORDS,
      requestable: deps.claimRequests ? deps.topics.all : [],
      notice: ctx.query.requested ? `Your request for a ${ctx.query.requested} claim was sent to Signet's claim issuer.` : undefined,
    });
  });

  router.post('/claims/requests', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    const topic = deps.topics.byName(String((ctx.request.body as Record<string, unknown> | undefined)?.topic ?? ''));
    if (!topic || !deps.claimRequests) throw new SignetError('invalid_request', 'choose a claim topic Signet issues');
    await deps.claimRequests.add(session.identity, topic.name);
    ctx.redirect(`/account/claims?requested=${encodeURIComponent(topic.name)}`);
  });

  router.get('/accesses', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    const { items } = await deps.listing.list({ identity: session.identity }, { limit: 100 });
    const notices: Record<string, string> = { revoked: 'The grant is revoked: no more reads under it.', denied: 'The request is denied.' };
    page(ctx, 'accesses', 'Accesses', session, {
      grants: items.filter((grant) => grant.status !== 'pending'),
      pending: items.filter((grant) => grant.status === 'pending'),
      backchannel: await deps.backchannel.pendingFor(session.identity),
      serviceName: deps.serviceName,
      kindWords: KIND_WORDS,
      fieldWords: (fields: string[]) => fields.map((field) => deps.names.field(field)).join(', '),
      notice: notices[String(ctx.query.done ?? '')],
    });
  });

  router.post('/accesses/:id/revoke', async (ctx) => {
    const session = await owner(ctx);
    if (!session) return;
    await deps.revokeAsOwner(ctx.params.id!, session.identity);
    ctx.redirect('/account/accesses?done=revoked');
  });

  return router;
}
