// `npm test`: what the tests need (scripts/test_prerequisites.mjs: Node 22, redis-server,
// Chromium; provided where it can be, else one line and exit 1 before any test), the type
// check, then Jest twice (jest.config.js): the "suite" project on three workers, then the "timing"
// project one file at a time, so no other file's load stands between a bound and its answer.
// Both run whatever the first's outcome; the run fails if either does. Arguments go to Jest:
// `npm test -- test/unit` (a project the arguments leave without a file passes), and
// `npm test -- --selectProjects timing` runs only the projects named.
//
// Nothing outlives the run, however it ends. Jest runs with SIGNET_TEST_RUN=<a new id> in its
// environment, which its workers and every process a test starts inherit
// (test/support/run_processes.mjs). Once Jest has ended (passed, failed or crashed), or this
// run is interrupted (SIGINT, SIGTERM, SIGHUP: passed on to Jest, which gets 10 s), every
// process still carrying that id is killed and named.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAll, namesOf, processesOfRun, RUN_MARKER } from '../test/support/run_processes.mjs';
import { Missing, pathWith, testPrerequisites } from './test_prerequisites.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');

function stop(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

let prerequisites;
try {
  prerequisites = testPrerequisites();
} catch (error) {
  if (error instanceof Missing) stop(error.message);
  throw error;
}
if (!existsSync(jest)) stop("Signet's tests need the project's npm packages, not installed here: run `npm install` first");
process.stderr.write(`test prerequisites: ${prerequisites.summary}\n`);

const { node } = prerequisites;
const run = randomUUID();
const env = { ...process.env, PATH: pathWith(node), [RUN_MARKER]: run };

let current;
let interrupted;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    interrupted ??= signal;
    current?.kill(signal);
    setTimeout(() => current?.kill('SIGKILL'), 10_000).unref();
  });
}

/** Runs a step to its end; its exit status (1 when a signal ended it). */
function step(command, args, stepEnv = env) {
  return new Promise((resolve) => {
    current = spawn(command, args, { cwd: root, env: stepEnv, stdio: 'inherit' });
    current.once('error', (error) => {
      process.stderr.write(`${command} could not start: ${error.message}\n`);
      resolve(1);
    });
    current.once('exit', (code) => resolve(code ?? 1));
  });
}

async function finish(status) {
  const left = await killAll(processesOfRun(run));
  if (left.length > 0) process.stderr.write(`the test run left ${left.length} process(es) running, killed: ${namesOf(left)}\n`);
  process.exit(interrupted ? 128 + constants.signals[interrupted] : status);
}

// The type check: package.json's typecheck script, by the npm that runs us, on this Node.
const npmCli = process.env.npm_execpath;
const typecheck = await (npmCli?.endsWith('js')
  ? step(node, [npmCli, 'run', 'typecheck', '--silent'])
  : step('npm', ['run', 'typecheck', '--silent']));
if (typecheck !== 0 || interrupted) await finish(typecheck || 1);

/** The projects named by --selectProjects (all when none is), and the other arguments. */
function projectsIn(args) {
  const rest = [];
  let named;
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = args[i].split('=', 2);
    if (flag !== '--selectProjects') {
      rest.push(args[i]);
      continue;
    }
    named ??= [];
    if (value !== undefined) named.push(value);
    else while (i + 1 < args.length && !args[i + 1].startsWith('-')) named.push(args[++i]);
  }
  return { named, rest };
}

const { named, rest } = projectsIn(process.argv.slice(2));
const runs = [
  // Three on two cores: the suite's files wait on Redis, anvil and TTLs more than they compute
  // (three took 175 s where two took 238 s here); none asserts a time bound.
  { project: 'suite', workers: ['--maxWorkers=3'] },
  { project: 'timing', workers: ['--runInBand'] },
].filter((run) => !named || named.includes(run.project));
if (runs.length === 0) stop(`no such project: ${named.join(', ')} (the projects are suite and timing)`);
// Files or patterns given: a project they leave without a file is not a failure.
const filtered = rest.some((arg) => !arg.startsWith('-')) ? ['--passWithNoTests'] : [];
const nodeOptions = [process.env.NODE_OPTIONS, '--experimental-vm-modules'].filter(Boolean).join(' ');
let status = 0;
for (const { project, workers } of runs) {
  const code = await step(node, [jest, '--selectProjects', project, ...workers, ...filtered, ...rest], { ...env, NODE_OPTIONS: nodeOptions });
  if (interrupted) await finish(code || 1);
  status ||= code;
}
await finish(status);
