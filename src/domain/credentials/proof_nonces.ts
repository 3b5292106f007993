// The nonces a wallet signs into its credential proofs (OpenID4VCI 1.0 §7, the `c_nonce`): a
// new one on every request to the nonce endpoint, good for five minutes, and spent once across
// every process. A nonce is not stored when it is handed out (the nonce endpoint is open to
// anyone, so handing one out writes nothing): it carries its own end and a MAC of Signet's
// secret over it, so any process can tell one of its own. Spending one is a SET NX of its
// digest, kept until the nonce would have ended anyway (decision 68).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** How long a nonce is good for after it was handed out. */
export const PROOF_NONCE_SECONDS = 300;

const RANDOM_BYTES = 16;
const END_BYTES = 4;
const MAC_BYTES = 16;
const NONCE_BYTES = RANDOM_BYTES + END_BYTES + MAC_BYTES;

export type ProofNonces = {
  /** A new nonce, never handed out before. */
  next(): string;
  /** True when Signet made the nonce and it has not ended (it may have been spent: see spend). */
  check(nonce: string): boolean;
  /** Spends the nonce once across processes: true for the one call that spent it. */
  spend(nonce: string): Promise<boolean>;
};

export function createProofNonces(deps: { secret: Buffer; store: Store; now: () => number }): ProofNonces {
  const macOf = (body: Buffer) => createHmac('sha256', deps.secret).update(body).digest().subarray(0, MAC_BYTES);
  const nowSeconds = () => Math.floor(deps.now() / 1000);
  /** The nonce's end (epoch seconds) when Signet made it; undefined otherwise. */
  const endOf = (nonce: string): number | undefined => {
    if (typeof nonce !== 'string' || nonce.length > 64) return undefined;
    const bytes = Buffer.from(nonce, 'base64url');
    if (bytes.length !== NONCE_BYTES || bytes.toString('base64url') !== nonce) return undefined;
    const body = bytes.subarray(0, RANDOM_BYTES + END_BYTES);
    if (!timingSafeEqual(macOf(body), bytes.subarray(RANDOM_BYTES + END_BYTES))) return undefined;
    return body.readUInt32BE(RANDOM_BYTES);
  };
  return {
    next() {
      const body = Buffer.alloc(RANDOM_BYTES + END_BYTES);
      randomBytes(RANDOM_BYTES).copy(body);
      body.writeUInt32BE(nowSeconds() + PROOF_NONCE_SECONDS, RANDOM_BYTES);
      return Buffer.concat([body, macOf(body)]).toString('base64url');
    },
    check(nonce) {
      const end = endOf(nonce);
      return end !== undefined && end >= nowSeconds();
    },
    async spend(nonce) {
      const end = endOf(nonce);
      if (end === undefined || end < nowSeconds()) return false;
      const digest = createHash('sha256').update(nonce).digest('base64url');
      return deps.store.setIfAbsent(keys.proofNonce(digest), '1', Math.max(1, end - nowSeconds() + 1));
    },
  };
}
