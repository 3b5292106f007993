// close() — what SIGTERM runs — stops accepting at once, lets a request in flight finish
// (bounded by ops.shutdownGraceMs, after which its connection is cut), then stops the webhook
// worker and closes Redis. The request in flight is a /readyz held up by a chain RPC that
// answers late (a forwarder to a real anvil that the test slows down).
import { createServer, request as httpRequest, type Server } from 'node:http';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/app.js';
import { type RunningSignet, startServer } from '../../src/server.js';
import { freePort } from '../support/free_port.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { startTestChain, type TestChain } from '../support/test_chain.js';
import { testJwks } from '../support/signet_harness.js';

let redis: RedisServer;
let chain: TestChain;
let rpc: Server;
let rpcUrl: string;
let rpcDelayMs = 0;

beforeAll(async () => {
  [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
  // Forwards JSON-RPC to anvil after rpcDelayMs.
  rpc = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        fetch(chain.anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
          .then(async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
          .catch(() => res.destroy());
      }, rpcDelayMs);
    });
  });
  await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(rpc.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  rpc.closeAllConnections();
  rpc.close();
  await Promise.all([redis.stop(), chain.stop()]);
});

async function start(shutdownGraceMs: number): Promise<RunningSignet> {
  const port = await freePort();
  const config = loadConfig(
    { NODE_ENV: 'test', PORT: String(port), SHUTDOWN_GRACE_MS: String(shutdownGraceMs) },
    {
      redisUrl: redis.url,
      chain: { rpcUrl, chainId: chain.anvil.chainId, identityFactory: chain.suite.identityFactory },
      jwks: testJwks(),
      demo: { enabled: false },
      clients: [],
    },
  );
  return startServer(config, silentLogger);
}

/** One request on its own connection: its status, or the error that cut it, and when. */
function get(port: number, path: string): Promise<{ status?: number; error?: string; at: number }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, at: Date.now() }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: Date.now() }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: Date.now() }));
    req.end();
  });
}

test('a request in flight finishes; new connections are refused; then Redis is closed', async () => {
  const running = await start(5000);
  const { port } = running.server.address() as { port: number };
  rpcDelayMs = 600;
  const began = Date.now();
  const inFlight = get(port, '/readyz');
  await new Promise((resolve) => setTimeout(resolve, 150)); // the request reaches the chain forwarder
  const closing = running.close().then(() => Date.now());
  await new Promise((resolve) => setImmediate(resolve));
  expect((await get(port, '/healthz')).error).toBe('ECONNREFUSED');

  const answered = await inFlight;
  expect(answered.status).toBe(200);
  expect(answered.at - began).toBeGreaterThanOrEqual(550);
  const closedAt = await closing;
  expect(closedAt).toBeGreaterThanOrEqual(answered.at);
  expect(closedAt - began).toBeLessThan(2000);
  await expect(running.store.ping()).rejects.toThrow();
  rpcDelayMs = 0;
});

test('a request that outlasts the grace is cut when the grace ends', async () => {
  const running = await start(300);
  const { port } = running.server.address() as { port: number };
  rpcDelayMs = 900;
  const inFlight = get(port, '/readyz');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const closingFrom = Date.now();
  await running.close();
  const cut = await inFlight;
  expect(cut.error).toBe('ECONNRESET');
  // Cut at the grace (300 ms), well before the chain would have answered (about 800 ms later).
  expect(cut.at - closingFrom).toBeGreaterThanOrEqual(280);
  expect(cut.at - closingFrom).toBeLessThan(650);
  expect(Date.now() - closingFrom).toBeLessThan(2000);
  rpcDelayMs = 0;
});
