// The chains served as one set: which chain a reference that names no chain means (the default
// chain, the first of CHAINS), how each chain names its identities and itself in records, and
// the resolver every feature asks.
import type { Address } from 'viem';
import { SignetError } from '../../../../src/base/errors.js';
import { chainSetOf, namingsOf } from '../../../../src/infra/chain/chains.js';

const IDENTITY: Address = '0x00000000000000000000000000000000000000d1';

const served = (ids: number[]) => {
  const namings = namingsOf(ids);
  return chainSetOf(ids.map((chainId, i) => ({ chainId, name: `chain ${chainId}`, ...namings[i]! })));
};

test('the first of CHAINS is the default chain: its records name no chain and its keys the bare address', () => {
  const [unnamed, other] = namingsOf([8453, 137]);
  expect(unnamed!.idInRecords).toBeUndefined();
  expect(unnamed!.identityKey(IDENTITY)).toBe(IDENTITY);
  expect(other!.idInRecords).toBe(137);
  expect(other!.identityKey(IDENTITY)).toBe(`eip155:137:${IDENTITY}`);
});

test('one chain served is the default chain, named or not', () => {
  const chains = served([31337]);
  expect(chains.several).toBe(false);
  expect(chains.named(undefined)).toBe(chains.all[0]);
  expect(chains.named(31337)).toBe(chains.all[0]);
  expect(chains.idOf(undefined)).toBe(31337);
});

test('a reference resolves to the chain it names, none named to the default chain, one not served is refused', () => {
  const chains = served([8453, 137]);
  expect(chains.several).toBe(true);
  expect(chains.named(undefined).chainId).toBe(8453);
  expect(chains.named(137).chainId).toBe(137);
  expect(chains.get(5)).toBeUndefined();
  let refusal: unknown;
  try {
    chains.named(5);
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(SignetError);
  expect((refusal as SignetError).reason).toBe('chain_not_configured');
  expect(() => chains.require(5)).toThrow('chain 5 is not one this Signet serves');
  // The id a reference means, unchecked: a record of a chain no longer served keeps its own.
  expect(chains.idOf(5)).toBe(5);
  expect(chains.idOf(undefined)).toBe(8453);
});

test("a feature's own parts per chain are found through the same chains", () => {
  const chains = served([8453, 137]).withParts((chain) => ({ label: `label of ${chain.chainId}` }));
  expect(chains.named(undefined).label).toBe('label of 8453');
  expect(chains.named(137).label).toBe('label of 137');
  expect(chains.named(137).identityKey(IDENTITY)).toBe(`eip155:137:${IDENTITY}`);
  expect(chains.all.map((chain) => chain.idInRecords)).toEqual([undefined, 137]);
});
