// The provider proxy in front of a real anvil, read through viem as Signet reads a chain:
// it forwards, adds latency, refuses eth_getLogs over its caps with a real provider's error
// (which src/infra/chain/provider_limits.ts recognises), rate limits with Retry-After, fails, dies
// and comes back on the same port, goes silent, hides Multicall3, and answers batches.
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type Address, createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { MULTICALL3_ADDRESS } from '../../src/infra/chain/multicall3.js';
import { logsRefusalOf, rateLimitOf } from '../../src/infra/chain/provider_limits.js';
import { type Anvil, startAnvil } from '../../src/infra/local_chain/anvil.js';
import { FAKE_API_KEY, type ProviderProxy, startProviderProxy } from '../support/provider_proxy.js';
import { waitFor } from '../support/wait_until.js';

/** anvil's first funded account, unlocked: it sends the transactions below. */
const SENDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** Deploys a contract whose every call emits one log (PUSH1 0 PUSH1 0 LOG0 STOP). */
const LOGGER_INITCODE = '0x6560006000a0006000526006601af3';
const LOGGED_CALLS = 5;

let anvil: Anvil;
let proxy: ProviderProxy;
let client: PublicClient;
let logger: Address;
/** The blocks holding the logger's logs, in order. */
const logBlocks: bigint[] = [];

/** A call straight to anvil, past the proxy. */
async function anvilCall<T>(method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: unknown };
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result as T;
}

