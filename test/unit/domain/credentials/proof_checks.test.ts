// What Signet reads from a credential request's proofs, at a time the test gives: the holder
// keys it signs into cnf.jwk (public members only), the iat window, one nonce per request, one
// proof per key.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { importJWK, type JWK, SignJWT } from 'jose';
import { PROOF_MAX_AGE_SECONDS, PROOF_MAX_AHEAD_SECONDS, readProofs } from '../../../../src/domain/credentials/proof_checks.js';

const NOW_MS = Date.parse('2026-12-01T12:00:00Z');
const NOW = NOW_MS / 1000;

function key() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateJwk: privateKey.export({ format: 'jwk' }) as JWK, publicJwk: publicKey.export({ format: 'jwk' }) as JWK };
}

async function proof(signer: ReturnType<typeof key>, options: { iat?: number; nonce?: string; jwk?: Record<string, unknown> } = {}) {
  return new SignJWT({ nonce: options.nonce ?? 'nonce-1', aud: 'https://signet.example' })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: (options.jwk ?? signer.publicJwk) as JWK })
    .setIssuedAt(options.iat ?? NOW)
    .sign(await importJWK(signer.privateJwk, 'ES256'));
}

describe('credential proofs', () => {
  it('give the holder key with its public members only, whatever else the header carries', async () => {
    const holder = key();
    const header = { ...holder.publicJwk, kid: 'mine', x5u: 'https://attacker.example/chain.pem', use: 'sig', pad: 'x'.repeat(38_000) };
    const read = readProofs([await proof(holder, { jwk: header })], NOW_MS);
    expect(read).toEqual({ ok: true, nonce: 'nonce-1', holders: [{ kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y }] });
  });

  it(`take an iat from ${PROOF_MAX_AGE_SECONDS} s before now to ${PROOF_MAX_AHEAD_SECONDS} s after, and refuse one a second beyond`, async () => {
    const holder = key();
    for (const iat of [NOW - PROOF_MAX_AGE_SECONDS, NOW, NOW + PROOF_MAX_AHEAD_SECONDS])
      expect(readProofs([await proof(holder, { iat })], NOW_MS).ok).toBe(true);
    expect(readProofs([await proof(holder, { iat: NOW - PROOF_MAX_AGE_SECONDS - 1 })], NOW_MS)).toEqual({
      ok: false,
      problem: 'jwt proof iat is more than 300 seconds old: sign a new proof',
    });
    expect(readProofs([await proof(holder, { iat: NOW + PROOF_MAX_AHEAD_SECONDS + 1 })], NOW_MS)).toEqual({
      ok: false,
      problem: "jwt proof iat is more than 60 seconds ahead of the issuer's clock",
    });
  });

  it('refuse a batch whose proofs carry two nonces or two of one key, and a key that is not a public P-256 key', async () => {
    const [a, b] = [key(), key()];
    expect(readProofs([await proof(a), await proof(b, { nonce: 'nonce-2' })], NOW_MS)).toEqual({
      ok: false,
      problem: 'every jwt proof of a request must carry the same c_nonce',
    });
    expect(readProofs([await proof(a), await proof(a)], NOW_MS)).toEqual({ ok: false, problem: 'each jwt proof of a request must be of another key' });
    expect(readProofs([await proof(a), await proof(b)], NOW_MS).ok).toBe(true);
    const refused = [
      [{ ...a.publicJwk, crv: 'P-384' }, 'jwt proof key must be an EC P-256 key (ES256)'],
      [{ kty: 'OKP', crv: 'Ed25519', x: a.publicJwk.x }, 'jwt proof key must be an EC P-256 key (ES256)'],
      [a.privateJwk, 'jwt proof key must be a public key'],
      [{ ...a.publicJwk, x: `${a.publicJwk.x}AA` }, 'jwt proof key coordinates must be 32-byte base64url values'],
    ] as const;
    for (const [jwk, problem] of refused) expect(readProofs([await proof(a, { jwk })], NOW_MS)).toEqual({ ok: false, problem });
  });
});
