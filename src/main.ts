// Starts Signet from the environment and config/*.json, prints what it set up, and shuts
// down cleanly on SIGINT/SIGTERM. A bad setting stops the start with a message naming it.
import { loadConfig } from './config.js';
import { ConfigError } from './errors.js';
import type { Logger } from './http/error_handler.js';
import { startServer } from './server.js';

const logger: Logger = {
  info: (message) => console.log(message),
  error: (message, detail) => console.error(message, detail ?? ''),
};

async function main() {
  const running = await startServer(loadConfig(), logger);
  logger.info(running.summary.join('\n'));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: shutting down`);
    await running.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(`Signet did not start: ${error.message}`);
  else console.error('Signet did not start:', error);
  process.exit(1);
});
