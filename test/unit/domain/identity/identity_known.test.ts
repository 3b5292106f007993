// Whether the IdFactory knows an address, for reads of an identity's resources
// (src/domain/identity/identity_registry.ts, isKnown): the factory's getWallets(address) read once,
// its answer (known or not) kept for the cache's seconds on the given clock, an outage never
// kept, and no cache at all with 0 seconds. assertKnown stays a live read.
import { type Address, createPublicClient, custom, decodeFunctionData, encodeFunctionResult, getAddress, type Hex, type PublicClient } from 'viem';
import { createIdentityRegistry } from '../../../../src/domain/identity/identity_registry.js';
import { idFactoryAbi } from '../../../../src/infra/chain/contracts.js';

const FACTORY: Address = getAddress(`0x${'fa'.repeat(20)}`);
const IDENTITY: Address = getAddress(`0x${'1d'.repeat(20)}`);
const STRANGER: Address = getAddress(`0x${'5e'.repeat(20)}`);
const WALLET: Address = getAddress(`0x${'ab'.repeat(20)}`);

/** A factory that links WALLET to IDENTITY only, and counts the calls it answers; `down` fails them. */
function factoryChain() {
  const asked: Address[] = [];
  const state = { down: false };
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method !== 'eth_call') throw new Error(`unexpected ${method}`);
        if (state.down) throw new Error('connection refused');
        const { to, data } = (params as [{ to: Address; data: Hex }])[0];
        expect(to.toLowerCase()).toBe(FACTORY.toLowerCase());
        const { functionName, args } = decodeFunctionData({ abi: idFactoryAbi, data });
        expect(functionName).toBe('getWallets');
        const identity = getAddress(args![0] as Address);
        asked.push(identity);
        return encodeFunctionResult({ abi: idFactoryAbi, functionName: 'getWallets', result: identity === IDENTITY ? [WALLET] : [] });
      },
    }),
  }) as PublicClient;
  return { client, asked, state };
}

test('an answer is kept for the cache seconds, known and unknown alike, then read again', async () => {
  const { client, asked } = factoryChain();
  let now = 1_000_000;
  const registry = createIdentityRegistry(client, FACTORY, { seconds: 10, now: () => now });
  expect(await registry.isKnown(IDENTITY)).toBe(true);
  expect(await registry.isKnown(STRANGER)).toBe(false);
  expect(await registry.isKnown(IDENTITY)).toBe(true);
  expect(await registry.isKnown(STRANGER)).toBe(false);
  expect(asked).toEqual([IDENTITY, STRANGER]);
  now += 10_000;
  expect(await registry.isKnown(IDENTITY)).toBe(true);
  expect(await registry.isKnown(STRANGER)).toBe(false);
  expect(asked).toEqual([IDENTITY, STRANGER, IDENTITY, STRANGER]);
});

test('with 0 seconds every question is a live read; assertKnown is always live', async () => {
  const { client, asked } = factoryChain();
  const registry = createIdentityRegistry(client, FACTORY);
  expect(await registry.isKnown(IDENTITY)).toBe(true);
  expect(await registry.isKnown(IDENTITY)).toBe(true);
  expect(asked).toEqual([IDENTITY, IDENTITY]);

  const cached = factoryChain();
  const kept = createIdentityRegistry(cached.client, FACTORY, { seconds: 60, now: () => 0 });
  await kept.assertKnown(IDENTITY);
  await kept.assertKnown(IDENTITY);
  await expect(kept.assertKnown(STRANGER)).rejects.toMatchObject({ status: 404, reason: 'identity_not_found', previousReason: 'identity_not_registered' });
  expect(cached.asked).toEqual([IDENTITY, IDENTITY, STRANGER]);
  // What the live reads found is what isKnown answers from then on, without asking.
  expect(await kept.isKnown(IDENTITY)).toBe(true);
  expect(await kept.isKnown(STRANGER)).toBe(false);
  expect(cached.asked).toHaveLength(3);
});

test('an outage is 503 chain_unavailable and is never kept', async () => {
  const { client, asked, state } = factoryChain();
  const registry = createIdentityRegistry(client, FACTORY, { seconds: 60, now: () => 0 });
  state.down = true;
  await expect(registry.isKnown(STRANGER)).rejects.toMatchObject({ status: 503, reason: 'chain_unavailable' });
  state.down = false;
  expect(await registry.isKnown(STRANGER)).toBe(false);
  expect(asked).toEqual([STRANGER]);
});
