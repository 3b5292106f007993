// The wallet's identity as the IdFactory answers getIdentity(address), read with a hand-encoded
// eth_call (src/domain/identity/identity_registry.ts): the call the chain receives is the ABI's own,
// its answer is decoded to a checksummed address or none, and an answer that holds no address
// (no code at the factory's address) is the chain's failure, never "no identity".
import { type Address, createPublicClient, custom, decodeFunctionData, encodeFunctionResult, getAddress, type Hex, type PublicClient, zeroAddress } from 'viem';
import { createIdentityRegistry } from '../../../../src/domain/identity/identity_registry.js';
import { idFactoryAbi } from '../../../../src/infra/chain/contracts.js';

const FACTORY: Address = getAddress(`0x${'fa'.repeat(20)}`);
const WALLET: Address = getAddress(`0x${'ab'.repeat(20)}`);
const IDENTITY: Address = getAddress(`0x${'1d'.repeat(20)}`);

/** A chain whose eth_call answers `answer` and records what it was asked. */
function chainAnswering(answer: Hex) {
  const asked: { to: Address; data: Hex }[] = [];
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method !== 'eth_call') throw new Error(`unexpected ${method}`);
        asked.push((params as [{ to: Address; data: Hex }])[0]);
        return answer;
      },
    }),
  }) as PublicClient;
  return { client, asked };
}

const answerOf = (identity: Address) => encodeFunctionResult({ abi: idFactoryAbi, functionName: 'getIdentity', result: identity });

test("the call is the ABI's getIdentity(wallet) to the factory, and the answer its identity, checksummed", async () => {
  const { client, asked } = chainAnswering(answerOf(IDENTITY).toLowerCase() as Hex);
  expect(await createIdentityRegistry(client, FACTORY).identityOf(WALLET)).toBe(IDENTITY);
  expect(asked).toHaveLength(1);
  expect(asked[0]!.to.toLowerCase()).toBe(FACTORY.toLowerCase());
  expect(decodeFunctionData({ abi: idFactoryAbi, data: asked[0]!.data })).toEqual({ functionName: 'getIdentity', args: [WALLET] });
});

test('the zero address is no identity', async () => {
  const { client } = chainAnswering(answerOf(zeroAddress));
  expect(await createIdentityRegistry(client, FACTORY).identityOf(WALLET)).toBeUndefined();
});

test.each([
  ['no data (no code at the address)', '0x'],
  ['a word that is not an address', `0x${'ff'.repeat(32)}`],
  ['two words', `${answerOf(IDENTITY)}${'00'.repeat(32)}`],
] as const)('%s is the chain failing: 503 chain_unavailable', async (_case, answer) => {
  const { client } = chainAnswering(answer as Hex);
  await expect(createIdentityRegistry(client, FACTORY).identityOf(WALLET)).rejects.toMatchObject({ status: 503, reason: 'chain_unavailable' });
});
