// The DPoP check of Signet's own routes that take an access token (RFC 9449 §4.3 and §7): the
// same rules the engine applies at its token and userinfo endpoints, with the same nonces and
// the same once-only record of proof ids (the engine's replay detection, atomic in Redis:
// src/infra/store/oidc_adapter.ts), so a proof used at userinfo cannot be used again here.
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, EmbeddedJWK, type JWTPayload, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import { refuse } from '../../base/errors.js';
import type { DpopNonces } from './dpop_nonces.js';

/** The proof algorithms Signet accepts, at the engine's endpoints and its own. */
export const DPOP_ALGS = ['ES256', 'PS256', 'Ed25519', 'EdDSA'];

/** How far a proof's `iat` may be from now when it carries no nonce (the engine's window). */
const IAT_WINDOW_SECONDS = 300;

/** What a request presents: its Authorization scheme and token, its DPoP header, and what it is. */
export type DpopPresentation = {
  scheme: 'Bearer' | 'DPoP';
  token: string;
  proof?: string;
  method: string;
  /** The request's URL as the client sees it (behind the trusted proxy), without query or fragment. */
  url: string;
};

/** What the access token says of its binding. */
export type TokenBinding = {
  /** The thumbprint of the key the token is bound to (`cnf.jkt`); none for a bearer token. */
  jkt?: string;
  clientId: string;
  /** Whether a server nonce is required of this client (FAPI 2.0 clients). */
  requireNonce: boolean;
};

const challenge = (error: string, description: string) => `DPoP error="${error}", error_description="${description}", algs="${DPOP_ALGS.join(' ')}"`;

const invalidProof = (description: string) =>
  refuse('dpop_proof_invalid', description, { headers: { 'WWW-Authenticate': challenge('invalid_dpop_proof', description) } });

export function createDpopCheck(deps: { provider: Provider; nonces: DpopNonces; now?: () => number }) {
  const now = deps.now ?? Date.now;

  const nonceNeeded = (description: string) =>
    refuse('dpop_nonce_required', description, {
      headers: { 'WWW-Authenticate': challenge('use_dpop_nonce', description), 'DPoP-Nonce': deps.nonces.next() },
    });

  const verified = async (proof: string) => {
    try {
      // No age check here: iat is compared below, with the nonce rules.
      return await jwtVerify(proof, EmbeddedJWK, { algorithms: DPOP_ALGS, typ: 'dpop+jwt' });
    } catch {
      throw invalidProof('the DPoP proof is not a valid dpop+jwt signed with the key in its header');
    }
  };

  /** Refuses unless the presentation satisfies the token's binding; the proof's id is then spent. */
  return async function checkDpop(binding: TokenBinding, presented: DpopPresentation): Promise<void> {
    if (!binding.jkt) {
      if (presented.scheme === 'DPoP') throw refuse('token_not_dpop_bound', 'this access token is not DPoP-bound: send it as "Authorization: Bearer <token>"');
      return;
    }
    if (presented.scheme !== 'DPoP') {
      throw refuse('token_dpop_bound', 'this access token is DPoP-bound: send it as "Authorization: DPoP <token>" with a DPoP proof', {
        headers: { 'WWW-Authenticate': `DPoP error="invalid_token", algs="${DPOP_ALGS.join(' ')}"` },
      });
    }
    if (!presented.proof) throw invalidProof('the DPoP header is missing');
    const { payload, protectedHeader } = await verified(presented.proof);
    checkClaims(payload, presented);
    const seconds = Math.floor(now() / 1000);
    if (payload.nonce === undefined) {
      if (binding.requireNonce) throw nonceNeeded('this client must put a server nonce in its DPoP proofs');
      if (Math.abs(seconds - (payload.iat as number)) > IAT_WINDOW_SECONDS) throw nonceNeeded('the DPoP proof is not recent enough: use a DPoP nonce');
    } else if (typeof payload.nonce !== 'string' || !deps.nonces.check(payload.nonce)) {
      throw nonceNeeded('the DPoP nonce is invalid or expired');
    }
    const thumbprint = await calculateJwkThumbprint(protectedHeader.jwk!);
    if (thumbprint !== binding.jkt) throw invalidProof('the DPoP proof is signed with another key than the one the token is bound to');
    const unique = await deps.provider.ReplayDetection.unique(binding.clientId, payload.jti as string, seconds + IAT_WINDOW_SECONDS);
    if (!unique) throw invalidProof('the DPoP proof was used before');
  };
}

function checkClaims(payload: JWTPayload, presented: DpopPresentation) {
  if (typeof payload.iat !== 'number') throw invalidProof('the DPoP proof has no iat');
  if (typeof payload.jti !== 'string' || payload.jti.length === 0) throw invalidProof('the DPoP proof has no jti');
  if (payload.htm !== presented.method) throw invalidProof('the DPoP proof is for another method (htm)');
  if (typeof payload.htu !== 'string' || withoutQuery(payload.htu) !== withoutQuery(presented.url)) {
    throw invalidProof('the DPoP proof is for another URL (htu)');
  }
  if (payload.ath !== createHash('sha256').update(presented.token).digest('base64url')) {
    throw invalidProof('the DPoP proof is for another access token (ath)');
  }
}

/** A URL without its query and fragment, normalised as the WHATWG parser does; '' when unparseable. */
function withoutQuery(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

export type DpopCheck = ReturnType<typeof createDpopCheck>;
