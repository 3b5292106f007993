// Owner sessions for the account routes: created by a signed wallet challenge, kept in the
// store, carried by an httpOnly, signed, SameSite=Strict cookie.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import { type IdentityKey, identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/**
 * A signed-in wallet; `identity` is null until the wallet has one (it may create it). `chain_id`
 * names the identity's chain when it is not the first (absent: the first chain, as before several chains).
 */
export type AccountSession = { id: string; identity: Address | null; wallet: Address; created_at: string; chain_id?: number };
export type IdentitySession = AccountSession & { identity: Address };

export const ACCOUNT_COOKIE = 'signet_account';
export const ACCOUNT_LOGIN_COOKIE = 'signet_account_login';
/** An owner session lasts 8 hours; signing in again is one signature. */
export const ACCOUNT_SESSION_SECONDS = 8 * 3600;

const noSession = () => refuse('session_missing', 'no account session: sign in with your wallet first');
/** How the session index names an identity: the first chain's by its address, another's by CAIP-10. */
const indexOf = (identity: Address, chainId?: number) => keys.accountSessionsOf(identityKeyOf(identity, chainId));

export function createAccountSessions(store: Store, secureCookies: boolean) {
  // Path "/": the access-grant routes read the owner's session too. SameSite=Strict keeps it
  // off cross-site requests.
  const cookieOptions = { signed: true, httpOnly: true, sameSite: 'strict' as const, secure: secureCookies, path: '/' };

  const findAny = async (ctx: Context): Promise<AccountSession | undefined> => {
    const id = ctx.cookies.get(ACCOUNT_COOKIE, { signed: true });
    const raw = id ? await store.get(keys.accountSession(id)) : undefined;
    return raw ? (JSON.parse(raw) as AccountSession) : undefined;
  };
  /** The session of an owner whose wallet has an identity, on any chain (`chain_id` names another than the first). */
  const find = async (ctx: Context): Promise<IdentitySession | undefined> => {
    const session = await findAny(ctx);
    return session?.identity ? (session as IdentitySession) : undefined;
  };

  return {
    /** A fresh binding for an account sign-in challenge, remembered in the browser. */
    beginSignIn(ctx: Context): string {
      const binding = `account:${randomBytes(16).toString('base64url')}`;
      ctx.cookies.set(ACCOUNT_LOGIN_COOKIE, binding, { ...cookieOptions, maxAge: 10 * 60 * 1000 });
      return binding;
    },

    signInBinding(ctx: Context): string {
      const binding = ctx.cookies.get(ACCOUNT_LOGIN_COOKIE, { signed: true });
      if (!binding) throw refuse('sign_in_missing', 'no sign-in is under way in this browser; request a challenge first');
      return binding;
    },

    /** Opens the session; `chainId` only for an identity on another chain than the first. */
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

    async close(ctx: Context): Promise<void> {
      const id = ctx.cookies.get(ACCOUNT_COOKIE, { signed: true });
      if (id) {
        const session = await findAny(ctx);
        await store.delete(keys.accountSession(id));
        if (session?.identity) await store.removeFromIndex(indexOf(session.identity, session.chain_id), id);
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
