// The `signet` command line: the production server, and operator tasks beside it.
//   signet serve
//   signet --version
//   signet keys [--kid <id>] [--alg RS256|ES256] [--previous '<JWKS>']
//   signet deploy-onchainid --rpc <url> [--key <deployer private key>]
//   signet claims issue  --url <signet> --token <admin token> --identity <0x…> --topic <name> --data '<json>' [--verified-claims '<json>'] [--expires-at <iso>] [--uri <url>] [--chain-id <id>]
//   signet claims revoke --url <signet> --token <admin token> --identity <0x…> --claim-id <0x…> [--chain-id <id>]
//   signet api-keys create|list|rotate|revoke --url <signet> --token <admin token> --service <client_id> [--label <text>] [--key-id <id>]
import { parseArgs } from 'node:util';
import { createWalletClient, type Hex, http } from 'viem';
import { CHAIN_ID_RULE, CHAIN_ID_TEXT } from '../base/chain_id.js';
import { SIGNET_VERSION } from '../base/version.js';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from '../infra/chain/chain_client.js';
import { newSecrets } from '../infra/keys/new_secrets.js';
import { DEPLOYER_KEY } from '../infra/local_chain/anvil_accounts.js';
import { deployOnchainId } from '../infra/local_chain/deploy_onchainid.js';

const SERVE_USAGE = `  signet serve
      Starts Signet for production: the settings come from the environment, SIGNET_CONFIG and
      config/ (docs/operations.md); WORKERS processes share the port; SIGTERM drains and stops.
  signet --version
      Prints Signet's version (CHANGELOG.md lists what changed in each).`;
const KEYS_USAGE = `  signet keys [--kid <key id>] [--alg RS256|ES256] [--previous '<current JWKS>']
      Prints new secrets as environment settings: JWKS (a private signing key with its kid)
      and COOKIE_KEYS. With --previous, the new key comes first (it signs) and the current
      keys follow (they still verify tokens already issued): a key rotation.`;
const DEPLOY_USAGE = `  signet deploy-onchainid --rpc <url> [--key <0x private key>] [--wait <seconds>]
      Deploys the ONCHAINID suite (Identity implementation, ImplementationAuthority,
      IdFactory, ClaimIssuer) and prints the addresses as environment settings, and the
      chain's entry for CHAINS (several chains behind one Signet).
      Without --key it uses anvil's account #0, which only exists on a local chain.
      --wait retries until the chain answers, for that many seconds (default 0).`;
const CLAIMS_USAGE = `  signet claims issue --url <signet url> --token <admin token> --identity <0x…>
                      --topic <name> --data '<json object>' [--verified-claims '<json object>']
                      [--expires-at <ISO date>] [--uri <url>] [--chain-id <id>]
      Signet issues a claim as its ClaimIssuer: stores the data, signs the hash, and adds
      the claim to the identity when it holds a CLAIM key there (else prints it to add).
      --verified-claims puts what the issuer verified, as OpenID Identity Assurance's
      { "verification": {…}, "claims": {…} }, in the data as "verified_claims" (or write it
      in --data yourself); Signet checks it against the standard's schema. --chain-id names
      the identity's chain (default: the first configured); the claim is bound to it.
  signet claims revoke --url <signet url> --token <admin token> --identity <0x…> --claim-id <0x…> [--chain-id <id>]
      Revokes a claim Signet issued (ClaimIssuer.revokeClaimBySignature).`;
const API_KEYS_USAGE = `  signet api-keys create --url <signet url> --token <admin token> --service <client_id> [--label <text>]
  signet api-keys list   --url <signet url> --token <admin token> --service <client_id>
  signet api-keys rotate --url <signet url> --token <admin token> --service <client_id> --key-id <id>
  signet api-keys revoke --url <signet url> --token <admin token> --service <client_id> --key-id <id>
      Manages a service's API keys (sent as X-API-Key). create and rotate print the key once:
      Signet keeps only its hash. rotate revokes the old key; list shows prefixes, never secrets.`;

export const USAGE = `usage:
${SERVE_USAGE}
${KEYS_USAGE}
${DEPLOY_USAGE}
${CLAIMS_USAGE}
${API_KEYS_USAGE}`;

const USAGE_OF: Record<string, string> = {
  serve: `usage:\n${SERVE_USAGE}`,
  keys: `usage:\n${KEYS_USAGE}`,
  'deploy-onchainid': `usage:\n${DEPLOY_USAGE}`,
  claims: `usage:\n${CLAIMS_USAGE}`,
  'api-keys': `usage:\n${API_KEYS_USAGE}`,
};

