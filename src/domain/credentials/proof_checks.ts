// What Signet reads from a credential request's proofs, once the engine has checked each one's
// signature, audience and nonce: the holder keys it will sign into `cnf.jwk`, with their public
// members only, and the one nonce the request spends. A proof is refused when its key is not
// an EC P-256 public key (the one algorithm the metadata offers is ES256), when its `iat` is
// outside the window below, when its nonce differs from the others' (a batch spends one
// nonce), or when two proofs name the same key (one credential per key). Nothing is spent
// before every proof of the request passed (decision 67).
import { decodeJwt, decodeProtectedHeader } from 'jose';

/** A proof signed longer ago than this is refused: its nonce lives as long. */
export const PROOF_MAX_AGE_SECONDS = 300;
/** A proof may be signed this far ahead of Signet's clock (a wallet's clock runs fast). */
export const PROOF_MAX_AHEAD_SECONDS = 60;

/** The holder key a credential binds to: an EC P-256 public key, these members and no other. */
export type HolderKey = { kty: 'EC'; crv: 'P-256'; x: string; y: string };

export type ReadProofs = { ok: true; holders: HolderKey[]; nonce: string } | { ok: false; problem: string };

/** A P-256 coordinate: 32 bytes, base64url without padding. */
const COORDINATE = /^[A-Za-z0-9_-]{43}$/;

function holderOf(jwk: unknown): HolderKey | string {
  if (typeof jwk !== 'object' || jwk === null) return 'jwt proof must carry its key as a jwk header';
  const key = jwk as Record<string, unknown>;
  if (key.kty !== 'EC' || key.crv !== 'P-256') return 'jwt proof key must be an EC P-256 key (ES256)';
  if (key.d !== undefined) return 'jwt proof key must be a public key';
  if (typeof key.x !== 'string' || typeof key.y !== 'string' || !COORDINATE.test(key.x) || !COORDINATE.test(key.y)) {
    return 'jwt proof key coordinates must be 32-byte base64url values';
  }
  return { kty: 'EC', crv: 'P-256', x: key.x, y: key.y };
}

/** Reads the proofs of one credential request at `nowMs`; the first problem found refuses them all. */
export function readProofs(jwts: readonly string[], nowMs: number): ReadProofs {
  const now = Math.floor(nowMs / 1000);
  const holders: HolderKey[] = [];
  const nonces = new Set<unknown>();
  for (const jwt of jwts) {
    const holder = holderOf(decodeProtectedHeader(jwt).jwk);
    if (typeof holder === 'string') return { ok: false, problem: holder };
    const { iat, nonce } = decodeJwt(jwt);
    if (typeof iat !== 'number' || !Number.isFinite(iat)) return { ok: false, problem: 'jwt proof iat must be a number' };
    if (now - iat > PROOF_MAX_AGE_SECONDS) return { ok: false, problem: `jwt proof iat is more than ${PROOF_MAX_AGE_SECONDS} seconds old: sign a new proof` };
    if (iat - now > PROOF_MAX_AHEAD_SECONDS)
      return { ok: false, problem: `jwt proof iat is more than ${PROOF_MAX_AHEAD_SECONDS} seconds ahead of the issuer's clock` };
    if (holders.some((each) => each.x === holder.x && each.y === holder.y)) return { ok: false, problem: 'each jwt proof of a request must be of another key' };
    holders.push(holder);
    nonces.add(nonce);
  }
  const [nonce] = nonces;
  if (nonces.size !== 1 || typeof nonce !== 'string') return { ok: false, problem: 'every jwt proof of a request must carry the same c_nonce' };
  return { ok: true, holders, nonce };
}
