#!/usr/bin/env node
// CI's production check. Without a Docker engine, it runs the Dockerfile's own steps in a
// clean folder: each stage's WORKDIR, ENV, COPY (from a copy of the tracked files, or from an
// earlier stage) and RUN, in order. The runtime stage installs with `npm install --omit=dev`,
// so no development package is there. Then it starts that stage's CMD with
// NODE_ENV=production against a redis-server and an anvil it starts (the ONCHAINID suite
// deployed by the built `signet deploy-onchainid`, secrets made by `signet keys`), and checks
// discovery, /healthz, /readyz, the HEALTHCHECK command, /metrics, one whole login (authorize,
// challenge, wallet signature, code, tokens, userinfo) and a clean stop on SIGTERM. The CMD must
// be `signet serve` (through the bin), and `signet --version` print package.json's version.
//
//   node scripts/production_check.mjs [--keep]     (needs the npm registry, redis-server)
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWalletClient, http, parseAbi, publicActions } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'signet-production-'));
const children = [];
const started = Date.now();

function step(text) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);
}

function fail(text) {
  throw new Error(text);
}

// ---- the Dockerfile, read as a list of stages of instructions ------------------------------

/** Joins continuation lines, drops comments; returns [{ name, steps: [{ op, args }] }]. */
export function parseDockerfile(text) {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const stages = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line) ?? fail(`Dockerfile: cannot read "${line}"`);
    const upper = op.toUpperCase();
    if (upper === 'FROM') {
      const as = /\s+AS\s+(\S+)$/i.exec(args);
      stages.push({ name: as ? as[1] : String(stages.length), image: args.split(/\s+/)[0], steps: [] });
    } else {
      (stages.at(-1) ?? fail('Dockerfile: an instruction before FROM')).steps.push({ op: upper, args });
    }
  }
  return stages;
}

/** ["a", "b"] (exec form) or a shell line. */
function commandOf(args) {
  return args.startsWith('[') ? JSON.parse(args) : ['sh', '-c', args];
}

/** Runs every stage into its own folder (the stage's filesystem root); returns the last. */
function buildStages(stages, context) {
  const roots = {};
  let last;
  for (const stage of stages) {
    const root = join(work, 'stages', stage.name);
    mkdirSync(root, { recursive: true });
    const state = { root, workdir: '/', env: {}, user: 'root', cmd: undefined, healthcheck: undefined, expose: undefined };
    const inRoot = (path, from = state.workdir) => join(root, path.startsWith('/') ? path : join(from, path));
    for (const { op, args } of stage.steps) {
      if (op === 'WORKDIR') {
        state.workdir = args.startsWith('/') ? args : join(state.workdir, args);
        mkdirSync(inRoot(state.workdir), { recursive: true });
      } else if (op === 'ENV') {
        for (const [, name, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) state.env[name] = value.replace(/^"|"$/g, '');
      } else if (op === 'COPY') {
        const words = args.split(/\s+/);
        const from = words[0].startsWith('--from=') ? words.shift().slice('--from='.length) : undefined;
        const target = words.pop();
        for (const source of words) {
          const origin = from ? join(roots[from] ?? fail(`COPY --from=${from}: no such stage`), source) : join(context, source);
          const destination = target.endsWith('/') ? join(inRoot(target), source.split('/').pop()) : inRoot(target);
          cpSync(origin, destination, { recursive: true });
        }
      } else if (op === 'RUN') {
        step(`${stage.name}: RUN ${args}`);
        const [command, ...rest] = commandOf(args);
        // The machine's npm cache (warm after the repository's own install) is used first.
        const env = { ...process.env, npm_config_prefer_offline: 'true', ...state.env };
        execFileSync(command, rest, { cwd: inRoot(state.workdir), stdio: 'inherit', env });
      } else if (op === 'USER') {
        state.user = args; // no users outside a container; checked below that it is not root
      } else if (op === 'CMD') {
        state.cmd = commandOf(args);
      } else if (op === 'HEALTHCHECK') {
        const cmd = /CMD\s+(.*)$/.exec(args) ?? fail('HEALTHCHECK without CMD');
        state.healthcheck = commandOf(cmd[1]);
      } else if (op === 'EXPOSE') {
        state.expose = args;
      } else if (op !== 'ARG' && op !== 'LABEL') {
        fail(`Dockerfile: ${op} is not supported by this check`);
      }
    }
    roots[stage.name] = root;
    last = { ...state, cwd: inRoot(state.workdir) };
  }
  return last;
}

// ---- the parts it runs against ------------------------------------------------------------

function freePort() {
  return new Promise((done, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Spawns a child, collects its output, resolves when a line matches `ready`. */
function startChild(name, command, args, options, ready) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.output = '';
  const collect = (chunk) => {
    child.output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 60 s:\n${child.output.slice(-2000)}`)), 60_000);
    const check = () => {
      if (ready.test(child.output)) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        done(child);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}):\n${child.output.slice(-2000)}`)));
  });
}

