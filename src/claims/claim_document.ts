// The off-chain data of a claim Signet issues and the hash that goes onchain.
//
// Byte layout (so another issuer can reproduce it):
//   document = { "data": <object>, "expires_at": <ISO-8601 UTC string or null> }
//   json     = UTF-8 of the canonical JSON of document: object keys sorted by UTF-16 code
//              units at every level, no whitespace, strings and numbers as JSON.stringify
//   salt     = 32 random bytes, one per claim, kept with the data
//   hash     = keccak256(json ‖ salt)          (‖ is byte concatenation)
// The salt is the datum "not from an exhaustive list": without it, data like a country or an
// age could be found by hashing every possible value.
import { randomBytes } from 'node:crypto';
import { bytesToHex, concat, type Hex, keccak256, stringToBytes } from 'viem';

export type ClaimDocument = { data: Record<string, unknown>; expires_at: string | null };

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, inner]) => inner !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
}

export function newSalt(): Hex {
  return bytesToHex(randomBytes(32));
}

export function hashClaimDocument(document: ClaimDocument, salt: Hex): Hex {
  return keccak256(concat([stringToBytes(canonicalJson(document)), salt]));
}
