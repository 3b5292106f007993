// A chain's RPC endpoints (src/infra/chain/rpc_endpoints.ts) on real parts: anvil with the ONCHAINID
// contracts behind provider-like proxies (test/support/provider_proxy.ts) that the tests kill,
// fail, rate limit and cap. Calls go to the first endpoint that is up and move on at once; a
// failed endpoint is probed and rejoins; a 429's Retry-After keeps background work away; a
// contract's own error is an answer; eth_getLogs refused for its range is split and the range
// remembered; nothing names an endpoint by its URL.
import { type Address, type PublicClient, parseAbiItem } from 'viem';
import { createChainAccess } from '../../src/infra/chain/chain_client.js';
import { idFactoryAbi, KeyPurpose } from '../../src/infra/chain/contracts.js';
import type { RpcEndpoints } from '../../src/infra/chain/rpc_endpoints.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { requestContext } from '../../src/infra/observability/request_context.js';
import { captureLogs } from '../support/log_capture.js';
import { FAKE_API_KEY, type ProviderProxy, startProviderProxy } from '../support/provider_proxy.js';
import { startTestChain, type TestChain } from '../support/test_chain.js';
import { waitUntil } from '../support/wait_until.js';

const PROBE_MS = 100;
const KEY_ADDED = parseAbiItem('event KeyAdded(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType)');

let chain: TestChain;
let first: ProviderProxy;
let second: ProviderProxy;
let client: PublicClient;
let endpoints: RpcEndpoints;
const logs = captureLogs<{ level: string; msg: string }>();

beforeAll(async () => {
  chain = await startTestChain();
  [first, second] = await Promise.all([startProviderProxy(chain.anvil.rpcUrl), startProviderProxy(chain.anvil.rpcUrl)]);
  ({ client, endpoints } = createChainAccess(
    [
      { url: first.url, label: 'provider-a' },
      { url: second.url, label: 'provider-b' },
    ],
    chain.anvil.chainId,
    { callTimeoutMs: 2000, probeMs: PROBE_MS, logger: createLogger({ level: 'info', destination: logs.destination }) },
  ));
}, 60_000);

afterEach(async () => {
  await Promise.all([
    first.set({ state: 'up', failStatus: undefined, maxLogBlocks: undefined, maxLogResults: undefined }),
    second.set({ state: 'up', failStatus: undefined }),
  ]);
  await waitUntil('both endpoints up', () => endpoints.report().every((each) => each.state === 'up'), 5000);
  first.reset();
  second.reset();
});

afterAll(async () => {
  endpoints.close();
  await Promise.all([first.close(), second.close()]);
  await chain.stop();
});

const state = (label: string) => endpoints.report().find((each) => each.label === label)!;
/** Runs work as a request of Signet's does: inside a chain budget of `budgetMs`. */
const inRequest = <T>(budgetMs: number, work: () => Promise<T>) => requestContext.run({ request_id: 'test', chainBudgetEnd: Date.now() + budgetMs }, work);

test('calls go to the first endpoint; the second sees none while the first answers', async () => {
  const head = await client.getBlockNumber({ cacheTime: 0 });
  expect(head).toBeGreaterThan(0n);
  expect(first.counts().eth_blockNumber).toBe(1);
  expect(second.counts().eth_blockNumber).toBeUndefined();
});

test('the first endpoint dies: the call goes to the second at once, the first is probed and rejoins when it answers again', async () => {
  await first.set({ state: 'dead' });
  const started = performance.now();
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(0n);
  expect(performance.now() - started).toBeLessThan(1000);
  expect(second.counts().eth_blockNumber).toBe(1);
  expect(state('provider-a')).toMatchObject({ state: 'down', since: expect.any(String) });
  // While it is down, calls do not try it first.
  first.reset();
  await first.set({ state: 'up' });
  second.reset();
  await waitUntil('provider-a probed back in', () => state('provider-a').state === 'up', 5000);
  expect(first.counts().eth_blockNumber).toBeGreaterThanOrEqual(1);
  await client.getBlockNumber({ cacheTime: 0 });
  expect(second.counts().eth_blockNumber).toBeUndefined();
  const lines = logs.lines().map((line) => line.msg);
  expect(lines).toContainEqual(expect.stringMatching(/RPC endpoint provider-a failed \(error\); calls go to provider-b/));
  expect(lines).toContainEqual(expect.stringMatching(/RPC endpoint provider-a answers again/));
});

test.each([500, 502, 503])('an endpoint answering %i is passed over for the next', async (status) => {
  await first.set({ failStatus: status });
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(0n);
  expect(first.log().map((each) => each.answered)).toEqual(['failed']);
  expect(second.counts().eth_blockNumber).toBe(1);
  expect(state('provider-a').state).toBe('down');
});

