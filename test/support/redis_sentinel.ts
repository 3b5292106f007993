// Starts a real Redis Sentinel group for a failover test: one master, one replica and three
// Sentinels watching them (quorum 2), on free ports, with short detection timeouts.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free_port.js';
import { type RedisNode, redisNode } from './redis_cluster.js';
import { waitUntil } from './wait_until.js';

const run = promisify(execFile);

export const SENTINEL_MASTER_NAME = 'signet';

export type RedisSentinelGroup = {
  master: RedisNode;
  replica: RedisNode;
  sentinels: RedisNode[];
  /** "host:port,…" of the Sentinels, the form REDIS_SENTINELS takes. */
  seeds: string;
  /** "host:port" of the server the Sentinels now name as master. */
  currentMaster(): Promise<string>;
  stop(): Promise<void>;
};

export async function startRedisSentinels(): Promise<RedisSentinelGroup> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-sentinel-'));
  const [masterPort, replicaPort] = [await freePort(), await freePort()];
  // No delay before the replica's first full sync (Redis waits 5 s by default for more replicas).
  const plain = ['--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0'];
  const master = redisNode(plain, masterPort, dir);
  const replica = redisNode([...plain, '--replicaof', '127.0.0.1', String(masterPort)], replicaPort, dir);
  const sentinels: RedisNode[] = [];
  const stop = async () => {
    await Promise.all([...sentinels, master, replica].map((node) => node.stop()));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await startGroup(master, replica, sentinels, dir);
  } catch (error) {
    // Failing half way, it stops the servers it started: the caller never gets them.
    await stop();
    throw error;
  }
  return {
    master,
    replica,
    sentinels,
    seeds: sentinels.map((node) => `${node.host}:${node.port}`).join(','),
    currentMaster: async () => {
      const { stdout } = await run('redis-cli', ['-p', String(sentinels[0]!.port), 'sentinel', 'get-master-addr-by-name', SENTINEL_MASTER_NAME]);
      return stdout.trim().split('\n').join(':');
    },
    stop,
  };
}

/** Starts the master, then its replica once linked, then three Sentinels (added to `sentinels` as made). */
async function startGroup(master: RedisNode, replica: RedisNode, sentinels: RedisNode[], dir: string): Promise<void> {
  const [masterPort, replicaPort] = [master.port, replica.port];
  await master.start();
  await replica.start();
  // A failover before the first sync would promote an empty replica: wait for the link.
  await waitUntil(
    'the replica has synced with its master',
    async () => (await run('redis-cli', ['-p', String(replicaPort), 'info', 'replication'])).stdout.includes('master_link_status:up'),
    { timeoutMs: 10_000, everyMs: 50 },
  );
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    // A Sentinel rewrites its own config file, so each gets one of its own.
    const file = join(dir, `sentinel-${port}.conf`);
    await writeFile(
      file,
      [
        `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${masterPort} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 3000`,
        '',
      ].join('\n'),
    );
    sentinels.push(redisNode(['--sentinel'], port, dir, file));
  }
  // allSettled: every Sentinel has started or failed before a failure stops them all.
  const started = await Promise.allSettled(sentinels.map((sentinel) => sentinel.start()));
  for (const each of started) if (each.status === 'rejected') throw each.reason;
}
