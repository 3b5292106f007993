// Issues wallet challenges: EIP-4361 (Sign-In with Ethereum) messages, each with a single-use
// nonce (from `siwe`) bound to one interaction and kept in the store until it is used.
import { generateNonce } from 'siwe';
import type { Address } from 'viem';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { HeldOffer } from '../providers/held_elsewhere.js';
import { siweText } from './siwe_text.js';

export type IssuedChallenge = {
  nonce: string;
  /** What the challenge is for, e.g. "interaction:<uid>"; a nonce only serves its binding. */
  binding: string;
  wallet: Address;
  /** Null only when a wallet without an identity signs in to create one. */
  identity: Address | null;
  /** Names of the fields the owner approves by signing. */
  fields: string[];
  /** Ids of the onchain claims the owner approves sharing. */
  claims: string[];
  /** The verified claims the owner approves sharing, claim by claim (src/domain/fields/verified_fields.ts). */
  verified: { claim_id: string; claims: string[] }[];
  /** The chain the text names (`Chain ID`), whose identity it is; absent: the issuer's default chain. */
  chainId?: number;
  /** The kept claims whose data another Information Provider holds (src/domain/providers/); absent: none. */
  held?: HeldOffer[];
  message: string;
  expiresAt: number;
};

export type ChallengeRequest = {
  binding: string;
  wallet: Address;
  identity: Address | null;
  /** The sentence above the fields, in the owner's words. */
  statement: string;
  fields: string[];
  claims?: string[];
  verified?: { claim_id: string; claims: string[] }[];
  /** URIs naming the identity and each field; the owner approves exactly these. */
  resources: string[];
  /** The identity's chain, named in the text (default: the settings' chain). */
  chainId?: number;
  held?: HeldOffer[];
};

export type IssueChallenge = (request: ChallengeRequest) => Promise<IssuedChallenge>;

export type ChallengeSettings = { issuer: string; chainId: number; ttlSeconds: number };

export function createChallengeIssuer(store: Store, settings: ChallengeSettings, now: () => number): IssueChallenge {
  const issuerUrl = new URL(settings.issuer);

  return async function issueChallenge(request) {
    const issuedAt = now();
    const expiresAt = issuedAt + settings.ttlSeconds * 1000;
    const nonce = generateNonce();
    const message = siweText({
      domain: issuerUrl.host,
      address: request.wallet,
      statement: request.statement,
      uri: settings.issuer,
      chainId: request.chainId ?? settings.chainId,
      nonce,
      issuedAt: new Date(issuedAt).toISOString(),
      expirationTime: new Date(expiresAt).toISOString(),
      requestId: request.binding,
      resources: request.resources,
    });
    const challenge: IssuedChallenge = {
      nonce,
      binding: request.binding,
      wallet: request.wallet,
      identity: request.identity,
      fields: request.fields,
      claims: request.claims ?? [],
      verified: request.verified ?? [],
      ...(request.chainId === undefined ? {} : { chainId: request.chainId }),
      ...(request.held?.length ? { held: request.held } : {}),
      message,
      expiresAt,
    };
    // The record and the interaction's "latest" pointer in one write (one round trip). Nothing
    // outlives the challenge: an expired one is recognised from its signed text.
    await store.putRecord({
      key: keys.challenge(nonce),
      value: JSON.stringify(challenge),
      ttlSeconds: settings.ttlSeconds,
      aliases: [{ key: keys.latestChallenge(request.binding), value: nonce }],
    });
    return challenge;
  };
}
