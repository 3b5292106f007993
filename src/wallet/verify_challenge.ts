// Verifies a signed challenge against what Signet issued, one check per step, and burns its
// nonce so it serves once. Every field is compared; a missing value never skips a check.
import { SiweMessage } from 'siwe';
import type { Hex, PublicClient } from 'viem';
import { conflict, expired, invalidRequest, invalidSignature } from '../errors.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';
import { verifyWalletSignature } from './verify_wallet_signature.js';
import { AFTERLIFE_SECONDS, type IssuedChallenge } from './challenge.js';

export type SignedChallenge = {
  /** What the challenge was issued for ("interaction:<uid>"). */
  binding: string;
  signature: string;
  /** The signed text, when the caller sends it back; otherwise the latest issued one is meant. */
  message?: string;
};

const COMPARED_FIELDS = [
  'domain',
  'address',
  'statement',
  'uri',
  'version',
  'chainId',
  'nonce',
  'issuedAt',
  'expirationTime',
  'notBefore',
  'requestId',
  'resources',
] as const;

function parseMessage(text: string): SiweMessage {
  try {
    return new SiweMessage(text);
  } catch (error) {
    throw invalidRequest('"message" is not an EIP-4361 message', error);
  }
}

async function nonceToCheck(store: Store, signed: SignedChallenge, parsed: SiweMessage | undefined) {
  if (parsed) return parsed.nonce;
  const latest = await store.get(keys.latestChallenge(signed.binding));
  if (!latest) throw invalidRequest('no challenge was issued for this interaction; request one first');
  return latest;
}

async function issuedChallenge(store: Store, nonce: string): Promise<IssuedChallenge> {
  const raw = await store.get(keys.challenge(nonce));
  if (raw) return JSON.parse(raw) as IssuedChallenge;
  if (await store.get(keys.usedChallenge(nonce))) throw conflict('the challenge was already used; request a new one');
  throw invalidRequest('"nonce" was not issued by Signet');
}

function assertSameBinding(challenge: IssuedChallenge, signed: SignedChallenge) {
  if (challenge.binding !== signed.binding) throw invalidRequest('"nonce" belongs to another interaction');
}

function assertUnchanged(challenge: IssuedChallenge, parsed: SiweMessage | undefined, text: string | undefined) {
  if (!parsed || text === undefined) return;
  const issued = new SiweMessage(challenge.message);
  for (const field of COMPARED_FIELDS) {
    if (JSON.stringify(parsed[field] ?? null) !== JSON.stringify(issued[field] ?? null)) {
      throw invalidRequest(`"${field}" does not match the challenge`);
    }
  }
  if (text !== challenge.message) throw invalidRequest('"message" differs from the challenge');
}

function assertNotExpired(challenge: IssuedChallenge, now: number) {
  if (now >= challenge.expiresAt) {
    throw expired(`the challenge expired at ${new Date(challenge.expiresAt).toISOString()}; request a new one`);
  }
}

async function assertSignedByWallet(client: PublicClient, challenge: IssuedChallenge, signature: string) {
  if (!/^0x([0-9a-fA-F]{2})+$/.test(signature)) throw invalidRequest('"signature" must be 0x-prefixed hex');
  // Covers EOAs, EIP-1271 contract wallets and EIP-6492 wallets not yet deployed.
  const valid = await verifyWalletSignature(client, challenge.wallet, challenge.message, signature as Hex);
  if (!valid) throw invalidSignature(`the signature was not made by wallet ${challenge.wallet} over the challenge`);
}

async function burn(store: Store, challenge: IssuedChallenge) {
  // Only one of many concurrent verifications takes the record.
  const taken = await store.take(keys.challenge(challenge.nonce));
  if (!taken) throw conflict('the challenge was already used; request a new one');
  await store.set(keys.usedChallenge(challenge.nonce), '1', AFTERLIFE_SECONDS);
}

/** The caller's own checks of a verified challenge (live chain reads), run before its nonce is spent. */
export type BeforeUse = (challenge: IssuedChallenge) => Promise<void>;

export function createChallengeVerifier(store: Store, client: PublicClient, now: () => number) {
  return async function verifyChallenge(signed: SignedChallenge, beforeUse?: BeforeUse): Promise<IssuedChallenge> {
    const parsed = signed.message === undefined ? undefined : parseMessage(signed.message);
    const nonce = await nonceToCheck(store, signed, parsed);
    const challenge = await issuedChallenge(store, nonce);
    assertSameBinding(challenge, signed);
    assertUnchanged(challenge, parsed, signed.message);
    assertNotExpired(challenge, now());
    await assertSignedByWallet(client, challenge, signed.signature);
    // A chain outage here leaves the challenge usable: the owner retries, not restarts.
    await beforeUse?.(challenge);
    await burn(store, challenge);
    return challenge;
  };
}
