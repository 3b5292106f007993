// The off-chain data of a claim Signet issues and the hash that goes onchain.
//
// Byte layout (so another issuer can reproduce it):
//   document = { "chain_id": <number>, "data": <object>, "expires_at": <ISO-8601 UTC string or null> }
//              (chain_id: the chain the claim was issued on; an ONCHAINID signature covers
//              identity, topic and data but not the chain, so the chain is bound inside the data's
//              hash: a copy onto the same address on another chain names the wrong chain;
//              documents from before several chains have none and belong to the first)
//   json     = UTF-8 of the canonical JSON of document: object keys sorted by UTF-16 code
//              units at every level, no whitespace, strings and numbers as JSON.stringify
//   salt     = 32 random bytes, one per claim, kept with the data
//   hash     = keccak256(json ‖ salt)          (‖ is byte concatenation)
// The salt is the datum "not from an exhaustive list": without it, data like a country or an
// age could be found by hashing every possible value.
import { randomBytes } from 'node:crypto';
import { bytesToHex, concat, type Hex, keccak256, stringToBytes } from 'viem';
import { refuse } from '../../base/errors.js';
import { measureJson } from '../../http/json_bounds.js';

export type ClaimDocument = { data: Record<string, unknown>; expires_at: string | null; chain_id?: number };

/** What Signet accepts as a claim's data: nesting and size keep hashing and storage cheap. */
export const CLAIM_DATA_LIMITS = { depth: 8, bytes: 16 * 1024 } as const;

/** The deepest value canonicalJson writes; a bound so it can never exhaust the stack. */
const CANONICAL_MAX_DEPTH = 64;

export function canonicalJson(value: unknown, depth = 0): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (depth >= CANONICAL_MAX_DEPTH) throw new RangeError(`canonicalJson: nesting deeper than ${CANONICAL_MAX_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((inner) => canonicalJson(inner, depth + 1)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, inner]) => inner !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner, depth + 1)}`).join(',')}}`;
}

/** Refuses claim data deeper or larger than CLAIM_DATA_LIMITS, naming which bound it broke. */
export function assertClaimDataBounds(data: Record<string, unknown>): void {
  const { depth } = measureJson(data, CLAIM_DATA_LIMITS.depth);
  if (depth > CLAIM_DATA_LIMITS.depth) {
    throw refuse('claim_data_too_deep', `"data" nests deeper than ${CLAIM_DATA_LIMITS.depth} levels`);
  }
  const bytes = Buffer.byteLength(canonicalJson(data));
  if (bytes > CLAIM_DATA_LIMITS.bytes) {
    throw refuse('claim_data_too_large', `"data" is larger than ${CLAIM_DATA_LIMITS.bytes} bytes as canonical JSON`);
  }
}

export function newSalt(): Hex {
  return bytesToHex(randomBytes(32));
}

export function hashClaimDocument(document: ClaimDocument, salt: Hex): Hex {
  return keccak256(concat([stringToBytes(canonicalJson(document)), salt]));
}
