// Every provider answer on record (test/support/provider_errors.ts) is recognised for what it is
// (a block range too wide, too many logs, rate limiting), whether it comes as a plain JSON-RPC
// error, as viem's error classes, or as viem really throws it after a local server answered it;
// a contract's revert and a refused connection are not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, encodeErrorResult, HttpRequestError, http, parseAbi, RpcRequestError } from 'viem';
import { logsRefusalOf, rateLimitOf } from '../../../../src/infra/chain/provider_limits.js';
import { freePort } from '../../../support/free_port.js';
import { PROVIDER_ERRORS, type ProviderErrorRow, renderProviderError } from '../../../support/provider_errors.js';

type Answer = { status: number; body: string; headers?: Record<string, string> };

let server: Server;
let url: string;
let answer: Answer;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer.body), ...answer.headers });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/key`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => createPublicClient({ transport: http(url, { retryCount: 0 }) });

/** What viem throws when the server answers an eth_getLogs with `body` as its error, at `status`. */
async function thrownFor(body: unknown, status: number, headers?: Record<string, string>): Promise<unknown> {
  answer = { status, body: JSON.stringify({ jsonrpc: '2.0', id: 0, error: body }), headers };
  return client()
    .request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x2710' }] })
    .then(
      () => {
        throw new Error('expected the request to fail');
      },
      (error: unknown) => error,
    );
}

/** The error member exactly as found (a code left out by the source left out here too). */
const plainError = (row: ProviderErrorRow) => ({ ...row.extra, ...(row.code === undefined ? {} : { code: row.code }), message: row.message, data: row.data });
const firstRow = (provider: string, kind: string) => PROVIDER_ERRORS.find((row) => row.provider === provider && row.kind === kind)!;
const label = (row: ProviderErrorRow) => `${row.provider} ${row.kind}: ${row.message.slice(0, 60)}`;
const logRows = PROVIDER_ERRORS.filter((row) => row.kind !== 'rate_limit').map((row) => [label(row), row] as const);
const rateRows = PROVIDER_ERRORS.filter((row) => row.kind === 'rate_limit').map((row) => [label(row), row] as const);

describe('eth_getLogs refusals', () => {
  test.each(logRows)('%s, as a plain JSON-RPC error', (_label, row) => {
    expect(logsRefusalOf(plainError(row))?.kind).toBe(row.kind);
    expect(logsRefusalOf({ jsonrpc: '2.0', id: 1, error: plainError(row) })?.kind).toBe(row.kind);
    expect(rateLimitOf(plainError(row))).toBeUndefined();
  });

  test.each(logRows)('%s, as viem throws it from the answer', async (_label, row) => {
    const thrown = await thrownFor({ code: -32000, ...plainError(row) }, row.httpStatus ?? 200);
    expect(logsRefusalOf(thrown)?.kind).toBe(row.kind);
    expect(rateLimitOf(thrown)).toBeUndefined();
  });

  test.each(logRows)('%s, as viem error classes', (_label, row) => {
    const error = { code: row.code ?? -32000, message: row.message, data: row.data };
    expect(logsRefusalOf(new RpcRequestError({ body: {}, error, url, status: row.httpStatus }))?.kind).toBe(row.kind);
    const overHttp = new HttpRequestError({ url, status: row.httpStatus ?? 400, details: JSON.stringify(error) });
    expect(logsRefusalOf(overHttp)?.kind).toBe(row.kind);
  });

  test.each(logRows.filter(([, row]) => row.suggests))('%s: the suggested range is read', (_label, row) => {
    expect(logsRefusalOf(plainError(row))?.suggested).toEqual({ from: BigInt(row.suggests!.from), to: BigInt(row.suggests!.to) });
  });

  test('the cap a message names is read', () => {
    const maxBlocksOf = (provider: string, kind: string) => logsRefusalOf(plainError(firstRow(provider, kind)))?.maxBlocks;
    expect({
      alchemy: maxBlocksOf('alchemy', 'range'),
      alchemyResults: maxBlocksOf('alchemy', 'results'),
      infura: maxBlocksOf('infura', 'range'),
      quicknode: maxBlocksOf('quicknode', 'range'),
      ankr: maxBlocksOf('ankr', 'range'),
      cloudflare: maxBlocksOf('cloudflare', 'range'),
      tenderly: maxBlocksOf('tenderly', 'range'),
      geth: maxBlocksOf('geth', 'range'),
      erigon: maxBlocksOf('erigon', 'range'),
      reth: maxBlocksOf('reth', 'range'),
      polygonZkevm: maxBlocksOf('polygon-zkevm', 'range'),
      bnb: maxBlocksOf('bnb', 'range'),
      chainstack: maxBlocksOf('chainstack', 'range'),
    }).toEqual({
      alchemy: 500,
      alchemyResults: 2000,
      infura: 10_000,
      quicknode: 10_000,
      ankr: 10_000,
      cloudflare: 800,
      tenderly: 2000,
      geth: 5,
      erigon: 5,
      reth: 5000,
      polygonZkevm: 10_000,
      bnb: 5000,
      chainstack: undefined,
    });
    expect(logsRefusalOf({ code: -32602, message: 'Under the Free tier plan, you can make eth_getLogs requests with up to a 10 block range.' })).toEqual({
      kind: 'range',
      maxBlocks: 10,
    });
  });

  test.each(logRows.filter(([, row]) => row.template))('%s: an answer filled with other numbers still says them', (_label, row) => {
    const context = { from: 100n, to: 5000n, max: 1000, suggestTo: 1099n };
    const { body } = renderProviderError(row, context);
    const refusal = logsRefusalOf(body);
    expect(refusal?.kind).toBe(row.kind);
    if (row.suggests) expect(refusal?.suggested).toEqual({ from: 100n, to: 1099n });
    if (row.kind === 'range' && JSON.stringify(row.template).includes('{max')) expect(refusal?.maxBlocks).toBe(1000);
  });
});

describe('rate limiting', () => {
  test.each(rateRows)('%s, as a plain JSON-RPC error', (_label, row) => {
    expect(rateLimitOf(plainError(row))).toBeDefined();
    expect(logsRefusalOf(plainError(row))).toBeUndefined();
  });

  test.each(rateRows)('%s, as viem throws it from the answer', async (_label, row) => {
    const { httpStatus, body } = renderProviderError(row, { from: 0n, to: 0n, max: 0 });
    const thrown = await thrownFor(body, httpStatus);
    expect(rateLimitOf(thrown)).toBeDefined();
    expect(logsRefusalOf(thrown)).toBeUndefined();
  });

  test('a bare 429 with Retry-After in seconds, from a real answer', async () => {
    answer = { status: 429, body: 'slow down', headers: { 'content-type': 'text/plain', 'retry-after': '12' } };
    const thrown = await client()
      .request({ method: 'eth_blockNumber' })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(HttpRequestError);
    expect(rateLimitOf(thrown)).toEqual({ retryAfterMs: 12_000 });
  });

  test('Retry-After as an HTTP date', async () => {
    const now = Date.UTC(2030, 0, 2, 3, 4, 5);
    const error = new HttpRequestError({ url, status: 429, headers: new Headers({ 'Retry-After': new Date(now + 30_000).toUTCString() }) });
    expect(rateLimitOf(error, now)).toEqual({ retryAfterMs: 30_000 });
    const past = new HttpRequestError({ url, status: 429, headers: new Headers({ 'Retry-After': new Date(now - 5_000).toUTCString() }) });
    expect(rateLimitOf(past, now)).toEqual({ retryAfterMs: 0 });
    const real = await thrownFor({ code: 429, message: 'Too Many Requests' }, 429, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() });
    const waited = rateLimitOf(real)?.retryAfterMs;
    expect(waited).toBeGreaterThan(55_000);
    expect(waited).toBeLessThanOrEqual(60_000);
  });

  test("Infura's backoff_seconds when there is no Retry-After", () => {
    expect(rateLimitOf(plainError(PROVIDER_ERRORS.find((row) => row.message === 'project ID request rate exceeded')!))).toEqual({ retryAfterMs: 30_000 });
  });
});

describe('not a limit', () => {
  const revertData = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['query returned more than 10 results'] });
  const reverted = { code: 3, message: 'execution reverted: query returned more than 10 results', data: revertData };

  test('a revert, even one whose reason reads like a limit', async () => {
    expect(logsRefusalOf(reverted)).toBeUndefined();
    expect(rateLimitOf(reverted)).toBeUndefined();
    expect(logsRefusalOf({ code: -32000, message: 'execution reverted: rate limit exceeded' })).toBeUndefined();
    expect(rateLimitOf({ code: -32000, message: 'execution reverted: rate limit exceeded' })).toBeUndefined();
    answer = { status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 0, error: reverted }) };
    const thrown = await client()
      .readContract({
        address: '0x00000000000000000000000000000000000000c1',
        abi: parseAbi(['function probe() view returns (uint256)']),
        functionName: 'probe',
      })
      .catch((error: unknown) => error);
    expect(logsRefusalOf(thrown)).toBeUndefined();
    expect(rateLimitOf(thrown)).toBeUndefined();
  });

  test('a refused connection', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const thrown = await createPublicClient({ transport: http(closed, { retryCount: 0 }) })
      .request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: '0x2710' }] })
      .catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(HttpRequestError);
    expect(logsRefusalOf(thrown)).toBeUndefined();
    expect(rateLimitOf(thrown)).toBeUndefined();
  });

  test('an outage status, other errors, and things that are not errors', async () => {
    answer = { status: 503, body: 'service unavailable', headers: { 'content-type': 'text/plain' } };
    const unavailable = await client()
      .request({ method: 'eth_blockNumber' })
      .catch((error: unknown) => error);
    expect(logsRefusalOf(unavailable)).toBeUndefined();
    expect(rateLimitOf(unavailable)).toBeUndefined();
    for (const other of [{ code: -32601, message: 'the method eth_getLogs does not exist/is not available' }, new Error('boom'), 'text', undefined, null, 42]) {
      expect(logsRefusalOf(other)).toBeUndefined();
      expect(rateLimitOf(other)).toBeUndefined();
    }
  });
});
