// After the last test file and after Jest's workers have stopped: kills whatever still
// carries this run's marker (test/support/run_processes.mjs). A worker that crashed or was
// force-stopped never ran its files' ends, so its anvil, redis-server or Chromium would
// otherwise outlive the run.
import { killAll, namesOf, processesOfRun, RUN_MARKER } from './run_processes.mjs';

export default async function globalTeardown() {
  const left = await killAll(processesOfRun(process.env[RUN_MARKER]));
  if (left.length > 0) process.stderr.write(`the test run left ${left.length} process(es) running, killed: ${namesOf(left)}\n`);
}
