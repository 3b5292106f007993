// The owner's account session as a route's caller (route table `auth`): with an identity, or
// any signed-in wallet (which may not have created its identity yet).
import type { Authenticator } from '../../http/authenticators.js';
import type { AccountSession, AccountSessions, IdentitySession } from './account_sessions.js';

export type SessionCallers = {
  /** An identity's owner, on any chain (`chain_id` in the session names another than the first). */
  owner: Authenticator<IdentitySession>;
  wallet: Authenticator<AccountSession>;
  signIn: Authenticator<string>;
};

export function sessionCallers(sessions: AccountSessions): SessionCallers {
  return {
    owner: { kind: 'owner_session', refusals: ['session_missing', 'wallet_without_identity'], authenticate: (ctx) => sessions.require(ctx) },
    wallet: { kind: 'wallet_session', refusals: ['session_missing'], authenticate: (ctx) => sessions.requireWallet(ctx) },
    signIn: { kind: 'sign_in', refusals: ['sign_in_missing'], authenticate: async (ctx) => sessions.signInBinding(ctx) },
  };
}
