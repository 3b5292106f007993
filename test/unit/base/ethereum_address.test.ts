// The one rule for an Ethereum address given to Signet: 0x and 40 hex digits, in lower case or in
// its EIP-55 checksummed case; nothing else, and nothing but text.
import { ADDRESS_DIGITS, ADDRESS_PATTERN, ADDRESS_RULE, isEthereumAddress } from '../../../src/base/ethereum_address.js';

const CHECKSUMMED = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

test.each([CHECKSUMMED, CHECKSUMMED.toLowerCase(), '0x0000000000000000000000000000000000000000'])('%s is an address', (value) => {
  expect(isEthereumAddress(value)).toBe(true);
  expect(ADDRESS_PATTERN.test(value)).toBe(true);
});

test.each([
  ['one wrong capital', '0x9FE46736679d2D9a65F0992F2272dE9f3c7fa6e0'],
  ['all in capitals', `0x${CHECKSUMMED.slice(2).toUpperCase()}`],
])('%s breaks the checksum, though the shape holds: %s', (_, value) => {
  expect(ADDRESS_PATTERN.test(value)).toBe(true);
  expect(isEthereumAddress(value)).toBe(false);
});

test.each([
  CHECKSUMMED.slice(0, -1),
  `${CHECKSUMMED}0`,
  CHECKSUMMED.slice(2),
  ` ${CHECKSUMMED}`,
  `${CHECKSUMMED.slice(0, -1)}g`,
  `eip155:1:${CHECKSUMMED}`,
  '',
])('%j is no address, nor its shape', (value) => {
  expect(isEthereumAddress(value)).toBe(false);
  expect(ADDRESS_PATTERN.test(value)).toBe(false);
});

test('only text is an address', () => {
  for (const value of [undefined, null, 1, BigInt(CHECKSUMMED), [CHECKSUMMED], { address: CHECKSUMMED }]) expect(isEthereumAddress(value)).toBe(false);
});

test('the refusal says what an address is', () => {
  expect(ADDRESS_RULE).toBe('must be a 0x-prefixed 20-byte address');
});

test('the address digits, as a part of a longer pattern, are the whole pattern', () => {
  expect(ADDRESS_PATTERN.source).toBe(`^${ADDRESS_DIGITS}$`);
});
