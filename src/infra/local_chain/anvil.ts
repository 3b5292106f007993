// Starts a local anvil chain (the binary shipped by @foundry-rs/anvil) on a free port and
// stops it with the process that started it. Used by the embedded demo and by the tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { installMulticall3 } from './multicall3_install.js';

export type Anvil = { rpcUrl: string; chainId: number; stop(): Promise<void> };

const require = createRequire(import.meta.url);

function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const name = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    const binary = join(dirname(require.resolve(`${name}/package.json`)), 'bin', 'anvil');
    if (existsSync(binary)) return binary;
  } catch {
    // fall through to PATH
  }
  return 'anvil';
}

export async function startAnvil(options: { chainId?: number; port?: number } = {}): Promise<Anvil> {
  const chainId = options.chainId ?? 31337;
  const child: ChildProcess = spawn(anvilBinary(), ['--port', String(options.port ?? 0), '--chain-id', String(chainId), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Listening on [^\s:]+:(\d+)/.exec(seen);
      if (match) {
        child.stdout?.off('data', onData);
        resolvePort(Number(match[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', (error) => reject(new Error(`anvil could not start: ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}) before listening: ${seen.slice(-500)}`)));
  });
  // Keep draining output so the pipe never fills up.
  child.stdout?.resume();
  child.stderr?.resume();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  // As on the public chains, Multicall3 answers at its canonical address (batched reads).
  await installMulticall3(rpcUrl).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return {
    rpcUrl,
    chainId,
    stop,
  };
}