async function send(transaction: { to?: Address; data?: Hex }): Promise<{ blockNumber: Hex; contractAddress: Address | null }> {
  const hash = await anvilCall<Hex>('eth_sendTransaction', [{ from: SENDER, ...transaction }]);
  // anvil mines each transaction on its own; the receipt follows a moment later.
  return waitFor('the transaction is mined', () =>
    anvilCall<{ blockNumber: Hex; contractAddress: Address | null } | null>('eth_getTransactionReceipt', [hash]).then((receipt) => receipt ?? undefined),
  );
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

type Layer = { code?: unknown; status?: unknown; cause?: unknown };
/** The first of the error and its causes that `has`. */
function findCause(error: unknown, has: (layer: Layer) => boolean): Layer | undefined {
  for (let layer = error as Layer | undefined; layer; layer = layer.cause as Layer | undefined) if (has(layer)) return layer;
  return undefined;
}
/** node's error code under viem's errors (ECONNREFUSED). */
const causeCode = (error: unknown) => findCause(error, (layer) => typeof layer.code === 'string')?.code;
/** The HTTP status of the answer viem failed on. */
const statusOf = (error: unknown) => findCause(error, (layer) => typeof layer.status === 'number')?.status;

beforeAll(async () => {
  anvil = await startAnvil();
  logger = (await send({ data: LOGGER_INITCODE })).contractAddress!;
  for (let call = 0; call < LOGGED_CALLS; call++) logBlocks.push(BigInt((await send({ to: logger })).blockNumber));
  // Empty blocks after them, so that ranges can be wide.
  await anvilCall('anvil_mine', ['0x20']);
  proxy = await startProviderProxy(anvil.rpcUrl);
  client = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
});

afterAll(async () => {
  await proxy?.close();
  await anvil?.stop();
});

beforeEach(async () => {
  await proxy.set({
    latencyMs: 0,
    maxLogBlocks: undefined,
    maxLogResults: undefined,
    limitStyle: 'alchemy',
    failStatus: undefined,
    state: 'up',
    hideMulticall3: false,
  });
  proxy.rateLimitNext(0, 0);
  proxy.reset();
});

test('forwards requests, with a fake API key in the path as providers have', async () => {
  expect(proxy.url).toBe(`http://127.0.0.1:${proxy.port}/v2/${FAKE_API_KEY}`);
  expect(await client.request({ method: 'eth_blockNumber' })).toBe(await anvilCall('eth_blockNumber'));
  const logs = await client.getLogs({ address: logger, fromBlock: 0n });
  expect(logs.map((log) => log.blockNumber)).toEqual(logBlocks);
  expect(proxy.log().map(({ method, answered }) => ({ method, answered }))).toEqual([
    { method: 'eth_blockNumber', answered: 'forwarded' },
    { method: 'eth_getLogs', answered: 'forwarded' },
  ]);
});

test('adds latency to each answer', async () => {
  await proxy.set({ latencyMs: 150 });
  const started = performance.now();
  await client.request({ method: 'eth_chainId' });
  expect(performance.now() - started).toBeGreaterThanOrEqual(150);
});

test("refuses eth_getLogs over its block range cap with the chosen provider's error, which is recognised", async () => {
  await proxy.set({ maxLogBlocks: 10, limitStyle: 'alchemy' });
  const refused = await failureOf(client.getLogs({ address: logger, fromBlock: 0n, toBlock: 30n }));
  expect(logsRefusalOf(refused)).toEqual({ kind: 'range', suggested: { from: 0n, to: 9n }, maxBlocks: 10 });
  expect((refused as { details?: string }).details).toBe(
    'You can make eth_getLogs requests with up to a 10 block range. Based on your parameters, this block range should work: [0x0, 0x9]',
  );
  // Block tags are resolved against the head: 'latest' is far more than 10 blocks from 0.
  expect(logsRefusalOf(await failureOf(client.getLogs({ address: logger, fromBlock: 'earliest', toBlock: 'latest' })))?.kind).toBe('range');
  // Within the cap, it forwards.
  expect(await client.getLogs({ address: logger, fromBlock: logBlocks[0]!, toBlock: logBlocks[0]! + 9n })).toHaveLength(LOGGED_CALLS);
  await proxy.set({ limitStyle: 'bnb' });
  expect(logsRefusalOf(await failureOf(client.getLogs({ fromBlock: 0n, toBlock: 30n })))).toEqual({ kind: 'range', maxBlocks: 10 });
  expect(proxy.log().map((entry) => entry.answered)).toEqual(['limited', 'limited', 'forwarded', 'limited']);
});

test('refuses eth_getLogs whose answer holds more logs than its cap, suggesting a range that holds fewer', async () => {
  await proxy.set({ maxLogResults: 3, limitStyle: 'infura' });
  const refused = await failureOf(client.getLogs({ address: logger, fromBlock: 0n }));
  expect(logsRefusalOf(refused)).toEqual({ kind: 'results', suggested: { from: 0n, to: logBlocks[3]! - 1n } });
  expect(await client.getLogs({ address: logger, fromBlock: 0n, toBlock: logBlocks[3]! - 1n })).toHaveLength(3);
});

test('rate limits the next requests with 429 and Retry-After, then answers again', async () => {
  await proxy.set({ limitStyle: 'infura' });
  proxy.rateLimitNext(2, 7);
  for (let attempt = 0; attempt < 2; attempt++) {
    const limited = await failureOf(client.request({ method: 'eth_chainId' }));
    expect(statusOf(limited)).toBe(429);
    expect(rateLimitOf(limited)).toEqual({ retryAfterMs: 7000 });
    expect(logsRefusalOf(limited)).toBeUndefined();
  }
  expect(await client.request({ method: 'eth_chainId' })).toBe(`0x${anvil.chainId.toString(16)}`);
  expect(proxy.log().map((entry) => entry.answered)).toEqual(['rate_limited', 'rate_limited', 'forwarded']);
});

test('answers every request with a failure status while told to', async () => {
  await proxy.set({ failStatus: 503 });
  const failed = await failureOf(client.request({ method: 'eth_chainId' }));
  expect(statusOf(failed)).toBe(503);
  expect(rateLimitOf(failed)).toBeUndefined();
  expect(logsRefusalOf(failed)).toBeUndefined();
  await proxy.set({ failStatus: undefined });
  expect(await client.request({ method: 'eth_chainId' })).toBeDefined();
  expect(proxy.log().map((entry) => entry.answered)).toEqual(['failed', 'forwarded']);
});

test('dead refuses connections; up serves again on the same port', async () => {
  await client.request({ method: 'eth_chainId' }); // a warm connection, cut by dying
  await proxy.set({ state: 'dead' });
  expect(causeCode(await failureOf(client.request({ method: 'eth_chainId' })))).toBe('ECONNREFUSED');
  const refused = await new Promise<unknown>((resolve) =>
    connect(proxy.port, '127.0.0.1')
      .once('error', resolve)
      .once('connect', () => resolve('connected')),
  );
  expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
  await proxy.set({ state: 'up' });
  expect(await client.request({ method: 'eth_chainId' })).toBeDefined();
  expect(proxy.counts()).toEqual({ eth_chainId: 2 });
});

test('silent accepts requests and never answers them', async () => {
  await proxy.set({ state: 'silent' });
  const impatient = createPublicClient({ transport: http(proxy.url, { retryCount: 0, timeout: 300 }) });
  const timedOut = await failureOf(impatient.request({ method: 'eth_chainId' }));
  expect((timedOut as { name?: string }).name).toBe('TimeoutError');
  expect(proxy.log().map(({ method, answered }) => ({ method, answered }))).toEqual([{ method: 'eth_chainId', answered: 'silent' }]);
  await proxy.set({ state: 'up' });
  expect(await impatient.request({ method: 'eth_chainId' })).toBeDefined();
});

test('hides Multicall3 when told to, as a chain without it', async () => {
  expect(await client.getCode({ address: MULTICALL3_ADDRESS })).toMatch(/^0x[0-9a-f]{10,}/);
  await proxy.set({ hideMulticall3: true });
  expect(await client.getCode({ address: MULTICALL3_ADDRESS })).toBeUndefined();
  expect(await client.request({ method: 'eth_call', params: [{ to: MULTICALL3_ADDRESS, data: '0x82ad56cb' }, 'latest'] })).toBe('0x');
  expect(await client.getCode({ address: logger })).toBeDefined();
  expect(proxy.log().map((entry) => entry.answered)).toEqual(['forwarded', 'multicall_hidden', 'multicall_hidden', 'forwarded']);
});

test('answers batches member by member, keeping ids and applying the caps to each', async () => {
  await proxy.set({ maxLogBlocks: 10, limitStyle: 'quicknode' });
  const response = await fetch(proxy.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      { jsonrpc: '2.0', id: 7, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 'wide', method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x20' }] },
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'eth_getLogs',
        params: [{ address: logger, fromBlock: `0x${logBlocks[0]!.toString(16)}`, toBlock: `0x${logBlocks[1]!.toString(16)}` }],
      },
    ]),
  });
  expect(response.status).toBe(200);
  const answers = (await response.json()) as { id: unknown; result?: unknown; error?: { code: number; message: string } }[];
  expect(answers.map((answer) => answer.id)).toEqual([7, 'wide', 9]);
  expect(answers[0]?.result).toBe(`0x${anvil.chainId.toString(16)}`);
  expect(answers[1]?.error).toEqual({ code: -32614, message: 'eth_getLogs is limited to a 10 range' });
  expect(answers[2]?.result).toHaveLength(2);

  // And through viem's own batching.
  const batching = createPublicClient({ transport: http(proxy.url, { retryCount: 0, batch: true }) });
  const [chainId, wide] = await Promise.allSettled([
    batching.request({ method: 'eth_chainId' }),
    batching.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x20' }] }),
  ]);
  expect(chainId).toMatchObject({ status: 'fulfilled' });
  expect(wide.status === 'rejected' && logsRefusalOf(wide.reason)).toEqual({ kind: 'range', maxBlocks: 10 });
  expect(proxy.counts()).toEqual({ eth_chainId: 2, eth_getLogs: 3 });
});

test('counts requests per method, each member of a batch, until reset', async () => {
  await client.request({ method: 'eth_chainId' });
  await client.request({ method: 'eth_chainId' });
  await client.request({ method: 'eth_blockNumber' });
  expect(proxy.counts()).toEqual({ eth_chainId: 2, eth_blockNumber: 1 });
  expect(proxy.log().every((entry) => entry.at <= Date.now())).toBe(true);
  proxy.reset();
  expect(proxy.counts()).toEqual({});
  expect(proxy.log()).toEqual([]);
});
