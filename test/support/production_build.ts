// The built production server for the tests that start it as operators do: `npm run build`'s
// steps into a folder of the test's own, the settings such a process is started with (real
// Redis and anvil of the test), and its JSON log lines as they come.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { projectRoot } from '../../src/base/project_root.js';
import type { RedisServer } from './redis_server.js';
import { RUN_MARKER } from './run_processes.mjs';
import { testJwks } from './signet_harness.js';
import type { TestChain } from './test_chain.js';

/** Compiles src/ into `dist` (emptied first) as `npm run build` does: tsc, the entry kept from before the layers, the Lua scripts beside the code. */
export function buildForProduction(dist: string): void {
  rmSync(dist, { recursive: true, force: true });
  const run = (script: string, ...args: string[]) => execFileSync(process.execPath, [script, ...args], { cwd: projectRoot });
  run(join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', dist);
  run(join(projectRoot, 'scripts', 'write_entry_before_layers.mjs'), dist);
  run(join(projectRoot, 'scripts', 'copy_lua_scripts.mjs'), dist);
}

/** The environment of a built process in production mode, two workers, on the test's Redis and chain; `extra` adds or overrides settings. */
export function productionEnv(
  { redis, chain, issuer, port, cookieKey }: { redis: RedisServer; chain: TestChain; issuer: string; port: number; cookieKey: string },
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    [RUN_MARKER]: process.env[RUN_MARKER],
    NODE_ENV: 'production',
    ISSUER: issuer,
    PORT: String(port),
    WORKERS: '2',
    REDIS_URL: redis.url,
    CHAIN_RPC_URL: chain.anvil.rpcUrl,
    CHAIN_ID: String(chain.anvil.chainId),
    IDENTITY_FACTORY: chain.suite.identityFactory,
    JWKS: JSON.stringify(testJwks()),
    COOKIE_KEYS: cookieKey,
    CLIENTS: '[]',
    ...extra,
  };
}

/** Calls `onLine` with each JSON line `output` writes (a line may come in several chunks); other lines are passed over. */
export function onJsonLines<Line>(output: Readable, onLine: (line: Line) => void): void {
  let pending = '';
  output.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) if (line.startsWith('{')) onLine(JSON.parse(line) as Line);
  });
}
