// The one rule for an Ethereum address Signet is given (a setting, a request's field, a path, a
// login hint, a subject): 0x and 40 hex digits, all in lower case or in EIP-55's checksummed
// mixed case (viem's isAddress), so an address typed with one wrong capital is refused rather
// than read as another. Signet then keeps and answers its EIP-55 form.
import { type Address, isAddress } from 'viem';

/** 0x and 40 hex digits, as a pattern's part (an identity in a path: an address or its CAIP-10 id). */
export const ADDRESS_DIGITS = '0x[0-9a-fA-F]{40}';

/** 0x and 40 hex digits: the address's shape, the pattern /openapi.json states (the checksum it cannot). */
export const ADDRESS_PATTERN = new RegExp(`^${ADDRESS_DIGITS}$`);

/** What a refusal says of a value that breaks the rule. */
export const ADDRESS_RULE = 'must be a 0x-prefixed 20-byte address';

export function isEthereumAddress(value: unknown): value is Address {
  return typeof value === 'string' && isAddress(value);
}
