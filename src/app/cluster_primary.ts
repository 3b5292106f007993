// WORKERS=<n>: the primary process forks n workers that share the port (node:cluster hands
// out connections), replaces a worker that dies (with a growing pause if they keep dying),
// serves the summed metrics of all workers, and on SIGTERM stops them and waits.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Logger } from '../infra/observability/logger.js';
import { startMetricsServer } from '../infra/observability/metrics_server.js';

export type ClusterOptions = { workers: number; metricsPort?: number; shutdownGraceMs: number };

// A worker that dies within this window after the previous death counts toward a crash loop.
const CRASH_WINDOW_MS = 30_000;
const MAX_RESTART_PAUSE_MS = 10_000;

export async function runClusterPrimary(options: ClusterOptions, logger: Logger): Promise<void> {
  let stopping = false;
  let recentDeaths = 0;
  let lastDeath = 0;

  const fork = (): Worker => {
    const worker = cluster.fork();
    logger.info('worker started', { worker_pid: worker.process.pid, worker_id: worker.id });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    recentDeaths = now - lastDeath < CRASH_WINDOW_MS ? recentDeaths + 1 : 1;
    lastDeath = now;
    const pauseMs = Math.min(MAX_RESTART_PAUSE_MS, 250 * 2 ** (recentDeaths - 1)) - 250;
    logger.error('worker died; starting another', { worker_pid: worker.process.pid, code, signal, restart_in_ms: pauseMs });
    setTimeout(() => {
      if (!stopping) fork();
    }, pauseMs);
  });

  for (let i = 0; i < options.workers; i++) fork();

  const aggregator = new AggregatorRegistry();
  const metricsServer =
    options.metricsPort === undefined
      ? undefined
      : await startMetricsServer(options.metricsPort, async () => ({ text: await aggregator.clusterMetrics(), contentType: aggregator.contentType }));

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down the workers', { signal });
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => Boolean(worker));
    const exited = workers.map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
    for (const worker of workers) worker.process.kill('SIGTERM');
    // Each worker drains within the grace; past it (and a margin) they are killed.
    const deadline = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, options.shutdownGraceMs + 5000);
    await Promise.all(exited);
    clearTimeout(deadline);
    metricsServer?.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
