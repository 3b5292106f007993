// Who may call a route, as the route table declares it: each authenticator names its kind (the
// OpenAPI document turns the kind into a security requirement) and either returns the caller
// or refuses with a stable reason. Features build theirs from their own stores (sessions, API
// keys); the ones here need nothing but settings.
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { refuse } from '../base/errors.js';
import type { Reason } from '../base/reasons.js';

export type AuthKind =
  /** Anyone; the body may carry the owner's signature, which the handler checks. */
  | 'none'
  /** An owner session whose wallet has an identity (the `signet_account` cookie). */
  | 'owner_session'
  /** An owner session, with or without an identity yet. */
  | 'wallet_session'
  /** The cookie of an account sign-in under way (between the challenge and the signature). */
  | 'sign_in'
  /** A service's `X-API-Key`. */
  | 'api_key'
  /** A service's `X-API-Key`, or an owner session. */
  | 'api_key_or_owner_session'
  /** None for a resource's public part; a grant token, an OIDC access token or an API key for its private part. */
  | 'grant_credential'
  /** `Authorization: Bearer <ADMIN_TOKEN>`. */
  | 'admin_token'
  /** The engine's interaction cookie of the login in the path. */
  | 'interaction_cookie'
  /** A client's access token of the client credentials grant with scope `ssf` (its SSF streams). */
  | 'ssf_token';

/**
 * The kinds whose caller presents an access token in `Authorization` (RFC 6750, RFC 9449): a
 * refusal of that token (`invalid_token`) carries the WWW-Authenticate challenge the standards
 * ask for, whatever the route (mount_routes.ts; docs/decisions.md, 59).
 */
export const TOKEN_KINDS: ReadonlySet<AuthKind> = new Set<AuthKind>(['grant_credential', 'admin_token', 'ssf_token']);

/**
 * The challenge of a refused access token, in the scheme it came in (RFC 6750 §3.1, RFC 9449
 * §7.1); a request that sent none gets the scheme alone, with no error code.
 */
export function tokenChallenge(ctx: Context): string {
  const authorization = ctx.get('authorization');
  if (!authorization) return 'Bearer';
  return `${/^dpop /i.test(authorization) ? 'DPoP' : 'Bearer'} error="invalid_token"`;
}

export type Authenticator<C> = {
  kind: AuthKind;
  /** The refusals this check can answer with (documented on every route that uses it). */
  refusals: Reason[];
  authenticate(ctx: Context): Promise<C>;
};

export const anyone: Authenticator<undefined> = { kind: 'none', refusals: [], authenticate: async () => undefined };

/** Whether a secret given is the one expected, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The admin API, compared in constant time; without a configured token it does not exist. */
export function adminToken(token: string | undefined): Authenticator<undefined> {
  return {
    kind: 'admin_token',
    refusals: ['admin_api_off', 'admin_token_invalid'],
    async authenticate(ctx) {
      if (!token) throw refuse('admin_api_off', 'the admin API is off: set ADMIN_TOKEN');
      const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
      if (!given || !sameSecret(given, token)) throw refuse('admin_token_invalid', 'the admin token is missing or wrong');
      return undefined;
    },
  };
}
