// A chain id is a positive whole number: as a number, a positive safe integer, which zod's
// `.int().positive()` checks alike; as text, decimal digits without a leading zero, 16 at the most.
import { z } from 'zod';
import { CHAIN_ID_DIGITS, CHAIN_ID_RULE, CHAIN_ID_TEXT, isChainId } from '../../../src/base/chain_id.js';

const asSchemas = z.number({ error: CHAIN_ID_RULE }).int().positive();

test.each([
  [1, true],
  [31337, true],
  [Number.MAX_SAFE_INTEGER, true],
  [Number.MAX_SAFE_INTEGER + 1, false],
  [0, false],
  [-1, false],
  [1.5, false],
  [Number.NaN, false],
  [Number.POSITIVE_INFINITY, false],
  ['1', false],
  [undefined, false],
])('%p is a chain id as a number: %s, alike in the schemas', (value, expected) => {
  expect(isChainId(value)).toBe(expected);
  const checked = asSchemas.safeParse(value);
  expect(checked.success).toBe(expected);
  if (!checked.success) expect(checked.error.issues.map((issue) => issue.message)).toEqual([CHAIN_ID_RULE]);
});

test.each([
  ['1', true],
  ['31337', true],
  ['9'.repeat(16), true],
  ['9'.repeat(17), false],
  ['0', false],
  ['031337', false],
  ['-1', false],
  ['1.5', false],
  ['1e3', false],
  ['0x10', false],
  [' 5', false],
  ['', false],
])('%j is a chain id as text: %s', (text, expected) => {
  expect(CHAIN_ID_TEXT.test(text)).toBe(expected);
  expect(new RegExp(`^${CHAIN_ID_DIGITS}$`).source).toBe(CHAIN_ID_TEXT.source);
});

test('sixteen digits reach past the safe integers: the text rule takes them, the number rule does not', () => {
  const text = '9'.repeat(16);
  expect(CHAIN_ID_TEXT.test(text)).toBe(true);
  expect(isChainId(Number(text))).toBe(false);
});
