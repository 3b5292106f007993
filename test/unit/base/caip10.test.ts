// A CAIP-10 account id of an EVM chain is written eip155:<chain id>:<account> and read back to
// its chain id and account; anything else is none. The account itself is checked by its reader.
import { CAIP10_PREFIX, caip10Of, caip10Parts } from '../../../src/base/caip10.js';

const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test('written and read back', () => {
  expect(caip10Of(31337, ACCOUNT)).toBe(`eip155:31337:${ACCOUNT}`);
  expect(caip10Parts(caip10Of(31337, ACCOUNT))).toEqual({ chainId: 31337, account: ACCOUNT });
  expect(caip10Parts('eip155:1:not-checked')).toEqual({ chainId: 1, account: 'not-checked' });
});

test.each([
  ['a bare address', ACCOUNT],
  ['another namespace', `solana:1:${ACCOUNT}`],
  ['a chain id with a leading zero', `eip155:01:${ACCOUNT}`],
  ['chain id 0', `eip155:0:${ACCOUNT}`],
  ['17 digits of chain id', `eip155:${'1'.repeat(17)}:${ACCOUNT}`],
  ['no chain id', `eip155::${ACCOUNT}`],
  ['no account', 'eip155:1:'],
  ['no account part', 'eip155:1'],
  ['a fourth part', `eip155:1:${ACCOUNT}:x`],
  ['nothing', ''],
])('%s is none', (_what, text) => {
  expect(caip10Parts(text)).toBeUndefined();
});

test('the prefix as a pattern matches what caip10Of writes before the account', () => {
  const prefix = new RegExp(`^${CAIP10_PREFIX}$`);
  expect(prefix.test(caip10Of(31337, ''))).toBe(true);
  expect(prefix.test('eip155:031337:')).toBe(false);
  expect(prefix.test('eip155:31337')).toBe(false);
});