/** Where a command writes; `clock` paces `--wait` (tests pass one that moves without waiting). */
export type CliOutput = { out(line: string): void; err(line: string): void; clock?: CliClock };
export type CliClock = { now(): number; sleep(ms: number): Promise<void> };

const realClock: CliClock = { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** How long `--wait` pauses between two tries. */
export const CHAIN_RETRY_MS = 500;

class UsageError extends Error {}

function required(values: Record<string, string | undefined>, names: string[]) {
  for (const name of names) if (!values[name]) throw new UsageError(`--${name} is required`);
}

function keysCommand(args: string[], io: CliOutput) {
  const { values } = parseArgs({ args, options: { kid: { type: 'string' }, alg: { type: 'string' }, previous: { type: 'string' } } });
  const alg = values.alg ?? 'RS256';
  if (alg !== 'RS256' && alg !== 'ES256') throw new UsageError('--alg must be RS256 or ES256');
  let previous: { keys: Record<string, unknown>[] } | undefined;
  if (values.previous !== undefined) {
    try {
      previous = JSON.parse(values.previous) as { keys: Record<string, unknown>[] };
    } catch {
      throw new UsageError('--previous must be the current JWKS as JSON');
    }
    if (!Array.isArray(previous?.keys)) throw new UsageError('--previous must be a JSON Web Key Set ({ "keys": [...] })');
  }
  const secrets = newSecrets({ alg, kid: values.kid, previous: previous?.keys });
  io.out(`# signing key ${secrets.kid} (${alg}); keep these secret, and the same in every Signet process`);
  io.out(`JWKS='${JSON.stringify(secrets.jwks)}'`);
  io.out(`COOKIE_KEYS=${secrets.cookieKeys.join(',')}`);
}

/** The chain id, asking again until the chain answers or waitSeconds have passed. */
async function chainIdOnceUp(rpc: string, waitSeconds: number, clock: CliClock): Promise<number> {
  const deadline = clock.now() + waitSeconds * 1000;
  for (;;) {
    try {
      return await createChainClient(rpc, 1).getChainId();
    } catch (error) {
      if (clock.now() >= deadline)
        throw new Error(`the chain at ${rpc} does not answer: ${(error as { shortMessage?: string }).shortMessage ?? (error as Error).message}`);
      await clock.sleep(CHAIN_RETRY_MS);
    }
  }
}

async function deployCommand(args: string[], io: CliOutput) {
  const { values } = parseArgs({ args, options: { rpc: { type: 'string' }, key: { type: 'string' }, wait: { type: 'string' } } });
  required(values, ['rpc']);
  const rpc = values.rpc!;
  const waitSeconds = Number(values.wait ?? 0);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0) throw new UsageError('--wait must be a number of seconds');
  const chainId = await chainIdOnceUp(rpc, waitSeconds, io.clock ?? realClock);
  const client = createChainClient(rpc, chainId, { pollingInterval: 200 });
  const account = privateKeyToAccount((values.key ?? DEPLOYER_KEY) as Hex);
  const wallet = createWalletClient({ account, chain: chainDefinition(chainId, rpc), transport: http(rpc) });
  const suite = await deployOnchainId({ wallet, client });
  io.out(`CHAIN_ID=${chainId}`);
  io.out(`IDENTITY_FACTORY=${suite.identityFactory}`);
  io.out(`# ImplementationAuthority ${suite.implementationAuthority}`);
  io.out(`# ClaimIssuer ${suite.claimIssuer} (managed by ${account.address})`);
  io.out(`# CHAINS entry: ${JSON.stringify({ chain_id: chainId, name: `chain ${chainId}`, rpc_url: rpc, identity_factory: suite.identityFactory })}`);
}

