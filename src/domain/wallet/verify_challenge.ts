// Verifies a signed challenge against what Signet issued, one check per step, and burns its
// nonce so it serves once. The signed text must be the issued text byte for byte, so every
// field is compared at once and nothing is parsed on the way in: the nonce and expiry are
// read from their own lines to find the record, and only a text that differs is parsed in
// full (`siwe`), to name the first field that does not match.
import { SiweMessage } from 'siwe';
import type { Hex, PublicClient } from 'viem';
import { refuse, SignetError } from '../../base/errors.js';
import type { Reason } from '../../base/reasons.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { IssuedChallenge } from './challenge.js';
import { assertSignatureShape } from './signature_shape.js';
import { checkWalletSignature } from './verify_wallet_signature.js';

export type SignedChallenge = {
  /** What the challenge was issued for ("interaction:<uid>"). */
  binding: string;
  signature: string;
  /** The signed text, when the caller sends it back; otherwise the latest issued one is meant. */
  message?: string;
};

/** What verifying a signed challenge can refuse with (the routes that verify one declare these). */
export const CHALLENGE_REFUSALS: Reason[] = [
  'challenge_missing',
  'challenge_expired',
  'challenge_used',
  'challenge_burnt',
  'nonce_unknown',
  'nonce_other_binding',
  'message_mismatch',
  'message_malformed',
  'signature_malformed',
  'signature_invalid',
];

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
    throw refuse('message_malformed', '"message" is not an EIP-4361 message', { cause: error });
  }
}

const burnt = () => refuse('challenge_burnt', 'the challenge was refused after too many wrong signatures; request a new one');

const expiredAt = (iso: string) => refuse('challenge_expired', `the challenge expired at ${iso}; request a new one`);

/** What the signed text names on its Nonce and Expiration Time lines (only to find its record). */
type SignedLines = { nonce: string; expirationTime?: string };

const NONCE_LINE = /\nNonce: ([a-zA-Z0-9]+)\n/;
const EXPIRATION_LINE = /\nExpiration Time: ([^\n]+)\n/;

function signedLines(text: string): SignedLines {
  const nonce = NONCE_LINE.exec(text)?.[1];
  // A text without a nonce line cannot be a challenge: the full parse says what is wrong with it.
  if (!nonce) return { nonce: parseMessage(text).nonce };
  return { nonce, expirationTime: EXPIRATION_LINE.exec(text)?.[1] };
}

/** A signed text past its expiration time is refused before any lookup: its record is gone with it. */
function assertMessageNotExpired(lines: SignedLines, now: number) {
  if (lines.expirationTime && now >= Date.parse(lines.expirationTime)) throw expiredAt(lines.expirationTime);
}

async function nonceToCheck(store: Store, signed: SignedChallenge, lines: SignedLines | undefined) {
  if (lines) return lines.nonce;
  const latest = await store.get(keys.latestChallenge(signed.binding));
  if (!latest) {
    throw refuse('challenge_missing', 'no challenge was issued for this interaction; request one first');
  }
  return latest;
}

/**
 * The record and its fate marker, read together, and in the same step this check counted
 * against the challenge (one round trip): a used or burnt challenge says so. An attempt is
 * counted only for a challenge that exists, unused, for this binding, so another interaction
 * cannot spend its attempts and no counter is made for a nonce never issued; the counter dies
 * with the record. Counted before the eth_call, so even concurrent attempts cost at most the
 * limit's calls.
 */
async function countedAttempt(store: Store, nonce: string, signed: SignedChallenge, ttlSeconds: number) {
  const only = { field: 'binding', equals: signed.binding, fallbackSeconds: ttlSeconds };
  const read = await store.readCountingAttempt(keys.challenge(nonce), keys.usedChallenge(nonce), keys.challengeAttempts(nonce), only);
  if (read.mark === 'burnt') throw burnt();
  if (read.mark) throw refuse('challenge_used', 'the challenge was already used; request a new one');
  if (!read.record) throw refuse('nonce_unknown', '"nonce" was not issued by Signet');
  const challenge = JSON.parse(read.record) as IssuedChallenge;
  if (challenge.binding !== signed.binding) throw refuse('nonce_other_binding', '"nonce" belongs to another interaction');
  return { challenge, attempts: read.attempts };
}

