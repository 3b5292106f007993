// The hex Signet is given: 32 bytes are 0x and 64 hex digits in any case; bytes of any length
// are 0x and whole bytes, at least one. Signet answers 32 bytes in lower case.
import { BYTES32_ANSWER_PATTERN, BYTES32_DIGITS, BYTES32_PATTERN, HEX_BYTES_PATTERN } from '../../../src/base/hex_text.js';

const BYTES32 = `0x${'ab'.repeat(16)}${'CD'.repeat(16)}`;

test.each([
  [BYTES32, true, true],
  [BYTES32.toLowerCase(), true, true],
  [BYTES32.slice(0, -2), false, true],
  [`${BYTES32}00`, false, true],
  [BYTES32.slice(0, -1), false, false],
  ['0x00', false, true],
  ['0x0', false, false],
  ['0x', false, false],
  [BYTES32.slice(2), false, false],
  [`${BYTES32.slice(0, -1)}g`, false, false],
  [`0X${BYTES32.slice(2)}`, false, false],
])('%s: 32 bytes %s, whole bytes %s', (value, bytes32, wholeBytes) => {
  expect(BYTES32_PATTERN.test(value)).toBe(bytes32);
  expect(HEX_BYTES_PATTERN.test(value)).toBe(wholeBytes);
});

test('32 bytes as Signet answers them: in lower case only', () => {
  expect(BYTES32_ANSWER_PATTERN.test(BYTES32.toLowerCase())).toBe(true);
  expect(BYTES32_ANSWER_PATTERN.test(BYTES32)).toBe(false);
  expect(BYTES32_ANSWER_PATTERN.test(BYTES32.toLowerCase().slice(0, -1))).toBe(false);
});

test('the 32-byte digits, as a part of a longer pattern, are the whole pattern', () => {
  expect(BYTES32_PATTERN.source).toBe(`^${BYTES32_DIGITS}$`);
  const claimPath = new RegExp(`/claims/(${BYTES32_DIGITS})$`);
  expect(claimPath.exec(`/identities/x/claims/${BYTES32}`)?.[1]).toBe(BYTES32);
  expect(claimPath.exec(`/identities/x/claims/${BYTES32}0`)).toBeNull();
});
