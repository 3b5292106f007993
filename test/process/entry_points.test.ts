// The ways to start the built production server (docs/decisions.md, 60), each a real process on
// a real redis-server and anvil: `signet serve` through the package's bin, the documented
// command, starts it and warns of nothing; `node dist/main.js`, how operators started it until
// the code moved into its layers' folders, still starts it and says once, at start, to use
// `signet serve`; `signet --version` prints package.json's version, which /healthz answers too.
// The build is `npm run build`'s three steps into a folder of its own, with the bin beside it.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';
import { freePort } from '../support/free_port.js';
import { buildForProduction, onJsonLines, productionEnv } from '../support/production_build.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { startTestChain, type TestChain } from '../support/test_chain.js';
import { waitFor } from '../support/wait_until.js';

type Line = { msg: string; level: string; pid: number };
type Started = { child: ChildProcess; lines: Line[]; port: number; stderr: string[] };

const buildDir = join(projectRoot, 'test-output', 'entry-points-build');
const version = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
let redis: RedisServer;
let chain: TestChain;
const running: ChildProcess[] = [];

beforeAll(async () => {
  rmSync(buildDir, { recursive: true, force: true });
  buildForProduction(join(buildDir, 'dist'));
  // The bin reads ../dist, as it does in the package.
  mkdirSync(join(buildDir, 'bin'));
  copyFileSync(join(projectRoot, 'bin', 'signet.js'), join(buildDir, 'bin', 'signet.js'));
  [redis, chain] = await Promise.all([startRedisServer(), startTestChain()]);
}, 180_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all([redis?.stop(), chain?.stop()]);
  rmSync(buildDir, { recursive: true, force: true });
});

/** Starts `args` with the production settings; its JSON log lines and its stderr are collected. */
async function start(args: string[]): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: productionEnv({ redis, chain, issuer: 'https://signet.entry.example', port, cookieKey: 'entry-points-test-cookie-key-0123456789' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  const started: Started = { child, lines: [], port, stderr: [] };
  onJsonLines<Line>(child.stdout!, (line) => started.lines.push(line));
  child.stderr!.on('data', (chunk: Buffer) => started.stderr.push(chunk.toString()));
  await waitFor(
    'two workers listening',
    () => (started.lines.filter((line) => line.msg === 'Signet is listening').length === 2 ? true : undefined),
    60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; log:\n${started.lines.map((line) => JSON.stringify(line)).join('\n')}\n${started.stderr.join('')}`);
  });
  return started;
}

/** SIGTERM, and the exit code. */
async function stop({ child }: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

const warnings = (started: Started) => started.lines.filter((line) => line.level === 'warn').map((line) => line.msg);

test('`signet serve` starts the production server, with no warning; /healthz says the version', async () => {
  const serving = await start([join(buildDir, 'bin', 'signet.js'), 'serve']);
  const health = await fetch(`http://127.0.0.1:${serving.port}/healthz`);
  expect({ status: health.status, json: await health.json() }).toEqual({ status: 200, json: { status: 'ok', version } });
  expect(warnings(serving)).toEqual([]);
  expect(await stop(serving)).toBe(0);
}, 120_000);

test('`node dist/main.js` still starts it, and says once (not once per worker) to use `signet serve`', async () => {
  const serving = await start([join(buildDir, 'dist', 'main.js')]);
  expect((await fetch(`http://127.0.0.1:${serving.port}/healthz`)).status).toBe(200);
  expect(warnings(serving)).toEqual([
    '`node dist/main.js` is the old way to start Signet and will be removed in 3.0.0: start it with `signet serve` (`npx signet serve`, or `node bin/signet.js serve` in the image)',
  ]);
  expect(await stop(serving)).toBe(0);
}, 120_000);

test('`signet --version` prints the version of package.json', () => {
  const printed = execFileSync(process.execPath, [join(buildDir, 'bin', 'signet.js'), '--version'], { cwd: projectRoot }).toString();
  expect(printed).toBe(`${version}\n`);
});
