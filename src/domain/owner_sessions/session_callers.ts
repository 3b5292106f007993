// The owner's account session as a route's caller (route table `auth`): with an identity, or
// any signed-in wallet (which may not have created its identity yet); for pages, the owner if
// signed in, and the way to the sign-in page and back for everyone else.
import type { Context } from 'koa';
import type { Reason } from '../../base/reasons.js';
import type { Authenticator } from '../../http/authenticators.js';
import type { AccountSession, AccountSessions, IdentitySession } from './account_sessions.js';

export type SessionCallers = {
  /** An identity's owner, on any chain (`chain_id` in the session names another than the default one). */
  owner: Authenticator<IdentitySession>;
  wallet: Authenticator<AccountSession>;
  signIn: Authenticator<string>;
  /** The owner, if signed in: pages send everyone else to the sign-in page, not an error. */
  visitor: Authenticator<IdentitySession | undefined>;
};

/** To the sign-in page, and back to the page asked for once signed in (GET pages only: a form post is not replayed). */
export function toSignIn(ctx: Context): Record<string, never> {
  ctx.redirect(ctx.method === 'GET' ? `/account?next=${encodeURIComponent(ctx.path)}` : '/account');
  return {};
}

/** What a session's request that changes something is refused with when it does not come from Signet's own pages (account_sessions.ts). */
export const FROM_OWN_PAGES: Reason[] = ['cross_origin_request', 'form_token_invalid'];

export function sessionCallers(sessions: AccountSessions): SessionCallers {
  return {
    owner: { kind: 'owner_session', refusals: ['session_missing', 'wallet_without_identity', ...FROM_OWN_PAGES], authenticate: (ctx) => sessions.require(ctx) },
    wallet: { kind: 'wallet_session', refusals: ['session_missing', ...FROM_OWN_PAGES], authenticate: (ctx) => sessions.requireWallet(ctx) },
    signIn: { kind: 'sign_in', refusals: ['sign_in_missing', 'cross_origin_request'], authenticate: async (ctx) => sessions.signInBinding(ctx) },
    visitor: { kind: 'owner_session', refusals: FROM_OWN_PAGES, authenticate: (ctx) => sessions.find(ctx) },
  };
}
