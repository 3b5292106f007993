// What an entry point runs (src/app/main.ts for production, src/demo/demo_main.ts for the demo):
// read and check the configuration, make the logger, then either one process or, with
// WORKERS above 1, a cluster primary and its workers; shut down cleanly on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { AggregatorRegistry } from 'prom-client';
import { ConfigError } from '../base/errors.js';
import { type Config, configWarnings, loadConfig } from '../config/config.js';
import { createLogger, type Logger } from '../infra/observability/logger.js';
import { createMetrics, type Metrics } from '../infra/observability/metrics.js';
import { registryText, startMetricsServer } from '../infra/observability/metrics_server.js';
import { runClusterPrimary } from './cluster_primary.js';
import type { RunningSignet } from './server.js';

export type StartSignet = (config: Config, logger: Logger, metrics: Metrics) => Promise<RunningSignet>;

export function workerCount(config: Config): number {
  return config.ops.workers === 'auto' ? availableParallelism() : config.ops.workers;
}

async function runProcess(config: Config, logger: Logger, start: StartSignet, options: { printSummary: boolean }) {
  const inCluster = cluster.isWorker;
  const metrics = createMetrics();
  // A worker's metrics are read by the primary, which serves the sum. Constructing an
  // AggregatorRegistry is what makes prom-client answer the primary's requests.
  if (inCluster) {
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }
  const running = await start(config, logger, metrics);
  const metricsServer =
    !inCluster && config.ops.metricsPort !== undefined ? await startMetricsServer(config.ops.metricsPort, registryText(metrics.registry)) : undefined;
  if (options.printSummary) console.log(running.summary.join('\n'));
  logger.info('Signet is listening', { issuer: config.issuer, port: config.port, metrics_port: inCluster ? undefined : config.ops.metricsPort });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down: no new connections, finishing requests in flight', { signal, grace_ms: config.ops.shutdownGraceMs });
    try {
      await running.close();
      metricsServer?.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error('shutdown failed', error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // A worker whose primary is gone has nobody to restart it or hand it connections.
  if (inCluster) process.on('disconnect', () => void stop('primary gone'));
}

/** `startWarning`: logged once, by the first process (not by each worker), before it starts. */
export function runSignet(start: StartSignet, options: { printSummary?: boolean; startWarning?: string } = {}): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) console.error(`Signet did not start: ${error.message}`);
    else console.error('Signet did not start:', error);
    process.exit(1);
  }
  const logger = createLogger({ level: config.ops.logLevel });
  if (options.startWarning && cluster.isPrimary) logger.warn(options.startWarning);
  for (const warning of configWarnings(config)) logger.warn(`configuration: ${warning}`);
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception: the process stops', error);
    process.exit(1);
  });
  const workers = workerCount(config);
  const run =
    workers > 1 && cluster.isPrimary
      ? runClusterPrimary({ workers, metricsPort: config.ops.metricsPort, shutdownGraceMs: config.ops.shutdownGraceMs }, logger)
      : runProcess(config, cluster.isWorker ? logger.child({ worker: cluster.worker?.id }) : logger, start, {
          printSummary: options.printSummary ?? false,
        });
  run.catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(`Signet did not start: ${error.message}`);
    else logger.error('Signet did not start', error);
    process.exit(1);
  });
}