test("a contract's revert is an answer: it goes back to the caller, and no other endpoint is asked", async () => {
  const call = client.readContract({
    address: chain.suite.identityFactory,
    abi: idFactoryAbi,
    functionName: 'getIdentity',
    args: ['0x0000000000000000000000000000000000000001'],
  });
  await expect(call).resolves.toBe('0x0000000000000000000000000000000000000000');
  // A selector the factory does not have: its fallback reverts.
  const reverting = client.call({ to: chain.suite.identityFactory, data: '0xdeadbeef' });
  await expect(reverting).rejects.toThrow(/revert/i);
  expect(second.counts().eth_call).toBeUndefined();
  expect(state('provider-a').state).toBe('up');
});

test('a 429 rests the endpoint until its Retry-After: background work asks the next and never that one before then', async () => {
  first.rateLimitNext(1, 2);
  const limitedAt = Date.now();
  expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(0n);
  expect(state('provider-a')).toMatchObject({ state: 'rate_limited', retry_at: expect.any(String) });
  expect(Date.parse(state('provider-a').retry_at!) - limitedAt).toBeGreaterThanOrEqual(1900);
  // Background calls (outside any request) while it rests: all to provider-b.
  for (let i = 0; i < 5; i++) await client.getBlockNumber({ cacheTime: 0 });
  expect(first.log().filter((each) => each.answered !== 'rate_limited')).toEqual([]);
  // With the other endpoint down too, background work waits rather than ask it early.
  await second.set({ state: 'dead' });
  await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
  expect(first.log().filter((each) => each.answered !== 'rate_limited')).toEqual([]);
  expect(endpoints.restingUntil()).toBeUndefined(); // provider-b is down, not resting: probes go on
  await second.set({ state: 'up' });
  await waitUntil('provider-a rests no more', () => state('provider-a').state === 'up', 4000);
  expect(Date.now() - limitedAt).toBeGreaterThanOrEqual(1900);
});

test('every endpoint resting after a 429: background work is told when the first may be asked again', async () => {
  first.rateLimitNext(1, 3);
  second.rateLimitNext(1, 2);
  await expect(client.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
  const until = endpoints.restingUntil();
  expect(until).toBeDefined();
  expect(until! - Date.now()).toBeGreaterThan(1000);
  // A request (a person waiting) may still try a resting endpoint as a last resort.
  expect(await inRequest(1500, () => client.getBlockNumber({ cacheTime: 0 }))).toBeGreaterThan(0n);
});

test('a silent first endpoint costs a request only its share of the chain budget: then the second is asked beside it and answers', async () => {
  await first.set({ state: 'silent' });
  const started = performance.now();
  expect(await inRequest(1500, () => client.getBlockNumber({ cacheTime: 0 }))).toBeGreaterThan(0n);
  const took = performance.now() - started;
  expect(took).toBeGreaterThanOrEqual(700);
  expect(took).toBeLessThan(1500);
  // Its own call ends with the budget, and then it is down.
  await waitUntil('provider-a down', () => state('provider-a').state === 'down', 3000);
  // The next request does not wait for it at all.
  const next = performance.now();
  await inRequest(1500, () => client.getBlockNumber({ cacheTime: 0 }));
  expect(performance.now() - next).toBeLessThan(500);
});

test('an error names the endpoints by label: no URL, no API key', async () => {
  await Promise.all([first.set({ state: 'dead' }), second.set({ state: 'dead' })]);
  const error = await client.getBlockNumber({ cacheTime: 0 }).catch((caught: unknown) => caught as Error);
  expect(error).toBeInstanceOf(Error);
  const text = `${(error as Error).message}\n${JSON.stringify(error)}\n${String((error as Error).cause)}`;
  expect(text).not.toContain(FAKE_API_KEY);
  expect(text).not.toContain(String(first.port));
  expect(text).toContain('provider-b');
  expect(logs.written.join('')).not.toContain(FAKE_API_KEY);
});

test("an error page that quotes the API key it was given: the key is taken out of the error's text", async () => {
  const { createServer } = await import('node:http');
  const quoting = createServer((request, response) => {
    response.writeHead(401, { 'content-type': 'text/plain' });
    response.end(`invalid API key in ${request.url}`);
  });
  await new Promise<void>((resolve) => quoting.listen(0, '127.0.0.1', resolve));
  const { port } = quoting.address() as { port: number };
  const lone = createChainAccess([{ url: `http://127.0.0.1:${port}/v2/${FAKE_API_KEY}`, label: 'quoting' }], chain.anvil.chainId, {
    callTimeoutMs: 2000,
    probeMs: PROBE_MS,
  });
  try {
    const error = (await lone.client.getBlockNumber({ cacheTime: 0 }).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('invalid API key in /v2/[redacted]');
    expect(`${error.message}${JSON.stringify(error)}`).not.toContain(FAKE_API_KEY);
  } finally {
    lone.endpoints.close();
    await new Promise<void>((resolve) => quoting.close(() => resolve()));
  }
});

test('a slow endpoint is not given up on: with the others dead, it answers within the budget', async () => {
  const third = await startProviderProxy(chain.anvil.rpcUrl, { latencyMs: 600 });
  const slowFirst = createChainAccess(
    [
      { url: third.url, label: 'slow' },
      { url: first.url, label: 'dead-1' },
      { url: second.url, label: 'dead-2' },
    ],
    chain.anvil.chainId,
    { callTimeoutMs: 5000, probeMs: PROBE_MS },
  );
  try {
    await Promise.all([first.set({ state: 'dead' }), second.set({ state: 'dead' })]);
    for (let i = 0; i < 3; i++) expect(await inRequest(1500, () => slowFirst.client.getBlockNumber({ cacheTime: 0 }))).toBeGreaterThan(0n);
    expect(slowFirst.endpoints.report().find((each) => each.label === 'slow')!.state).toBe('up');
  } finally {
    slowFirst.endpoints.close();
    await third.close();
  }
});

test('a 401 holding a JSON-RPC error (a key refused) fails the endpoint: the next answers', async () => {
  const { createServer } = await import('node:http');
  const refusing = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'rejected due to project ID settings' } }));
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  const { port } = refusing.address() as { port: number };
  const keyed = createChainAccess(
    [
      { url: `http://127.0.0.1:${port}/v3/${FAKE_API_KEY}`, label: 'revoked-key' },
      { url: second.url, label: 'provider-b' },
    ],
    chain.anvil.chainId,
    { callTimeoutMs: 2000, probeMs: 60_000 },
  );
  try {
    expect(await keyed.client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThan(0n);
    expect(keyed.endpoints.report().find((each) => each.label === 'revoked-key')!.state).toBe('down');
  } finally {
    keyed.endpoints.close();
    await new Promise<void>((resolve) => refusing.close(() => resolve()));
  }
});

