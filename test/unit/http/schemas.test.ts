// The request fields shared by the route table: a page's size is a whole number from 1 to its
// bound, read from a query's text, its default when absent, every refusal saying the bound; a
// chain id in a body is a positive safe integer, refused with the chain id rule's words.
import { CHAIN_ID_RULE } from '../../../src/base/chain_id.js';
import { chainIdField, pageLimitField } from '../../../src/http/schemas.js';

test.each([
  [undefined, 20],
  ['1', 1],
  ['100', 100],
  [' 7 ', 7],
])('a page of %j holds %s', (given, size) => {
  expect(pageLimitField(100, 20).parse(given)).toBe(size);
});

test.each(['0', '101', '1.5', 'ten', '-1'])('a page of %j is refused with its bound', (given) => {
  const checked = pageLimitField(100, 20).safeParse(given);
  expect(checked.success).toBe(false);
  expect(checked.error?.issues.map((issue) => issue.message)).toEqual(['must be an integer from 1 to 100']);
});

test('a chain id in a body: absent, a positive safe integer, or refused by the rule', () => {
  const field = chainIdField('absent: the default chain');
  expect(field.parse(undefined)).toBeUndefined();
  expect(field.parse(31337)).toBe(31337);
  for (const given of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, '1']) {
    expect(field.safeParse(given).error?.issues.map((issue) => issue.message)).toEqual([CHAIN_ID_RULE]);
  }
});
