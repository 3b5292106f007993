// Slow and many clients against the production server (src/app/server.ts, decision 73), on real
// Redis and anvil, with raw sockets: headers sent a byte at a time, a body never finished, a
// connection that says nothing, one left idle after its answer: each is closed within its
// timeout (short settings here), not before; and with the process's connections at the cap the
// next one is closed as it arrives, without an answer, and is served again once one goes.
import { connect, type Socket } from 'node:net';
import { type RunningSignet, startServer } from '../../src/app/server.js';
import { connectionSweepMs } from '../../src/app/http_server.js';
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { OVER_CAP_CLOSE_MS, SLOW_CLIENT_CUT_SLACK_MS } from '../support/bounds.js';
import { freePort } from '../support/free_port.js';
import { captureLogs } from '../support/log_capture.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { testJwks } from '../support/signet_harness.js';
import { startTestChain, type TestChain } from '../support/test_chain.js';
import { waitUntil } from '../support/wait_until.js';

const HEADERS_MS = 600;
const REQUEST_MS = 1200;
const KEEP_ALIVE_MS = 400;
const IDLE_MS = 1500;
const SWEEP_MS = connectionSweepMs({ headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS });

const logs = captureLogs<{ level: string; msg: string; status?: number }>();
let redis: RedisServer;
let chain: TestChain;
const running: RunningSignet[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
}, 60_000);

afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

afterAll(async () => {
  for (const one of running) await one.close();
  await Promise.all([redis.stop(), chain.stop()]);
});

async function start(env: Record<string, string>, metrics = createMetrics({ processMetrics: false })) {
  const port = await freePort();
  const config = loadConfig(
    { NODE_ENV: 'test', PORT: String(port), ...env },
    {
      redisUrl: redis.url,
      chain: { rpcUrl: chain.anvil.rpcUrl, chainId: chain.anvil.chainId, identityFactory: chain.suite.identityFactory },
      jwks: testJwks(),
      demo: { enabled: false },
      clients: [],
    },
  );
  const signet = await startServer(config, createLogger({ level: 'debug', destination: logs.destination }), { metrics });
  running.push(signet);
  return { port, metrics, signet };
}

/** A raw connection: what it received, and when it closed (performance.now()). */
function open(port: number) {
  const socket = connect({ host: '127.0.0.1', port });
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const connected = new Promise<number>((resolve) => socket.once('connect', () => resolve(performance.now())));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  return { socket, connected, closed, received: () => received };
}

