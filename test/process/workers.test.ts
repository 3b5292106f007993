// WORKERS=2 on the built production entry (dist/app/main.js's code, compiled for this test):
// two processes share the port and both serve; a worker killed with SIGKILL is replaced while
// the other keeps answering; the primary serves the workers' summed metrics; SIGTERM stops all.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';
import { freePort } from '../support/free_port.js';
import { buildForProduction, onJsonLines, productionEnv } from '../support/production_build.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { startTestChain, type TestChain } from '../support/test_chain.js';
import { waitFor } from '../support/wait_until.js';

type Line = { msg: string; pid: number; worker_pid?: number; level: string };

const buildDir = join(projectRoot, 'test-output', 'workers-build');
let redis: RedisServer;
let chain: TestChain;
let primary: ChildProcess;
const lines: Line[] = [];

/** What `check` gives once it gives something; failing, the processes' log. Generous: each worker loads the whole app, and CI machines are shared. */
function until<T>(what: string, check: () => T | undefined): Promise<T> {
  return waitFor(what, check, 60_000).catch((error: Error) => {
    throw new Error(`${error.message}; log:\n${lines.map((l) => JSON.stringify(l)).join('\n')}`);
  });
}

/** A request on a new connection (so the cluster may hand it to either worker). */
function status(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  buildForProduction(buildDir);
  [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
}, 120_000);

afterAll(async () => {
  if (primary && primary.exitCode === null) primary.kill('SIGKILL');
  await Promise.all([redis?.stop(), chain?.stop()]);
  rmSync(buildDir, { recursive: true, force: true });
});

test('two workers share the port, a dead worker is replaced, metrics are summed, SIGTERM stops all', async () => {
  const [port, metricsPort] = [await freePort(), await freePort()];
  primary = spawn(process.execPath, [join(buildDir, 'app', 'main.js')], {
    env: productionEnv(
      { redis, chain, issuer: 'https://signet.workers.example', port, cookieKey: 'workers-test-cookie-key-0123456789' },
      {
        METRICS_PORT: String(metricsPort),
        SHUTDOWN_GRACE_MS: '2000',
        LOG_LEVEL: 'debug', // the probes' access lines, which name the worker that answered
      },
    ),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onJsonLines<Line>(primary.stdout!, (line) => lines.push(line));
  primary.stderr!.on('data', (chunk: Buffer) => lines.push({ msg: `stderr: ${chunk}`, pid: 0, level: 'stderr' }));

  const listening = () => lines.filter((line) => line.msg === 'Signet is listening').map((line) => line.pid);
  const workers = await until('two workers listening', () => (listening().length === 2 ? listening() : undefined));
  expect(new Set(workers).size).toBe(2);
  expect(workers).not.toContain(primary.pid);

  // Both serve: the pids on the access lines of 30 requests on new connections.
  for (let i = 0; i < 30; i++) expect(await status(port, '/healthz')).toBe(200);
  const servedBy = () => new Set(lines.filter((line) => line.msg === 'request').map((line) => line.pid));
  await until('access lines from both workers', () => (servedBy().size === 2 ? true : undefined));
  expect([...servedBy()].sort()).toEqual([...workers].sort());

  // The primary's /metrics sums both workers' counters.
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  expect(metrics).toMatch(/signet_http_requests_total\{method="GET",route="\/healthz",status="200"\} 30/);

  // A worker dies: the other keeps answering, and a new one takes its place.
  process.kill(workers[0]!, 'SIGKILL');
  await until('the death noticed', () => lines.find((line) => line.msg === 'worker died; starting another' && line.worker_pid === workers[0]));
  expect(await status(port, '/healthz')).toBe(200);
  const replacement = await until('a replacement listening', () => listening().find((pid) => !workers.includes(pid)));
  expect(alive(replacement)).toBe(true);

  // SIGTERM: every process drains and exits 0.
  const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
  const outputEnded = new Promise((resolve) => primary.stdout!.once('end', resolve));
  primary.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect([workers[1]!, replacement].filter(alive)).toEqual([]);
  // The logs are written in blocks: each process's last line, logged as it exits, is written all the same.
  await outputEnded;
  const stopped = lines.filter((line) => line.msg === 'stopped').map((line) => line.pid);
  expect(stopped.sort()).toEqual([primary.pid!, workers[1]!, replacement].sort());
}, 240_000);
