// Chain calls are counted and timed by method and outcome, through the real chain client
// (viem) against a JSON-RPC endpoint the test controls: one that answers, one that refuses
// connections, one that never answers.
import { createServer, type Server } from 'node:http';
import { createChainClient } from '../../../../src/infra/chain/chain_client.js';
import { observeChainCalls } from '../../../../src/infra/observability/chain_calls.js';
import { createMetrics } from '../../../../src/infra/observability/metrics.js';
import { freePort } from '../../../support/free_port.js';

let answering: Server;
let silent: Server;
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as { port: number }).port}`;

beforeAll(async () => {
  answering = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, result: '0x7a69' })),
    );
  });
  silent = createServer(() => {});
  await Promise.all([answering, silent].map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
});

afterAll(() => {
  for (const server of [answering, silent]) {
    server.closeAllConnections();
    server.close();
  }
});

test('ok, error and timeout calls are counted with their method, and timed', async () => {
  const metrics = createMetrics({ processMetrics: false });
  const observe = observeChainCalls(metrics);
  const refusedUrl = `http://127.0.0.1:${await freePort()}`;
  expect(await createChainClient(urlOf(answering), 31337, { observe }).getChainId()).toBe(31337);
  await expect(createChainClient(refusedUrl, 31337, { observe }).getChainId()).rejects.toThrow();
  await expect(createChainClient(urlOf(silent), 31337, { observe, callTimeoutMs: 200 }).getChainId()).rejects.toThrow();
  const counts = Object.fromEntries((await metrics.chainCalls.get()).values.map((v) => [`${v.labels.method} ${v.labels.outcome}`, v.value]));
  expect(counts).toEqual({ 'eth_chainId ok': 1, 'eth_chainId error': 1, 'eth_chainId timeout': 1 });
  const durations = (await metrics.chainCallDuration.get()).values.find((v) => v.metricName === 'signet_chain_call_duration_seconds_count');
  expect(durations).toEqual(expect.objectContaining({ labels: { method: 'eth_chainId' }, value: 3 }));
});
