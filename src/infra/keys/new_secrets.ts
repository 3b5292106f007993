// New production secrets: a private signing JWK with a key id (for JWKS) and cookie keys (for
// COOKIE_KEYS). A rotation puts the new key first (it signs) before the current ones (they
// keep verifying what they signed until removed).
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export type NewSecrets = { kid: string; jwks: { keys: Record<string, unknown>[] }; cookieKeys: string[] };

export function newSigningKey(alg: 'RS256' | 'ES256', kid: string): Record<string, unknown> {
  const { privateKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg };
}

export function newSecrets(options: { alg: 'RS256' | 'ES256'; kid?: string; previous?: Record<string, unknown>[] }): NewSecrets {
  const kid = options.kid ?? `${new Date().toISOString().slice(0, 10)}-${randomBytes(3).toString('hex')}`;
  return {
    kid,
    jwks: { keys: [newSigningKey(options.alg, kid), ...(options.previous ?? [])] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}