async function adminCall(url: string, token: string, path: string, body: unknown, io: CliOutput, method = 'POST') {
  const withBody = method === 'POST';
  const response = await fetch(`${url.replace(/\/$/, '')}/admin${path}`, {
    method,
    headers: {
      ...(withBody ? { 'content-type': 'application/json' } : {}),
      accept: 'application/json',
      authorization: `Bearer ${token}`,
    },
    ...(withBody ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json().catch(() => ({}))) as { error?: string; error_description?: string };
  if (!response.ok) throw new Error(`${response.status} ${json.error ?? ''}: ${json.error_description ?? 'no description'}`);
  io.out(JSON.stringify(json, null, 2));
}

/** An action word, then --name value flags (every flag takes a string). */
function actionAndFlags(args: string[], names: string[]) {
  const [action, ...rest] = args;
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  const { values } = parseArgs({ args: rest, options });
  return { action, values: values as Record<string, string | undefined> };
}

/** --chain-id as the admin API's chain_id (absent: the first configured chain). */
function chainIdFlag(text: string | undefined): { chain_id?: number } {
  if (text === undefined) return {};
  if (!CHAIN_ID_TEXT.test(text)) throw new UsageError(`--chain-id ${CHAIN_ID_RULE}`);
  return { chain_id: Number(text) };
}

async function claimsCommand(args: string[], io: CliOutput) {
  const { action, values } = actionAndFlags(args, [
    'url',
    'token',
    'identity',
    'topic',
    'data',
    'verified-claims',
    'expires-at',
    'uri',
    'claim-id',
    'chain-id',
  ]);
  const chain = chainIdFlag(values['chain-id']);
  if (action === 'issue') {
    required(values, ['url', 'token', 'identity', 'topic', 'data']);
    let data: unknown;
    try {
      data = JSON.parse(values.data!);
    } catch {
      throw new UsageError('--data must be a JSON object');
    }
    if (values['verified-claims'] !== undefined) {
      let verified: unknown;
      try {
        verified = JSON.parse(values['verified-claims']);
      } catch {
        throw new UsageError('--verified-claims must be a JSON object: { "verification": {…}, "claims": {…} }');
      }
      if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data must be a JSON object');
      data = { ...data, verified_claims: verified };
    }
    return adminCall(
      values.url!,
      values.token!,
      '/claims',
      {
        identity: values.identity,
        topic: values.topic,
        data,
        ...(values['expires-at'] ? { expires_at: values['expires-at'] } : {}),
        ...(values.uri ? { uri: values.uri } : {}),
        ...chain,
      },
      io,
    );
  }
  if (action === 'revoke') {
    required(values, ['url', 'token', 'identity', 'claim-id']);
    return adminCall(values.url!, values.token!, '/claims/revocations', { identity: values.identity, claim_id: values['claim-id'], ...chain }, io);
  }
  throw new UsageError(`unknown claims action "${action ?? ''}": use issue or revoke`);
}

async function apiKeysCommand(args: string[], io: CliOutput) {
  const { action, values } = actionAndFlags(args, ['url', 'token', 'service', 'label', 'key-id']);
  const base = () => `/services/${encodeURIComponent(values.service!)}/api-keys`;
  const keyPath = () => `${base()}/${encodeURIComponent(values['key-id']!)}`;
  if (action === 'create') {
    required(values, ['url', 'token', 'service']);
    return adminCall(values.url!, values.token!, base(), values.label === undefined ? {} : { label: values.label }, io);
  }
  if (action === 'list') {
    required(values, ['url', 'token', 'service']);
    return adminCall(values.url!, values.token!, base(), undefined, io, 'GET');
  }
  if (action === 'rotate') {
    required(values, ['url', 'token', 'service', 'key-id']);
    return adminCall(values.url!, values.token!, `${keyPath()}/rotations`, {}, io);
  }
  if (action === 'revoke') {
    required(values, ['url', 'token', 'service', 'key-id']);
    return adminCall(values.url!, values.token!, keyPath(), undefined, io, 'DELETE');
  }
  throw new UsageError(`unknown api-keys action "${action ?? ''}": use create, list, rotate or revoke`);
}

/** Runs one command; returns the exit code. */
export async function runCli(argv: string[], io: CliOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command && USAGE_OF[command] && rest.some((arg) => arg === '--help' || arg === '-h' || arg === 'help')) {
      io.out(USAGE_OF[command]!);
      return 0;
    }
    if (command === 'serve') {
      if (rest.length > 0) throw new UsageError('serve takes no arguments: Signet reads its settings from the environment');
      // Loaded only here: the other commands never load the server.
      (await import('./serve.js')).serve();
    } else if (command === '--version' || command === 'version') io.out(SIGNET_VERSION);
    else if (command === 'keys') keysCommand(rest, io);
    else if (command === 'deploy-onchainid') await deployCommand(rest, io);
    else if (command === 'claims') await claimsCommand(rest, io);
    else if (command === 'api-keys') await apiKeysCommand(rest, io);
    else if (command === undefined || command === 'help' || command === '--help' || command === '-h') io.out(USAGE);
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (error) {
    io.err(`signet: ${(error as Error).message}`);
    if (error instanceof UsageError) io.err(USAGE);
    return error instanceof UsageError ? 2 : 1;
  }
}
