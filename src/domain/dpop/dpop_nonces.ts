// Server-provided DPoP nonces (RFC 9449 §8), the same on every process and on both sides of
// Signet: the engine's endpoints (token, userinfo) and Signet's resource routes accept each
// other's nonces. A nonce is not stored: it is an HMAC-based key derivation of a shared secret
// and the current minute, as the engine computes it (oidc-provider's server challenge, "DPoP"),
// valid from two minutes before to two minutes after the minute it names.
import { hkdfSync, timingSafeEqual } from 'node:crypto';

const STEP_SECONDS = 60;

/** The nonce secret, derived from the first cookie key (every process shares it already). */
export function dpopNonceSecret(cookieKeys: readonly string[]): Buffer {
  return Buffer.from(hkdfSync('sha256', cookieKeys[0]!, 'signet', 'dpop nonce secret', 32));
}

/** The secret of the credential proofs' nonces (OpenID4VCI's c_nonce, the engine's), derived the same way under another label. */
export function credentialNonceSecret(cookieKeys: readonly string[]): Buffer {
  return Buffer.from(hkdfSync('sha256', cookieKeys[0]!, 'signet', 'credential proof nonce secret', 32));
}

function stepBytes(step: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(step));
  return bytes;
}

export function createDpopNonces(secret: Buffer, now: () => number = Date.now) {
  const at = (step: number) => Buffer.from(hkdfSync('sha256', secret, stepBytes(step), 'DPoP', 32)).toString('base64url');
  const currentStep = () => Math.floor(now() / 1000 / STEP_SECONDS);
  return {
    /** The nonce to hand out now (the engine hands out the next minute's). */
    next: () => at(currentStep() + 1),
    /** True when the nonce is one of the five minutes around now. */
    check(nonce: string): boolean {
      const given = Buffer.from(nonce);
      let matched = false;
      for (let offset = -2; offset <= 2; offset++) {
        const expected = Buffer.from(at(currentStep() + offset));
        if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
      }
      return matched;
    },
  };
}

export type DpopNonces = ReturnType<typeof createDpopNonces>;
