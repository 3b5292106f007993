// The one rule for a chain id (EIP-155), as Signet is given one: a positive whole number. It is
// read two ways, each named by what it reads:
// - a number (a setting's or a request's `chain_id`, a text to sign): a positive safe integer
//   (`isChainId`; zod's `.int().positive()` is the same check, and states it in /openapi.json);
// - text (a CAIP-10 id's reference, a command's flag): decimal digits without a leading zero, 16 at
//   the most (`CHAIN_ID_TEXT`). Sixteen digits reach past the safe integers: such an id is read
//   as the number nearest it, which names no chain Signet serves, as before.
// The one-chain shorthand's CHAIN_ID is a setting read as a number from text (zod's coerce), a
// third, looser reading kept as it was.

/** What a refusal says of a value that breaks the rule. */
export const CHAIN_ID_RULE = 'must be a chain id (a positive integer)';

export function isChainId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** A chain id written out, as a pattern's part (a CAIP-10 id's reference). */
export const CHAIN_ID_DIGITS = '[1-9][0-9]{0,15}';

/** A chain id as text, whole. */
export const CHAIN_ID_TEXT = new RegExp(`^${CHAIN_ID_DIGITS}$`);
