// The production entry: reads the configuration, starts Signet (one process, or WORKERS of
// them sharing the port), logs JSON lines, and drains on SIGTERM. It loads no demo code and
// no development package: the demo has its own entry (src/demo/demo_main.ts, `npm start`).
import { runSignet } from './run_signet.js';
import { startServer } from './server.js';

runSignet((config, logger, metrics) => startServer(config, logger, { metrics }));
