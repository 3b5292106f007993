// Jest's node environment, plus: what a test file started and did not stop (anvil,
// redis-server, Chromium, a Signet process…) is killed when the file ends, after its own
// afterAll hooks, and the file's output names it. A suite whose beforeAll failed half way, or
// whose afterAll timed out, so leaves nothing running for the rest of the run.
import { relative } from 'node:path';
import { TestEnvironment } from 'jest-environment-node';
import { childrenOf, killAll, namesOf, processTable, withDescendants } from './run_processes.mjs';

export default class SignetTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testFile = relative(config.globalConfig.rootDir, context.testPath);
  }

  async setup() {
    // Children already there belong to Jest (or to the run), not to this file.
    this.childrenBefore = new Set(childrenOf(process.pid).map((each) => each.pid));
    await super.setup();
  }

  /** Kills this file's processes still running, and says so on `say`. */
  async stopLeftovers(say) {
    const table = processTable();
    const started = childrenOf(process.pid, table).filter((each) => !this.childrenBefore.has(each.pid));
    if (started.length === 0) return;
    const left = await killAll(withDescendants(started, table));
    say(`${this.testFile} left ${left.length} process(es) running, killed at its end: ${namesOf(left)}`);
  }

  async handleTestEvent(event) {
    // After the last afterAll hook; said on the file's console, which Jest reports with the
    // file (a worker's own stderr can be lost when Jest replaces a crashed worker).
    if (event.name === 'run_finish') await this.stopLeftovers((line) => this.global.console.warn(line));
  }

  async teardown() {
    // Anything started after that (a file that failed to load never gets there).
    await this.stopLeftovers((line) => process.stderr.write(`${line}\n`));
    await super.teardown();
  }
}
