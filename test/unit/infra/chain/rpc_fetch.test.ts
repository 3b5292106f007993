// The HTTP client under the chain transport, against a real local HTTP server: what viem reads
// from an answer, warm connections reused, an abort or a deadline that ends a silent call, and an
// oversized answer refused.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rpcFetch } from '../../../../src/infra/chain/rpc_fetch.js';
import { ABORTED_CALL_END_MS } from '../../../support/bounds.js';

let server: Server;
let url: string;
let connections = 0;
let answer: (request: IncomingMessage, body: string, response: ServerResponse) => void;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => answer(request, body, response));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const call = (init: RequestInit = {}) =>
  rpcFetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}', ...init });

test('sends method, headers and body; gives status, ok, headers and text as fetch does', async () => {
  answer = (request, body, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'x-seen': `${request.method} ${request.headers['content-type']} ${body}` });
    response.end('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}');
  };
  const response = await call();
  expect({ ok: response.ok, status: response.status, type: response.headers.get('Content-Type'), absent: response.headers.get('x-none') }).toEqual({
    ok: true,
    status: 200,
    type: 'application/json',
    absent: null,
  });
  expect(response.headers.get('X-Seen')).toBe('POST application/json {"jsonrpc":"2.0","id":1,"method":"eth_chainId"}');
  expect(await response.text()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7a69"}');
});

test('an error status is an answer, not a failure (viem reads the JSON-RPC error from it)', async () => {
  answer = (_request, _body, response) => {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end('bad gateway');
  };
  const response = await call();
  expect({ ok: response.ok, status: response.status, text: await response.text() }).toEqual({ ok: false, status: 502, text: 'bad gateway' });
});

test('calls one after another reuse one warm connection', async () => {
  answer = (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
  };
  await (await call()).text();
  const before = connections;
  for (let i = 0; i < 5; i++) await (await call()).text();
  expect(connections - before).toBe(0);
});

test('a pooled connection the other side closed as it was reused: the call goes again on a new one, once', async () => {
  const requestsOnSocket = new WeakMap<object, number>();
  answer = (request, _body, response) => {
    const count = (requestsOnSocket.get(request.socket) ?? 0) + 1;
    requestsOnSocket.set(request.socket, count);
    // The second request on a kept-alive connection finds it closed, as an idle timeout would.
    if (count === 2) return request.socket.destroy();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"jsonrpc":"2.0","id":1,"result":"0x2"}');
  };
  await (await call()).text();
  const before = connections;
  const response = await call();
  expect({ status: response.status, text: await response.text(), newConnections: connections - before }).toEqual({
    status: 200,
    text: '{"jsonrpc":"2.0","id":1,"result":"0x2"}',
    newConnections: 1,
  });
});

test('a retry that fails too is the answer: no third try', async () => {
  answer = (request) => request.socket.destroy();
  const before = connections;
  await expect(rpcFetch(url, { method: 'POST', body: '{}', headers: { connection: 'close' } })).rejects.toThrow();
  expect(connections - before).toBe(1);
});

test('an abort ends a call the server never answers, at once', async () => {
  answer = () => {};
  const controller = new AbortController();
  const pending = call({ signal: controller.signal });
  const started = performance.now();
  controller.abort(new DOMException('the chain budget of this request is spent', 'TimeoutError'));
  await expect(pending).rejects.toThrow();
  // The server never answers, so any end is the abort's.
  expect(performance.now() - started).toBeLessThan(ABORTED_CALL_END_MS);
});

test('a deadline ends a call the server never answers when it comes, as a timeout; a spent one sends nothing', async () => {
  let received = 0;
  answer = () => {
    received++;
  };
  const started = performance.now();
  const pending = rpcFetch(url, { method: 'POST', body: '{}' }, Date.now() + 100);
  await expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
  const took = performance.now() - started;
  expect(took).toBeGreaterThanOrEqual(95);
  expect(took).toBeLessThan(100 + ABORTED_CALL_END_MS);
  expect(received).toBe(1);
  await expect(rpcFetch(url, { method: 'POST', body: '{}' }, Date.now() - 1)).rejects.toMatchObject({ name: 'TimeoutError' });
  expect(received).toBe(1);
});

test('a call that cannot be built fails at once and leaves no deadline timer behind', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const before = timers();
  await expect(rpcFetch(url, { method: 'POST', body: '{}', headers: { 'x-bad': 'a\nb' } }, Date.now() + 60_000)).rejects.toThrow();
  expect(timers()).toBe(before);
});

test('an answer within the deadline is the answer', async () => {
  answer = (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"jsonrpc":"2.0","id":1,"result":"0x3"}');
  };
  expect(await (await rpcFetch(url, { method: 'POST', body: '{}' }, Date.now() + 5000)).text()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x3"}');
});

test('an answer over 10 MB is refused', async () => {
  answer = (_request, _body, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
  };
  await expect(call()).rejects.toThrow('over 10485760 bytes');
});
