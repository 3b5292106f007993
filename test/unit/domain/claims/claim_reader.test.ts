// The claim reader's cache, driven through a real viem client whose transport answers locally
// (an identity whose getClaim knows one claim): reads are cached for cacheSeconds on the
// injected clock, a fresh read goes to the chain, forget drops an identity's entries, "no such
// claim" lives in a small cache of its own, and 80,000 reads of made-up claim ids leave the
// heap about where it was. (Real anvil: test/integration/public_reads.test.ts.)
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type Address, createPublicClient, custom, encodeFunctionResult, getAddress, type Hex, type PublicClient, zeroAddress } from 'viem';
import { CLAIM_CACHE_BOUNDS, createClaimReader } from '../../../../src/domain/claims/claim_reader.js';
import { identityAbi } from '../../../../src/infra/chain/contracts.js';

const IDENTITY: Address = getAddress(`0x${'a1'.repeat(20)}`);
const OTHER: Address = getAddress(`0x${'b2'.repeat(20)}`);
const ISSUER: Address = getAddress(`0x${'c3'.repeat(20)}`);
const KNOWN: Hex = `0x${'11'.repeat(32)}`;
const CACHE_SECONDS = 60;

const randomId = (): Hex => `0x${randomBytes(32).toString('hex')}`;

/** A client whose eth_call answers getClaim: KNOWN exists on every identity, any other id does not. */
function localChain(options: { record: boolean } = { record: true }) {
  const calls: Hex[] = [];
  // Encoded once: the 80,000-read test spends its time in the reader, not in this stand-in chain.
  const answer = (found: boolean) =>
    encodeFunctionResult({
      abi: identityAbi,
      functionName: 'getClaim',
      result: found ? [1n, 1n, ISSUER, '0xabcd', '0x1234', 'https://issuer.example/claim'] : [0n, 0n, zeroAddress, '0x', '0x', ''],
    });
  const [found, missing] = [answer(true), answer(false)];
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method !== 'eth_call') throw new Error(`unexpected ${method}`);
        const { data } = (params as [{ data: Hex }])[0];
        // getClaim(bytes32): the claim id is the one argument, the last 32 bytes.
        const claimId: Hex = `0x${data.slice(-64)}`;
        if (options.record) calls.push(claimId);
        return claimId === KNOWN ? found : missing;
      },
    }),
  }) as PublicClient;
  return { client, calls };
}

function clock() {
  let at = 1_700_000_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

test('reads are cached for cacheSeconds on the injected clock; fresh reads and forget go to the chain', async () => {
  const { client, calls } = localChain();
  const time = clock();
  const reader = createClaimReader(client, CACHE_SECONDS, time.now);
  const missing = randomId();

  expect(await reader.claim(IDENTITY, KNOWN)).toEqual(expect.objectContaining({ claimId: KNOWN, topic: 1, issuer: ISSUER }));
  expect(await reader.claim(IDENTITY, missing)).toBeUndefined();
  expect(await reader.claim(IDENTITY, KNOWN)).toEqual(expect.objectContaining({ claimId: KNOWN }));
  expect(await reader.claim(IDENTITY, missing)).toBeUndefined();
  expect(calls).toEqual([KNOWN, missing]);

  await reader.claim(IDENTITY, KNOWN, { fresh: true });
  expect(calls).toEqual([KNOWN, missing, KNOWN]);

  time.advance(CACHE_SECONDS * 1000 - 1);
  await reader.claim(IDENTITY, KNOWN);
  await reader.claim(IDENTITY, missing);
  expect(calls).toHaveLength(3);
  time.advance(1);
  await reader.claim(IDENTITY, KNOWN);
  await reader.claim(IDENTITY, missing);
  expect(calls).toEqual([KNOWN, missing, KNOWN, KNOWN, missing]);

  // forget drops one identity's entries, found and missing, and no other's.
  await reader.claim(OTHER, KNOWN);
  calls.length = 0;
  reader.forget(IDENTITY);
  await reader.claim(IDENTITY, KNOWN);
  await reader.claim(IDENTITY, missing);
  await reader.claim(OTHER, KNOWN);
  expect(calls).toEqual([KNOWN, missing]);
});

test('no cache at all with cacheSeconds 0', async () => {
  const { client, calls } = localChain();
  const reader = createClaimReader(client, 0, clock().now);
  await reader.claim(IDENTITY, KNOWN);
  await reader.claim(IDENTITY, KNOWN);
  expect(calls).toEqual([KNOWN, KNOWN]);
});

test('made-up claim ids cannot push out what exists', async () => {
  const { client, calls } = localChain();
  const reader = createClaimReader(client, CACHE_SECONDS, clock().now);
  await reader.claim(IDENTITY, KNOWN);
  const made = Array.from({ length: CLAIM_CACHE_BOUNDS.missEntries * 3 }, randomId);
  for (const id of made) await reader.claim(IDENTITY, id);
  calls.length = 0;
  await reader.claim(IDENTITY, KNOWN);
  // The latest misses are still cached, the oldest were evicted.
  await reader.claim(IDENTITY, made.at(-1)!);
  await reader.claim(IDENTITY, made[0]!);
  expect(calls).toEqual([made[0]]);
});

test('80,000 reads of made-up claim ids grow the heap by less than 10 MiB', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // Calls not recorded: the test's own list would grow by 80,000 ids.
  const { client } = localChain({ record: false });
  const reader = createClaimReader(client, CACHE_SECONDS, clock().now);
  const settle = () => {
    gc();
    gc();
    return process.memoryUsage();
  };
  // A first batch warms viem's and the caches' code paths and fills the miss cache.
  for (let i = 0; i < 2_000; i++) await reader.claim(IDENTITY, randomId());
  const before = settle();
  for (let i = 0; i < 80_000; i++) await reader.claim(IDENTITY, randomId());
  const after = settle();
  // The reader stays alive past the measure (else its cache is collected with it).
  expect(await reader.claim(IDENTITY, KNOWN)).toEqual(expect.objectContaining({ claimId: KNOWN }));
  const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;
  const heapGrowth = mib(after.heapUsed - before.heapUsed);
  const rssGrowth = mib(after.rss - before.rss);
  console.log(
    `claim reader, 80,000 reads of made-up claim ids: heap ${heapGrowth >= 0 ? '+' : ''}${heapGrowth} MiB, RSS ${rssGrowth >= 0 ? '+' : ''}${rssGrowth} MiB`,
  );
  expect(heapGrowth).toBeLessThan(10);
}, 30_000);