function anvilBinary() {
  const require = createRequire(join(repo, 'package.json'));
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const binary = join(dirname(require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`)), 'bin', 'anvil');
  return existsSync(binary) ? binary : 'anvil';
}

// ---- a login as a website and a wallet would do it -----------------------------------------

class Browser {
  cookies = new Map();
  constructor(base) {
    this.base = base;
  }
  async fetch(url, init = {}) {
    const headers = new Headers(init.headers);
    // What the TLS proxy in front adds.
    headers.set('x-forwarded-proto', 'https');
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const target = new URL(url, this.base);
    const response = await fetch(new URL(target.pathname + target.search, this.base), { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

const base64url = (buffer) => buffer.toString('base64url');

async function login({ base, issuer, client, wallet }) {
  const browser = new Browser(base);
  const discovery = await (await browser.fetch('/.well-known/openid-configuration')).json();
  if (discovery.issuer !== issuer) fail(`discovery names issuer ${discovery.issuer}, not ${issuer}`);
  const verifier = base64url(randomBytes(32));
  const authorize = new URL(discovery.authorization_endpoint);
  for (const [k, v] of Object.entries({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: client.redirect_uris[0],
    scope: 'openid',
    state: base64url(randomBytes(12)),
    nonce: base64url(randomBytes(12)),
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  })) {
    authorize.searchParams.set(k, v);
  }
  const toInteraction = await browser.fetch(authorize.href);
  const interaction = toInteraction.headers.get('location') ?? fail(`authorize answered ${toInteraction.status}: ${await toInteraction.text()}`);
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  const challenge = await browser.fetch(`${interaction}/challenge`, { method: 'POST', headers: json, body: JSON.stringify({ address: wallet.address }) });
  const { challenge: message } = (await challenge.json()) ?? {};
  if (challenge.status !== 200) fail(`challenge answered ${challenge.status}: ${JSON.stringify(message)}`);
  const signature = await wallet.signMessage({ message });
  const signed = await browser.fetch(`${interaction}/signature`, { method: 'POST', headers: json, body: JSON.stringify({ signature }) });
  const { redirect_to } = await signed.json();
  if (signed.status !== 200) fail(`signature answered ${signed.status}`);
  let next = redirect_to;
  let code;
  for (let hop = 0; hop < 5 && !code; hop++) {
    const response = await browser.fetch(next);
    const location = response.headers.get('location') ?? fail(`expected a redirect from ${next}, got ${response.status}`);
    if (location.startsWith(client.redirect_uris[0])) code = new URL(location).searchParams.get('code');
    else next = location;
  }
  if (!code) fail('no authorization code came back');
  const tokenResponse = await browser.fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirect_uris[0], code_verifier: verifier }),
  });
  const tokens = await tokenResponse.json();
  if (tokenResponse.status !== 200 || !tokens.id_token || !tokens.access_token) fail(`token answered ${tokenResponse.status}: ${tokens.error}`);
  const me = await browser.fetch(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  const userinfo = await me.json();
  if (me.status !== 200 || !userinfo.sub) fail(`userinfo answered ${me.status}`);
  const { kid } = JSON.parse(Buffer.from(tokens.id_token.split('.')[0], 'base64url').toString());
  return { sub: userinfo.sub, kid };
}

// ---- the check ----------------------------------------------------------------------------

async function main() {
  step(`clean copy of the tracked files in ${work}`);
  const context = join(work, 'context');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (existsSync(join(repo, file))) cpSync(join(repo, file), join(context, file), { recursive: true });
  }

  const stages = parseDockerfile(readFileSync(join(context, 'Dockerfile'), 'utf8'));
  const runtime = buildStages(stages, context);
  if (!runtime.cmd) fail('the Dockerfile has no CMD');
  if (runtime.user === 'root') fail('the runtime stage runs as root: add USER');
  if (!runtime.healthcheck) fail('the Dockerfile has no HEALTHCHECK');
  if (existsSync(join(runtime.cwd, 'node_modules', '@foundry-rs', 'anvil'))) fail('anvil is installed in the production image');
  if (existsSync(join(runtime.cwd, 'node_modules', 'openid-client'))) fail('a devDependency (openid-client) is installed in the production image');
  step(`runtime stage ready: user ${runtime.user}, CMD ${runtime.cmd.join(' ')}`);

  const [redisPort, anvilPort, port, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  await startChild('redis-server', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', work], {}, /Ready to accept connections/);
  await startChild('anvil', anvilBinary(), ['--port', String(anvilPort), '--host', '127.0.0.1'], {}, /Listening on/);
  const rpcUrl = `http://127.0.0.1:${anvilPort}`;
  const cli = (...args) => execFileSync('node', ['bin/signet.js', ...args], { cwd: runtime.cwd, encoding: 'utf8', env: { ...process.env, ...runtime.env } });

  step('signet --help and signet deploy-onchainid --help answer with exit 0');
  for (const args of [['--help'], ['deploy-onchainid', '--help']]) cli(...args);
  // The image starts Signet with the one documented production command (docs/decisions.md, 60).
  if (runtime.cmd.join(' ') !== 'node bin/signet.js serve') fail(`the Dockerfile's CMD is "${runtime.cmd.join(' ')}", not "node bin/signet.js serve"`);
  const { version } = JSON.parse(readFileSync(join(context, 'package.json'), 'utf8'));
  if (cli('--version').trim() !== version) fail(`signet --version does not print package.json's version ${version}`);
  step(`signet --version: ${version}`);
  step('signet deploy-onchainid (the production install) deploys ONCHAINID');
  const deployed = Object.fromEntries(cli('deploy-onchainid', '--rpc', rpcUrl, '--wait', '30').split('\n').filter((l) => /^[A-Z_]+=/.test(l)).map((l) => l.split('=')));
  // docker-compose.yml names the IdFactory a fresh anvil gets from this same deployment.
  const composeFactory = /IDENTITY_FACTORY: \$\{IDENTITY_FACTORY:-(0x[0-9a-fA-F]{40})\}/.exec(readFileSync(join(context, 'docker-compose.yml'), 'utf8'))?.[1];
  if (composeFactory !== deployed.IDENTITY_FACTORY) fail(`docker-compose.yml names IdFactory ${composeFactory}, the deployment made ${deployed.IDENTITY_FACTORY}`);
  step(`IdFactory ${deployed.IDENTITY_FACTORY}, as docker-compose.yml expects`);
  const secrets = cli('keys', '--kid', 'ci-key');
  const JWKS = /^JWKS='(.*)'$/m.exec(secrets)?.[1] ?? fail('signet keys printed no JWKS');
  const COOKIE_KEYS = /^COOKIE_KEYS=(.*)$/m.exec(secrets)?.[1] ?? fail('signet keys printed no COOKIE_KEYS');

  // A wallet with an identity from the IdFactory (its owner is anvil account #0).
  const mnemonic = 'test test test test test test test test test test test junk';
  const owner = createWalletClient({ account: mnemonicToAccount(mnemonic, { addressIndex: 0 }), chain: { ...foundry, id: Number(deployed.CHAIN_ID) }, transport: http(rpcUrl) }).extend(publicActions);
  const wallet = mnemonicToAccount(mnemonic, { addressIndex: 1 });
  const factoryAbi = parseAbi(['function createIdentity(address _wallet, string _salt) returns (address)']);
  const hash = await owner.writeContract({ address: deployed.IDENTITY_FACTORY, abi: factoryAbi, functionName: 'createIdentity', args: [wallet.address, 'ci'] });
  await owner.waitForTransactionReceipt({ hash });

  const issuer = 'https://signet.ci.example';
  const client = { client_id: 'ci-website', client_secret: 'ci-website-secret-value', client_name: 'CI website', redirect_uris: ['https://website.ci.example/callback'] };
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...runtime.env,
    NODE_ENV: 'production',
    ISSUER: issuer,
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    TRUST_PROXY: '1',
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    CHAIN_RPC_URL: rpcUrl,
    CHAIN_ID: deployed.CHAIN_ID,
    IDENTITY_FACTORY: deployed.IDENTITY_FACTORY,
    JWKS,
    COOKIE_KEYS,
    CLIENTS: JSON.stringify([client]),
  };
  step(`start: ${runtime.cmd.join(' ')} (NODE_ENV=production)`);
  const [command, ...args] = runtime.cmd;
  const signet = await startChild('signet', command, args, { cwd: runtime.cwd, env }, /Signet is listening/);
  const base = `http://127.0.0.1:${port}`;

  const discovery = await fetch(`${base}/.well-known/openid-configuration`);
  if (discovery.status !== 200 || (await discovery.json()).issuer !== issuer) fail(`discovery answered ${discovery.status}`);
  for (const path of ['/healthz', '/readyz']) {
    const answer = await fetch(`${base}${path}`);
    if (answer.status !== 200) fail(`${path} answered ${answer.status}: ${await answer.text()}`);
  }
  step('discovery, /healthz and /readyz answer 200');
  execFileSync(runtime.healthcheck[0], runtime.healthcheck.slice(1), { cwd: runtime.cwd, env });
  step('the HEALTHCHECK command passes');

  const { sub, kid } = await login({ base, issuer, client, wallet });
  if (kid !== 'ci-key') fail(`the ID token is signed with key "${kid}", not the configured "ci-key"`);
  step(`a whole login completed: sub ${sub}, ID token signed with key ${kid}`);

  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  if (!/signet_login_outcomes_total\{outcome="success",reason="none"\} 1/.test(metrics)) fail('/metrics does not count the login');
  if (!/signet_http_request_duration_seconds_bucket/.test(metrics) || !/signet_process_cpu_seconds_total/.test(metrics)) fail('/metrics lacks HTTP or process metrics');
  if (!/signet_chain_calls_total\{method="eth_call",outcome="ok",chain_id="\d+"\} [1-9]/.test(metrics)) fail('/metrics does not count the chain calls');
  step('/metrics counts the login, HTTP latency, chain calls and process metrics');

  const lines = signet.output.split('\n').filter((line) => line.startsWith('{'));
  if (!lines.length || lines.some((line) => !JSON.parse(line).level)) fail('the logs are not JSON lines');
  step(`${lines.length} JSON log lines`);
  // The pruned install loads the native signature recovery (a prebuilt addon of `secp256k1`).
  if (signet.output.includes('secp256k1 addon did not load')) fail('the native secp256k1 addon did not load in the production install');
  step('the native secp256k1 addon loaded (no fallback logged)');

  const exited = new Promise((done) => signet.once('exit', (code) => done(code)));
  signet.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) fail(`SIGTERM: Signet exited with ${code}`);
  step('SIGTERM: Signet stopped cleanly (exit 0)');
}

function cleanUp() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (!keep) rmSync(work, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanUp();
    process.exit(1);
  });
}

main()
  .then(() => step('production check passed'))
  .catch((error) => {
    console.error(`production check FAILED: ${error.message}`);
    process.exitCode = 1;
  })
  .finally(cleanUp);
