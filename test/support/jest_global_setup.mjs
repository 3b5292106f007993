// Names the run (RUN_MARKER in the environment, which Jest's workers and every process a
// test starts inherit), unless scripts/test.mjs (npm test) already did.
import { randomUUID } from 'node:crypto';
import { RUN_MARKER } from './run_processes.mjs';

export default function globalSetup() {
  process.env[RUN_MARKER] ||= randomUUID();
}