/** The signed text is the issued one, byte for byte; a different text is parsed to name the field. */
function assertUnchanged(challenge: IssuedChallenge, text: string | undefined) {
  if (text === undefined || text === challenge.message) return;
  const parsed = parseMessage(text);
  const issued = new SiweMessage(challenge.message);
  for (const field of COMPARED_FIELDS) {
    if (JSON.stringify(parsed[field] ?? null) !== JSON.stringify(issued[field] ?? null)) {
      throw refuse('message_mismatch', `"${field}" does not match the challenge`);
    }
  }
  throw refuse('message_mismatch', '"message" differs from the challenge');
}

function assertNotExpired(challenge: IssuedChallenge, now: number) {
  if (now >= challenge.expiresAt) throw expiredAt(new Date(challenge.expiresAt).toISOString());
}

/**
 * Ends a challenge in one atomic step (one SET NX): of many concurrent verifications only one
 * sets its fate marker. The marker lives a challenge's whole life from now, so it outlives the
 * record, whatever is left of it (reading the record's time left would cost a script and a
 * command more); its expiry was checked just before, on the challenge's own time.
 */
async function retire(store: Store, challenge: IssuedChallenge, fate: 'used' | 'burnt', ttlSeconds: number): Promise<boolean> {
  return store.setIfAbsent(keys.usedChallenge(challenge.nonce), fate, ttlSeconds);
}

/** The caller's own checks of a challenge (live chain reads), run before its nonce is spent. */
export type BeforeUse = (challenge: IssuedChallenge) => Promise<void>;

export function createChallengeVerifier(
  store: Store,
  client: PublicClient,
  /** The signatures checked against one challenge; the one that fails at this count burns it. */
  attemptsPerChallenge: number,
  /** A challenge's life: the longest its attempt counter may live. */
  ttlSeconds: number,
  now: () => number,
  /** The client of the chain a challenge names (a contract wallet is asked on its identity's chain). */
  clientOn: (chainId: number) => PublicClient = () => client,
) {
  return async function verifyChallenge(signed: SignedChallenge, beforeUse?: BeforeUse): Promise<IssuedChallenge> {
    // Every cheap check first; the chain is asked only about a signature that could pass.
    const lines = signed.message === undefined ? undefined : signedLines(signed.message);
    if (lines) assertMessageNotExpired(lines, now());
    assertSignatureShape(signed.signature);
    const nonce = await nonceToCheck(store, signed, lines);
    const { challenge, attempts } = await countedAttempt(store, nonce, signed, ttlSeconds);
    assertUnchanged(challenge, signed.message);
    assertNotExpired(challenge, now());
    // The attempt that fails at the limit burns the challenge; one past it is refused unchecked.
    if (attempts > attemptsPerChallenge) {
      await retire(store, challenge, 'burnt', ttlSeconds);
      throw burnt();
    }
    const last = attempts === attemptsPerChallenge;
    const signer = challenge.chainId === undefined ? client : clientOn(challenge.chainId);
    // An outage (5xx) is not the signer's failure: it does not burn the challenge.
    const burnUnlessOutage = async (refused: unknown): Promise<never> => {
      if (last && !(refused instanceof SignetError && refused.status >= 500)) await retire(store, challenge, 'burnt', ttlSeconds);
      throw refused;
    };
    // Covers EOAs (recovered locally), EIP-1271 contract wallets and EIP-6492 wallets not yet deployed.
    const check = await checkWalletSignature(signer, challenge.wallet, challenge.message, signed.signature as Hex).catch(burnUnlessOutage);
    // A contract wallet's answer is asked beside the caller's live reads, not before them: one
    // chain round trip less (docs/decisions.md, 48). Both settle before either is read.
    const [signature, live] = await Promise.allSettled([typeof check === 'boolean' ? check : check(), check === false ? undefined : beforeUse?.(challenge)]);
    if (signature.status === 'rejected') return burnUnlessOutage(signature.reason);
    if (!signature.value) {
      if (last) await retire(store, challenge, 'burnt', ttlSeconds);
      throw refuse('signature_invalid', `the signature was not made by wallet ${challenge.wallet} over the challenge`);
    }
    // A chain outage here leaves the challenge usable: the owner retries, not restarts.
    if (live.status === 'rejected') throw live.reason;
    if (!(await retire(store, challenge, 'used', ttlSeconds))) {
      throw refuse('challenge_used', 'the challenge was already used; request a new one');
    }
    return challenge;
  };
}