describe('eth_getLogs through a provider that caps its block range', () => {
  let identity: Address;
  let from: bigint;
  let to: bigint;

  beforeAll(async () => {
    const owner = chain.accounts[0]!;
    identity = await chain.createIdentityFor(owner.address, 'logs-range');
    from = (await chain.client.getBlockNumber({ cacheTime: 0 })) + 1n;
    // Six KeyAdded events spread over about 60 blocks.
    for (let i = 0; i < 6; i++) {
      await addKey(chain.as(owner), identity, chain.accounts[3 + i]!.address, KeyPurpose.ACTION);
      await chain.client.request({ method: 'anvil_mine' as never, params: ['0xa'] as never });
    }
    to = await chain.client.getBlockNumber({ cacheTime: 0 });
  });

  const keyAdded = (on: PublicClient) => on.getLogs({ address: identity, event: KEY_ADDED, fromBlock: from, toBlock: to });

  test.each(['alchemy', 'geth', 'quicknode', 'infura'] as const)(
    'refused as %s refuses: split, asked again, the same logs; the range it took is remembered',
    async (style) => {
      const fresh = createChainAccess([{ url: first.url, label: `capped-${style}` }], chain.anvil.chainId, { callTimeoutMs: 2000, probeMs: PROBE_MS });
      try {
        await first.set({ maxLogBlocks: 10, limitStyle: style });
        const expected = await keyAdded(chain.client);
        expect(expected).toHaveLength(6);
        const got = await keyAdded(fresh.client);
        expect(got.map((log) => log.transactionHash)).toEqual(expected.map((log) => log.transactionHash));
        const learned = fresh.endpoints.logBlockRange();
        expect(learned).toBeLessThanOrEqual(10);
        expect(fresh.endpoints.report()[0]).toMatchObject({ state: 'up', log_block_range: learned });
        // Asked again: no refusal, every call within what it learned.
        first.reset();
        await keyAdded(fresh.client);
        const calls = first.log().filter((each) => each.method === 'eth_getLogs');
        expect(calls.every((each) => each.answered === 'forwarded')).toBe(true);
        expect(calls).toHaveLength(Math.ceil(Number(to - from + 1n) / learned!));
      } finally {
        fresh.endpoints.close();
      }
    },
  );

  test('refused for its result size: split until each part fits, and nothing remembered as a range', async () => {
    const fresh = createChainAccess([{ url: first.url, label: 'capped-results' }], chain.anvil.chainId, { callTimeoutMs: 2000, probeMs: PROBE_MS });
    try {
      await first.set({ maxLogResults: 2, limitStyle: 'infura' });
      const got = await keyAdded(fresh.client);
      expect(got).toHaveLength(6);
      expect(first.log().some((each) => each.answered === 'limited')).toBe(true);
      expect(fresh.endpoints.logBlockRange()).toBeUndefined();
    } finally {
      fresh.endpoints.close();
    }
  });
});
