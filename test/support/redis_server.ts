// Starts a real redis-server for a test file, on a free port, with no persistence.
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free_port.js';

export type RedisServer = { url: string; stop(): Promise<void> };

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to accept connections')) resolve();
    });
    child.once('error', (error) => reject(new Error(`redis-server could not start (is it on PATH?): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${seen.slice(-400)}`)));
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
