// `signet serve`: the production server (docs/decisions.md, 60). Reads the configuration,
// starts Signet (one process, or WORKERS of them sharing the port), logs JSON lines, and drains
// on SIGTERM. It loads no demo code and no development package: the demo has its own entry
// (src/demo/demo_main.ts, `npm start`).
import { runSignet } from './run_signet.js';
import { startServer } from './server.js';

/** `startWarning`: logged once at start, by the first process only (an old way of starting it). */
export function serve(options: { startWarning?: string } = {}): void {
  runSignet((config, logger, metrics) => startServer(config, logger, { metrics }), { startWarning: options.startWarning });
}
