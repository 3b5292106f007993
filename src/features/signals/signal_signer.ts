// Signs what Signet tells the websites: OpenID Back-Channel Logout tokens and Security Event
// Tokens (RFC 8417, as SSF 1.0 profiles them), with Signet's own signing key (the first of its
// JWKS, the engine's keys, published at /jwks), so a client verifies them as it verifies ID tokens.
import { SignJWT } from 'jose';
import { firstSigningKey, type SigningJwks } from '../../infra/keys/signing_keys.js';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** How long a logout token is good for, as the engine's own (oidc-provider's IdToken 'logout'). */
export const LOGOUT_TOKEN_SECONDS = 120;

export type LogoutClaims = { aud: string; sub: string; sid?: string; jti: string };

/** A SET's claims but `iss` (added here): jti, iat, aud, txn, sub_id, events. */
export type SetClaims = {
  jti: string;
  iat: number;
  aud: string;
  txn?: string;
  sub_id: Record<string, unknown>;
  events: Record<string, Record<string, unknown>>;
};

export type SignalSigner = {
  /** A logout token (`typ` logout+jwt): iat now, exp in LOGOUT_TOKEN_SECONDS, never a nonce. */
  logoutToken(claims: LogoutClaims): Promise<string>;
  /** A Security Event Token (`typ` secevent+jwt): no `sub`, no `exp` (SSF 1.0, "Distinguishing SETs from other Kinds of JWTs"). */
  securityEvent(claims: SetClaims): Promise<string>;
};

export function createSignalSigner(issuer: string, jwks: SigningJwks, now: () => number = Date.now): SignalSigner {
  const { header, key: signingKey } = firstSigningKey(jwks, 'signals');

  return {
    async logoutToken({ aud, sub, sid, jti }) {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ events: { [BACKCHANNEL_LOGOUT_EVENT]: {} }, ...(sid ? { sid } : {}) })
        .setProtectedHeader(header('logout+jwt'))
        .setIssuer(issuer)
        .setAudience(aud)
        .setSubject(sub)
        .setJti(jti)
        .setIssuedAt(iat)
        .setExpirationTime(iat + LOGOUT_TOKEN_SECONDS)
        .sign(await signingKey());
    },
    async securityEvent(claims) {
      return new SignJWT({ iss: issuer, ...claims }).setProtectedHeader(header('secevent+jwt')).sign(await signingKey());
    },
  };
}
