// Owner sessions for the account routes: created by a signed wallet challenge, kept in the
// store, carried by an httpOnly, signed, SameSite=Strict cookie. A request that changes
// something is taken under a session only from Signet's own pages: its Origin (or
// Sec-Fetch-Site) must be the issuer's, and it must carry the session's form token
// (form_tokens.ts); SameSite alone lets a sibling subdomain's page through.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import { assertSameOrigin, changesState } from '../../http/same_origin.js';
import { type IdentityKey, identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import { createFormTokens, FORM_TOKEN_FIELD, FORM_TOKEN_HEADER } from './form_tokens.js';

/**
 * A signed-in wallet; `identity` is null until the wallet has one (it may create it). `chain_id`
 * names the identity's chain as records do (absent: the default chain, as before several chains).
 */
export type AccountSession = { id: string; identity: Address | null; wallet: Address; created_at: string; chain_id?: number };
export type IdentitySession = AccountSession & { identity: Address };

export const ACCOUNT_COOKIE = 'signet_account';
export const ACCOUNT_LOGIN_COOKIE = 'signet_account_login';
/** An owner session lasts 8 hours; signing in again is one signature. */
export const ACCOUNT_SESSION_SECONDS = 8 * 3600;

const noSession = () => refuse('session_missing', 'no account session: sign in with your wallet first');
/** How the session index names an identity: the default chain's by its address, another's by CAIP-10. */
const indexOf = (identity: Address, chainId?: number) => keys.accountSessionsOf(identityKeyOf(identity, chainId));

/** The form token of the request's session, for the page drawn (the renderer reads it: src/http/pages.ts). */
const FORM_TOKEN_STATE = 'formToken';

/** The token a request carries: its header, else its form's field. The field is taken out of the body either way, as the route's checks read the body next. */
function givenToken(ctx: Context): string | undefined {
  const body = ctx.request.body as Record<string, unknown> | undefined;
  let field: unknown;
  if (body && typeof body === 'object' && Object.hasOwn(body, FORM_TOKEN_FIELD)) {
    field = body[FORM_TOKEN_FIELD];
    delete body[FORM_TOKEN_FIELD];
  }
  return ctx.get(FORM_TOKEN_HEADER) || (typeof field === 'string' ? field : undefined);
}

export function createAccountSessions(store: Store, settings: { secureCookies: boolean; issuer: string; cookieKeys: readonly string[] }) {
  const secureCookies = settings.secureCookies;
  const issuerOrigin = new URL(settings.issuer).origin;
  const formTokens = createFormTokens(settings.cookieKeys);

  /** A request that changes something under the session: from Signet's own pages, with the session's token. */
  const assertFromOwnPages = (ctx: Context, session: AccountSession) => {
    if (!changesState(ctx)) return;
    assertSameOrigin(ctx, issuerOrigin);
    if (!formTokens.matches(session.id, givenToken(ctx)))
      throw refuse('form_token_invalid', "this request does not carry the form token of your session: send it from Signet's account pages");
  };

  // Path "/": the access-grant routes read the owner's session too. SameSite=Strict keeps it
  // off cross-site requests.
  const cookieOptions = { signed: true, httpOnly: true, sameSite: 'strict' as const, secure: secureCookies, path: '/' };

  const findAny = async (ctx: Context): Promise<AccountSession | undefined> => {
    const id = ctx.cookies.get(ACCOUNT_COOKIE, { signed: true });
    const raw = id ? await store.get(keys.accountSession(id)) : undefined;
    if (!raw) return undefined;
    const session = JSON.parse(raw) as AccountSession;
    assertFromOwnPages(ctx, session);
    ctx.state[FORM_TOKEN_STATE] = formTokens.of(session.id);
    return session;
  };
  /** The session of an owner whose wallet has an identity, on any chain (`chain_id` names another than the default one). */
  const find = async (ctx: Context): Promise<IdentitySession | undefined> => {
    const session = await findAny(ctx);
    return session?.identity ? (session as IdentitySession) : undefined;
  };

  return {
    /** Refuses a sign-in step sent from a page of another origin (a stranger's page signing the browser in to their own account). */
    assertSameOrigin: (ctx: Context) => assertSameOrigin(ctx, issuerOrigin),

    /** The form token of a session just opened (its pages get it with each page; a script that signed in gets it here). */
    formTokenOf: (session: AccountSession) => formTokens.of(session.id),

    /** A fresh binding for an account sign-in challenge, remembered in the browser. */
    beginSignIn(ctx: Context): string {
      const binding = `account:${randomBytes(16).toString('base64url')}`;
      ctx.cookies.set(ACCOUNT_LOGIN_COOKIE, binding, { ...cookieOptions, maxAge: 10 * 60 * 1000 });
      return binding;
    },

    signInBinding(ctx: Context): string {
      assertSameOrigin(ctx, issuerOrigin);
      const binding = ctx.cookies.get(ACCOUNT_LOGIN_COOKIE, { signed: true });
      if (!binding) throw refuse('sign_in_missing', 'no sign-in is under way in this browser; request a challenge first');
      return binding;
    },

    /** Opens the session; `chainId` only for an identity on another chain than the default one. */
    async open(ctx: Context, identity: Address | null, wallet: Address, now: number, chainId?: number): Promise<AccountSession> {
      const session: AccountSession = {
        id: randomBytes(24).toString('base64url'),
        identity,
        wallet,
        created_at: new Date(now).toISOString(),
        ...(chainId === undefined ? {} : { chain_id: chainId }),
      };
      await Promise.all([
        store.set(keys.accountSession(session.id), JSON.stringify(session), ACCOUNT_SESSION_SECONDS),
        identity ? store.addToIndex(indexOf(identity, chainId), session.id, ACCOUNT_SESSION_SECONDS) : undefined,
      ]);
      ctx.cookies.set(ACCOUNT_LOGIN_COOKIE, null, cookieOptions);
      ctx.cookies.set(ACCOUNT_COOKIE, session.id, { ...cookieOptions, maxAge: ACCOUNT_SESSION_SECONDS * 1000 });
      return session;
    },

    find,
    findAny,

    /** The owner's session, on any chain: the routes act on the session's chain. */
    async require(ctx: Context): Promise<IdentitySession> {
      const session = await findAny(ctx);
      if (!session) throw noSession();
      if (!session.identity) throw refuse('wallet_without_identity', 'your wallet has no identity yet: create it first', { previous: 'identity_missing' });
      return session as IdentitySession;
    },

    async requireWallet(ctx: Context): Promise<AccountSession> {
      const session = await findAny(ctx);
      if (!session) throw noSession();
      return session;
    },

    /** Records the identity a session's wallet just got. */
    async attachIdentity(session: AccountSession, identity: Address): Promise<void> {
      const left = await store.ttl(keys.accountSession(session.id));
      if (left === undefined) return;
      await store.set(keys.accountSession(session.id), JSON.stringify({ ...session, identity }), Number.isFinite(left) ? left : ACCOUNT_SESSION_SECONDS);
      await store.addToIndex(indexOf(identity, session.chain_id), session.id, ACCOUNT_SESSION_SECONDS);
    },

    /** Signs out: the session's own pages only, as every change (another origin's page cannot sign the owner out). */
    async close(ctx: Context): Promise<void> {
      const session = await findAny(ctx);
      if (session) {
        await store.delete(keys.accountSession(session.id));
        if (session.identity) await store.removeFromIndex(indexOf(session.identity, session.chain_id), session.id);
      }
      ctx.cookies.set(ACCOUNT_COOKIE, null, cookieOptions);
    },

    /** The identity's open sessions (the index keeps them at most a session's life). */
    async listFor(identity: IdentityKey): Promise<AccountSession[]> {
      const ids = await store.indexMembers(keys.accountSessionsOf(identity));
      const found = ids.length ? await store.getMany(ids.map((id) => keys.accountSession(id))) : [];
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as AccountSession);
    },

    /** Ends every session of the identity, named as its chain's keys name it (erasure): each browser is signed out on its next request. */
    async endAll(identity: IdentityKey): Promise<void> {
      const ids = await store.indexMembers(keys.accountSessionsOf(identity));
      await store.delete(...ids.map((id) => keys.accountSession(id)), keys.accountSessionsOf(identity));
    },
  };
}

export type AccountSessions = ReturnType<typeof createAccountSessions>;
