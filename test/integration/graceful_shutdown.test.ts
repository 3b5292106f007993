// close() — what SIGTERM runs — stops accepting at once, lets a request in flight finish
// (bounded by ops.shutdownGraceMs, after which its connection is cut), then stops the webhook
// worker and closes Redis. The request in flight is a /readyz held up by a chain RPC that the
// test holds (a forwarder to a real anvil that answers only once the test lets it): what is in
// flight, and when it ends, is decided by the test, not by how fast the machine is.
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type RunningSignet, startServer } from '../../src/app/server.js';
import { loadConfig } from '../../src/config/config.js';
import { silentLogger } from '../../src/infra/observability/logger.js';
import { freePort } from '../support/free_port.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { testJwks } from '../support/signet_harness.js';
import { startTestChain, type TestChain } from '../support/test_chain.js';

let redis: RedisServer;
let chain: TestChain;
let rpc: Server;
let rpcUrl: string;
/** The forwarder's gate: while it is closed, RPC requests wait; `held` tells of each one that does. */
let gate: { open: boolean; release(): void; waiting: (() => void)[]; held: () => void } = newGate();

function newGate() {
  const g = {
    open: true,
    waiting: [] as (() => void)[],
    held: () => {},
    release() {
      g.open = true;
      for (const go of g.waiting.splice(0)) go();
    },
  };
  return g;
}

/** Closes the gate; resolves once an RPC request is held at it. */
function holdNextRpc(): Promise<void> {
  gate = newGate();
  gate.open = false;
  return new Promise((resolve) => {
    gate.held = resolve;
  });
}

beforeAll(async () => {
  [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
  // Forwards JSON-RPC to anvil, once the gate is open.
  rpc = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = () =>
        fetch(chain.anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
          .then(async (answer) => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()))
          .catch(() => res.destroy());
      if (gate.open) return void forward();
      gate.waiting.push(forward);
      gate.held();
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

/** One request on its own connection: its status, or the error that cut it, and when (performance.now()). */
function get(port: number, path: string): Promise<{ status?: number; error?: string; at: number }> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, at: performance.now() }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: performance.now() }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, at: performance.now() }));
    req.end();
  });
}

/** Whether a promise has settled, looked at after the callbacks already due have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** Resolves once the server has a request in its handler (the request is in flight). */
const requestArrives = (running: RunningSignet) => new Promise<void>((resolve) => running.server.once('request', () => resolve()));

test('a request in flight finishes; new connections are refused; then Redis is closed', async () => {
  const running = await start(5000);
  const { port } = running.server.address() as { port: number };
  const order: string[] = [];
  const rpcHeld = holdNextRpc();
  const arrived = requestArrives(running);
  const inFlight = get(port, '/readyz').then((answer) => {
    order.push('answered');
    return answer;
  });
  await Promise.all([arrived, rpcHeld]); // in the handler, and the chain is held
  const closing = running.close().then(() => void order.push('closed'));
  expect((await get(port, '/healthz')).error).toBe('ECONNREFUSED');
  // Closing waits for the request in flight. (The chain stays held for a few steps only: /readyz
  // gives up on the chain after its own 1 s deadline.)
  expect(await settled(closing)).toBe(false);
  gate.release();

  expect((await inFlight).status).toBe(200);
  await closing;
  expect(order).toEqual(['answered', 'closed']);
  await expect(running.store.ping()).rejects.toThrow();
});

test('a request that outlasts the grace is cut when the grace ends', async () => {
  const GRACE_MS = 100;
  const running = await start(GRACE_MS);
  const { port } = running.server.address() as { port: number };
  const rpcHeld = holdNextRpc();
  const arrived = requestArrives(running);
  const inFlight = get(port, '/readyz');
  await Promise.all([arrived, rpcHeld]); // held until the test releases it: only the grace (or /readyz's own deadline, longer) ends it
  const closingFrom = performance.now();
  await running.close();
  const cut = await inFlight;
  expect(cut.error).toBe('ECONNRESET');
  // Not before the grace (a lower bound only: a slow machine makes it later, never earlier;
  // 1 ms for the timer's rounding). The chain never answered: the grace cut it, nothing else.
  expect(cut.at - closingFrom).toBeGreaterThanOrEqual(GRACE_MS - 1);
  expect(gate.waiting.length).toBeGreaterThanOrEqual(1);
  gate.release();
});
