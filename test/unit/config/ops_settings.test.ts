// The operations settings: WORKERS, METRICS_PORT, LOG_LEVEL, SHUTDOWN_GRACE_MS, each checked
// at start with an error naming it.

import { workerCount } from '../../../src/app/run_signet.js';
import { loadConfig } from '../../../src/config/config.js';

const SHARED = {
  REDIS_URL: 'redis://127.0.0.1:6379',
  CHAIN_RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '31337',
  IDENTITY_FACTORY: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
};

test('defaults: one process, metrics off, info logs, 10 s to drain', () => {
  expect(loadConfig({}).ops).toEqual({ workers: 1, logLevel: 'info', shutdownGraceMs: 10000 });
});

test('each setting from the environment', () => {
  const config = loadConfig({ ...SHARED, WORKERS: '3', METRICS_PORT: '9464', LOG_LEVEL: 'warn', SHUTDOWN_GRACE_MS: '2500' });
  expect(config.ops).toEqual({ workers: 3, metricsPort: 9464, logLevel: 'warn', shutdownGraceMs: 2500 });
  expect(workerCount(config)).toBe(3);
  const auto = loadConfig({ ...SHARED, WORKERS: 'auto' });
  expect(auto.ops.workers).toBe('auto');
  expect(workerCount(auto)).toBeGreaterThanOrEqual(1);
});

test.each([
  [{ ...SHARED, WORKERS: '0' }, 'configuration: WORKERS Too small: expected number to be >=1'],
  [{ ...SHARED, WORKERS: 'many' }, /^configuration: WORKERS /],
  [{ WORKERS: '2' }, 'configuration: WORKERS above 1 needs REDIS_URL and CHAIN_RPC_URL (the demo runs one process)'],
  [{ METRICS_PORT: '70000' }, /^configuration: METRICS_PORT /],
  [{ LOG_LEVEL: 'loud' }, /^configuration: LOG_LEVEL /],
  [{ SHUTDOWN_GRACE_MS: '-1' }, /^configuration: SHUTDOWN_GRACE_MS /],
])('%j is refused, naming the setting', (env, message) => {
  expect(() => loadConfig(env)).toThrow(message);
});
