// Signet's signing keys, built once per configuration: the configured JWKS, or (development
// only: loadConfig refuses production without JWKS) one RSA key made here. The engine signs ID
// tokens with them and publishes their public halves at /jwks; the signals (logout tokens,
// Security Event Tokens) are signed with the same first key, so one JWKS verifies everything.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import type { Config } from '../../config/config.js';

export type SigningJwk = Record<string, unknown> & { kty: string; kid?: string; alg?: string; use?: string; crv?: string };
export type SigningJwks = { keys: SigningJwk[] };

// Keyed by the configuration object: the engine and the webhook queue of one process, built
// from the same Config, get the same development key.
const built = new WeakMap<object, SigningJwks>();

function developmentJwks(): SigningJwks {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  // An EC key beside the RSA one, so that FAPI 2.0 clients (ES256, PS256 or EdDSA) work in development too.
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  return {
    keys: [
      { ...(rsa.export({ format: 'jwk' }) as SigningJwk), kid: 'development', use: 'sig', alg: 'RS256' },
      { ...(ec.export({ format: 'jwk' }) as SigningJwk), kid: 'development-es256', use: 'sig', alg: 'ES256' },
    ],
  };
}

/** The private signing JWKS of this configuration (the same object on every call). */
export function signingKeysOf(config: Pick<Config, 'jwks'>): SigningJwks {
  let jwks = built.get(config);
  if (!jwks) {
    jwks = (config.jwks as SigningJwks | undefined) ?? developmentJwks();
    built.set(config, jwks);
  }
  return jwks;
}

/** The kid the engine gives a key configured without one (oidc-provider's initialize_keystore). */
export function kidOf(jwk: SigningJwk): string | undefined {
  if (jwk.kid) return jwk.kid;
  const components =
    jwk.kty === 'RSA'
      ? { e: jwk.e, kty: 'RSA', n: jwk.n }
      : jwk.kty === 'EC'
        ? { crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y }
        : jwk.kty === 'OKP'
          ? { crv: jwk.crv, kty: 'OKP', x: jwk.x }
          : undefined;
  return components && createHash('sha256').update(JSON.stringify(components)).digest('base64url');
}

/** The JWS algorithm a key signs with: its own `alg`, else the engine's first for its type. */
export function algorithmOf(jwk: SigningJwk): string | undefined {
  if (jwk.alg) return jwk.alg;
  if (jwk.kty === 'RSA') return 'RS256';
  if (jwk.kty === 'EC') return ({ 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' } as Record<string, string>)[jwk.crv ?? ''];
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  return undefined;
}

/**
 * The key Signet signs its own JWTs with (signals, a claim's signed answer): the first signing
 * key of the JWKS, as the engine's ID tokens, so one JWKS verifies everything. Imported once, on
 * first use; `what` names the signer in the start error.
 */
export function firstSigningKey(jwks: SigningJwks, what: string) {
  const jwk = jwks.keys.find((candidate) => (candidate.use ?? 'sig') === 'sig' && algorithmOf(candidate));
  if (!jwk) throw new Error(`${what}: the JWKS holds no signing key`);
  const alg = algorithmOf(jwk)!;
  const kid = kidOf(jwk);
  let key: ReturnType<typeof importJWK> | undefined;
  return {
    /** The protected header of a JWT of type `typ`, naming the key. */
    header: (typ: string) => ({ alg, typ, ...(kid ? { kid } : {}) }),
    key: () => {
      key ??= importJWK(jwk as JWK, alg);
      return key;
    },
  };
}

/** The algorithm a FAPI 2.0 client's ID tokens are signed with by default: the first key's that the profile allows. */
export function fapiSigningAlgOf(jwks: SigningJwks): string | undefined {
  for (const jwk of jwks.keys) {
    if (jwk.kty === 'RSA' && (!jwk.alg || jwk.alg === 'PS256')) return 'PS256';
    const alg = algorithmOf(jwk);
    if (alg === 'ES256' || alg === 'EdDSA') return alg;
  }
  return undefined;
}

/**
 * The key Signet signs credentials and their status lists with: the first ES256 key (P-256),
 * the one algorithm every wallet and verifier of SD-JWT VCs accepts. Undefined: none configured.
 */
export function credentialKeyOf(jwks: SigningJwks): (SigningJwk & { kid: string }) | undefined {
  const jwk = jwks.keys.find((each) => each.kty === 'EC' && algorithmOf(each) === 'ES256' && each.d !== undefined);
  return jwk && { ...jwk, kid: kidOf(jwk)! };
}

/** The public half of a signing key, as published. */
export function publicJwkOf(jwk: SigningJwk): SigningJwk {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, ...publicPart } = jwk as SigningJwk & Record<string, unknown>;
  return publicPart as SigningJwk;
}
