// A subject is parsed as a CAIP-10 account id of an EVM chain: the identity in its checksummed
// form, refused when it is anything else; parsing it again gives the same answer, which no
// caller can change.
import { parseSubject, subjectOf } from '../../../../src/domain/identity/subject.js';

const IDENTITY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test('a subject names its chain and the checksummed identity, the same answer each time, frozen', () => {
  const sub = `eip155:31337:${IDENTITY.toLowerCase()}`;
  const first = parseSubject(sub);
  expect(first).toEqual({ chainId: 31337, identity: IDENTITY });
  expect(parseSubject(sub)).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  expect(parseSubject(subjectOf(10, IDENTITY))).toEqual({ chainId: 10, identity: IDENTITY });
});

test.each([
  ['another namespace', `solana:31337:${IDENTITY}`],
  ['a chain id with a leading zero', `eip155:031337:${IDENTITY}`],
  ['a wrong checksum', `eip155:31337:${IDENTITY.replace('C51812', 'c51812')}`],
  ['a fourth part', `eip155:31337:${IDENTITY}:x`],
  ['no account', 'eip155:31337'],
])('%s is not a subject, however often it is asked', (_what, sub) => {
  expect(parseSubject(sub)).toBeUndefined();
  expect(parseSubject(sub)).toBeUndefined();
});
