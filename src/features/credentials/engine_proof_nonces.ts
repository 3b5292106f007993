// The engine's OpenID4VCI nonces are not random: one value per minute, the same for every
// wallet, so a wallet asking again gets the nonce it has used already (OpenID4VCI 1.0 §7 gives
// a new one per request). The engine reads its nonces from one object with two methods, at the
// nonce endpoint (`nextChallenge`) and at the credential endpoint (`checkChallenge`, for every
// proof, before Signet's issuance is called): Signet's nonces take its place (decision 68).
// The engine's version is pinned (decision 53); a start on an engine that keeps them elsewhere
// stops here rather than issue with nonces that repeat.
import internalsOf from 'oidc-provider/lib/helpers/weak_cache.js';
import type Provider from 'oidc-provider';
import type { ProofNonces } from '../../domain/credentials/proof_nonces.js';

type EngineChallenges = { nextChallenge(): string | undefined; checkChallenge(value: string): boolean };

export function useProofNonces(provider: Provider, nonces: ProofNonces): void {
  const internals = internalsOf(provider);
  const engine = internals?.CNonceChallenges as EngineChallenges | undefined;
  if (!internals || typeof engine?.nextChallenge !== 'function' || typeof engine.checkChallenge !== 'function') {
    throw new Error('the engine keeps its OpenID4VCI nonces elsewhere than the version Signet pins: credentials cannot be issued with fresh nonces');
  }
  const signets: EngineChallenges = { nextChallenge: () => nonces.next(), checkChallenge: (value) => nonces.check(value) };
  internals.CNonceChallenges = signets;
}
