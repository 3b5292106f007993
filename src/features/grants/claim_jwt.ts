// A claim's private part as a JWT Signet signs (`Accept: application/jwt` at the claim's
// resource): a service that reads under a grant gets the provider's own signature over what it
// released, which it may hand on as an OpenID Connect aggregated claim (decision 79). Signed with
// Signet's first signing key (the one /jwks publishes for ID tokens), `typ` JWT; `iss` is
// Signet, `sub` the identity's CAIP-10 id, the claim's members at the top level, valid 5 minutes.
import { SignJWT } from 'jose';
import { firstSigningKey, type SigningJwks } from '../../infra/keys/signing_keys.js';

/** How long the signed answer stands: a reader hands it on at once, or reads again. */
export const CLAIM_JWT_SECONDS = 300;

export type ClaimJwtSigner = (subject: string, claim: Record<string, unknown>) => Promise<string>;

export function createClaimJwtSigner(issuer: string, jwks: SigningJwks, now: () => number): ClaimJwtSigner {
  const { header, key } = firstSigningKey(jwks, 'claim resource');
  return async (subject, claim) => {
    const iat = Math.floor(now() / 1000);
    // The registered claims are Signet's: a member of the claim by one of their names does not replace them.
    const { iss: _iss, sub: _sub, iat: _iat, exp: _exp, ...members } = claim;
    return new SignJWT(members)
      .setProtectedHeader(header('JWT'))
      .setIssuer(issuer)
      .setSubject(subject)
      .setIssuedAt(iat)
      .setExpirationTime(iat + CLAIM_JWT_SECONDS)
      .sign(await key());
  };
}
