// How Signet reads the 0x-prefixed hex it is given: a 32-byte value (a claim id, a transaction
// hash, a salt, a private key) is 0x and 64 hex digits in any case; bytes of any length (a
// signature) are 0x and whole bytes, at least one. An address has its own rule
// (ethereum_address.ts): its case carries a checksum.

/** 32 bytes, as a pattern's part (a claim id at the end of a claim's path). */
export const BYTES32_DIGITS = '0x[0-9a-fA-F]{64}';

/** 32 bytes: 0x and 64 hex digits, the pattern /openapi.json states. */
export const BYTES32_PATTERN = new RegExp(`^${BYTES32_DIGITS}$`);

/** 32 bytes as Signet answers them: in lower case, the pattern /openapi.json states of an answer. */
export const BYTES32_ANSWER_PATTERN = /^0x[0-9a-f]{64}$/;

/** Whole bytes, at least one: 0x and an even, non-zero count of hex digits. */
export const HEX_BYTES_PATTERN = /^0x([0-9a-fA-F]{2})+$/;