/** Writes `text` a byte every `everyMs` until the socket closes. */
function dribble(socket: Socket, text: string, everyMs: number) {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return void clearInterval(timer);
    socket.write(text[i++]!);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

describe('timeouts', () => {
  let port: number;
  let server: RunningSignet['server'] & { keepAliveTimeoutBuffer?: number };

  beforeAll(async () => {
    let signet: RunningSignet;
    ({ port, signet } = await start({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
    }));
    server = signet.server;
  }, 30_000);

  test('headers sent a byte at a time, never finished: 408 and closed once the headers timeout passes', async () => {
    const client = open(port);
    const from = await client.connected;
    // Each byte keeps the connection from being idle: only the headers timeout ends it.
    dribble(client.socket, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'s'.repeat(500)}`, 20);
    const closedAt = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(closedAt - from).toBeGreaterThanOrEqual(HEADERS_MS - 1);
    expect(closedAt - from).toBeLessThan(HEADERS_MS + SWEEP_MS + SLOW_CLIENT_CUT_SLACK_MS);
  });

  test('a body never finished: 408 and closed once the request timeout passes', async () => {
    const client = open(port);
    const from = await client.connected;
    client.socket.write('POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n');
    dribble(client.socket, 'grant_type=client_credentials&'.repeat(300), 20);
    const closedAt = await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(closedAt - from).toBeGreaterThanOrEqual(REQUEST_MS - 1);
    expect(closedAt - from).toBeLessThan(REQUEST_MS + SWEEP_MS + SLOW_CLIENT_CUT_SLACK_MS);
    // The client's doing: one line at debug, no error and no stack.
    await waitUntil('the cut request logged', () => logs.lines().some((line) => line.msg.startsWith("a request's connection ended")));
    expect(logs.lines().find((line) => line.msg.startsWith("a request's connection ended"))).toMatchObject({
      level: 'debug',
      msg: "a request's connection ended before its answer (ERR_HTTP_REQUEST_TIMEOUT)",
    });
    expect(logs.lines().filter((line) => line.level === 'error')).toEqual([]);
  });

  test('a connection that sends nothing is closed once the headers timeout passes, unanswered', async () => {
    const client = open(port);
    const from = await client.connected;
    const closedAt = await client.closed;
    expect(closedAt - from).toBeGreaterThanOrEqual(HEADERS_MS - 1);
    expect(closedAt - from).toBeLessThan(HEADERS_MS + SWEEP_MS + SLOW_CLIENT_CUT_SLACK_MS);
  });

  test('a connection left idle after its answer is closed once the keep-alive timeout passes', async () => {
    const client = open(port);
    await client.connected;
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise<void>((resolve) => client.socket.on('data', () => client.received().includes('\r\n\r\n') && resolve()));
    const answeredAt = performance.now();
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const closedAt = await client.closed;
    // Node keeps the socket open a little past the keep-alive timeout (its buffer, against a
    // client reusing it just as it closes): the bound is the sum.
    const keptFor = KEEP_ALIVE_MS + (server.keepAliveTimeoutBuffer ?? 0);
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(keptFor - 50);
    expect(closedAt - answeredAt).toBeLessThan(keptFor + SLOW_CLIENT_CUT_SLACK_MS);
  });
});

test('a connection on which nothing passes, the body awaited: closed once the idle timeout passes, before the request timeout', async () => {
  const IDLE_FIRST_MS = 400;
  const { port } = await start({ HTTP_IDLE_TIMEOUT_MS: String(IDLE_FIRST_MS), HTTP_HEADERS_TIMEOUT_MS: '3000', HTTP_REQUEST_TIMEOUT_MS: '6000' });
  const client = open(port);
  await client.connected;
  client.socket.write('POST /token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n');
  const from = performance.now();
  const closedAt = await client.closed;
  expect(closedAt - from).toBeGreaterThanOrEqual(IDLE_FIRST_MS - 1);
  expect(closedAt - from).toBeLessThan(IDLE_FIRST_MS + SLOW_CLIENT_CUT_SLACK_MS);
  expect(client.received()).toBe('');
  // The body read that was waiting ends as a refused request, the client's doing: no error line.
  await waitUntil('the cut request logged', () => logs.lines().some((line) => line.msg === 'request' && line.status === 400));
  expect(logs.lines().filter((line) => line.level === 'error')).toEqual([]);
}, 30_000);

describe('the connection cap', () => {
  const CAP = 5;

  test('with the cap held by idle connections, the next is closed as it arrives, unanswered; once one goes, a new one is served', async () => {
    const { port, metrics, signet } = await start({ HTTP_MAX_CONNECTIONS: String(CAP) });
    const held: ReturnType<typeof open>[] = [];
    for (let i = 0; i < CAP; i++) {
      const arrived = new Promise<void>((resolve) => signet.server.once('connection', () => resolve()));
      const client = open(port);
      await Promise.all([client.connected, arrived]);
      held.push(client);
    }
    const over = open(port);
    over.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const from = await over.connected;
    const closedAt = await over.closed;
    expect(closedAt - from).toBeLessThan(OVER_CAP_CLOSE_MS);
    expect(over.received()).toBe('');
    expect((await metrics.httpConnectionsDropped.get()).values[0]?.value).toBe(1);
    // Every held connection is still open: the cap closed the newcomer, not them.
    for (const client of held) expect(client.socket.destroyed).toBe(false);

    const freed = new Promise<void>((resolve) => held[0]!.socket.once('close', () => resolve()));
    held[0]!.socket.destroy();
    await freed;
    // The server learns of the close from its own side of the socket: wait for its count to drop.
    const count = () => new Promise<number>((resolve) => signet.server.getConnections((_error, n) => resolve(n)));
    await waitUntil('the server counts one connection fewer', async () => (await count()) < CAP);
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(answer.status).toBe(200);
  }, 30_000);
});
