// Starts a real Redis Cluster for a test file: three masters on free ports (each with its
// own free cluster-bus port), joined by `redis-cli --cluster create`, no persistence.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free_port.js';
import { waitUntil } from './wait_until.js';

const run = promisify(execFile);

export type RedisNode = { host: string; port: number; stop(): Promise<void>; start(): Promise<void> };
export type RedisCluster = { nodes: RedisNode[]; seeds: string; stop(): Promise<void> };

/**
 * A redis-server child that can be stopped (SIGKILL: a crash, not a clean exit) and started
 * again on the same port. A config file, when given, comes first, as redis-server wants it.
 */
export function redisNode(args: string[], port: number, dir: string, configFile?: string): RedisNode {
  let child: ChildProcess | undefined;
  const start = async () => {
    const head = configFile ? [configFile] : [];
    // set-proc-title no: see redis_server.ts.
    const started = spawn(
      'redis-server',
      [...head, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--protected-mode', 'no', '--set-proc-title', 'no', ...args],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      started.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        // A Sentinel never says it is ready; it is once it monitors its master.
        if (seen.includes('Ready to accept connections') || seen.includes('+monitor master')) resolve();
      });
      started.once('error', (error) => reject(new Error(`redis-server could not start (is it on PATH?): ${error.message}`)));
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${seen.slice(-400)}`)));
    });
    started.stdout?.resume();
    started.stderr?.resume();
  };
  const stop = () =>
    new Promise<void>((done) => {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return done();
      running.once('exit', () => done());
      running.kill('SIGKILL');
    });
  return { host: '127.0.0.1', port, start, stop };
}

async function clusterState(port: number): Promise<string> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
  return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? 'unknown';
}

/**
 * A port found free can be taken by another test process before redis-server binds it: the
 * cluster is then made again on new ports (three tries at most).
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisClusterOnce(masters);
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Address already in use')) throw error;
    }
  }
}

async function startRedisClusterOnce(masters: number): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-cluster-'));
  const nodes: RedisNode[] = [];
  for (let i = 0; i < masters; i++) {
    const [port, busPort] = [await freePort(), await freePort()];
    const nodeDir = join(dir, String(port));
    await run('mkdir', ['-p', nodeDir]);
    nodes.push(
      redisNode(
        [
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPort),
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '2000',
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        port,
        nodeDir,
      ),
    );
  }
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  const addresses = nodes.map((node) => `${node.host}:${node.port}`);
  try {
    // allSettled: every node has started or failed before a failure stops them all.
    const started = await Promise.allSettled(nodes.map((node) => node.start()));
    for (const each of started) if (each.status === 'rejected') throw each.reason;
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    let states: string[] = [];
    await waitUntil(
      'every node says the cluster is ready',
      async () => {
        states = await Promise.all(nodes.map((node) => clusterState(node.port)));
        return states.every((state) => state === 'ok');
      },
      { timeoutMs: 15_000, everyMs: 50, detail: () => nodes.map((node, i) => `node ${node.port}: ${states[i]}`).join(', ') },
    );
  } catch (error) {
    // Failing half way, it stops the nodes it started: the caller never gets them.
    await stop();
    throw error;
  }
  return { nodes, seeds: addresses.join(','), stop };
}
