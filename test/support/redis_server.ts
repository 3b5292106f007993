// Starts a real redis-server for a test file, on a free port, with no persistence. Fault
// tests kill it and start it again on the same port, as a crashed and restarted Redis.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free_port.js';

export type RedisServer = {
  url: string;
  port: number;
  /** Stops it (SIGTERM, a clean shutdown). */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL, a crash): its clients see the connection drop. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): connections stay open and nothing answers, as a hung Redis. */
  pause(): void;
  /** Thaws a paused server (SIGCONT). */
  resume(): void;
  /** Starts it again on the same port (with what it persisted, if anything); resolves once it accepts connections. */
  start(): Promise<void>;
};

function spawnRedis(port: number, dataDir: string | undefined): Promise<ChildProcess> {
  // With a data directory, every write is in the append-only file before Redis answers it.
  const persistence = dataDir ? ['--dir', dataDir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child: ChildProcess = spawn(
    'redis-server',
    // set-proc-title no: its environment stays readable, so the run can tell it is its own
    // (RUN_MARKER, test/support/run_processes.mjs); a process title overwrites it.
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--protected-mode', 'no', '--set-proc-title', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise<ChildProcess>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', (error) => reject(new Error(`redis-server could not start (is it on PATH?): ${error.message}`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${seen.slice(-400)}`)));
  });
}

function ended(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  return new Promise<void>((done) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill(signal);
  });
}

export async function startRedisServer(options: { appendOnly?: boolean } = {}): Promise<RedisServer> {
  // Append-only: what was written survives a kill, as on a production Redis with AOF.
  const dataDir = options.appendOnly ? mkdtempSync(join(tmpdir(), 'signet-redis-')) : undefined;
  // A port found free can be taken by another test process before Redis binds it: a new one then.
  let port = await freePort();
  let child: ChildProcess | undefined;
  for (let attempt = 1; !child; attempt++) {
    try {
      child = await spawnRedis(port, dataDir);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Address already in use')) throw error;
      port = await freePort();
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await ended(child, 'SIGTERM');
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    kill: () => ended(child, 'SIGKILL'),
    pause: () => {
      child?.kill('SIGSTOP');
    },
    resume: () => {
      child?.kill('SIGCONT');
    },
    start: async () => {
      if (child && child.exitCode === null && child.signalCode === null) return;
      child = await spawnRedis(port, dataDir);
    },
  };
}
