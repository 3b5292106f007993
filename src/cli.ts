// The `signet` command line: operator tasks beside the running server.
//   signet deploy-onchainid --rpc <url> [--key <deployer private key>]
//   signet claims issue  --url <signet> --token <admin token> --identity <0x…> --topic <name> --data '<json>' [--expires-at <iso>] [--uri <url>]
//   signet claims revoke --url <signet> --token <admin token> --identity <0x…> --claim-id <0x…>
//   signet api-keys create|list|rotate|revoke --url <signet> --token <admin token> --service <client_id> [--label <text>] [--key-id <id>]
import { parseArgs } from 'node:util';
import { createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from './chain/chain_client.js';
import { deployOnchainId } from './chain/deploy_onchainid.js';
import { DEPLOYER_KEY } from './demo/demo_accounts.js';

export const USAGE = `usage:
  signet deploy-onchainid --rpc <url> [--key <0x private key>]
      Deploys the ONCHAINID suite (Identity implementation, ImplementationAuthority,
      IdFactory, ClaimIssuer) and prints the addresses as environment settings.
      Without --key it uses anvil's account #0, which only exists on a local chain.
  signet claims issue --url <signet url> --token <admin token> --identity <0x…>
                      --topic <name> --data '<json object>' [--expires-at <ISO date>] [--uri <url>]
      Signet issues a claim as its ClaimIssuer: stores the data, signs the hash, and adds
      the claim to the identity when it holds a CLAIM key there (else prints it to add).
  signet claims revoke --url <signet url> --token <admin token> --identity <0x…> --claim-id <0x…>
      Revokes a claim Signet issued (ClaimIssuer.revokeClaimBySignature).
  signet api-keys create --url <signet url> --token <admin token> --service <client_id> [--label <text>]
  signet api-keys list   --url <signet url> --token <admin token> --service <client_id>
  signet api-keys rotate --url <signet url> --token <admin token> --service <client_id> --key-id <id>
  signet api-keys revoke --url <signet url> --token <admin token> --service <client_id> --key-id <id>
      Manages a service's API keys (sent as X-API-Key). create and rotate print the key once:
      Signet keeps only its hash. rotate revokes the old key; list shows prefixes, never secrets.`;

export type CliOutput = { out(line: string): void; err(line: string): void };

class UsageError extends Error {}

function required(values: Record<string, string | undefined>, names: string[]) {
  for (const name of names) if (!values[name]) throw new UsageError(`--${name} is required`);
}

async function deployCommand(args: string[], io: CliOutput) {
  const { values } = parseArgs({ args, options: { rpc: { type: 'string' }, key: { type: 'string' } } });
  required(values, ['rpc']);
  const rpc = values.rpc!;
  const chainId = await createChainClient(rpc, 1).getChainId();
  const client = createChainClient(rpc, chainId, { pollingInterval: 200 });
  const account = privateKeyToAccount((values.key ?? DEPLOYER_KEY) as Hex);
  const wallet = createWalletClient({ account, chain: chainDefinition(chainId, rpc), transport: http(rpc) });
  const suite = await deployOnchainId({ wallet, client });
  io.out(`CHAIN_ID=${chainId}`);
  io.out(`IDENTITY_FACTORY=${suite.identityFactory}`);
  io.out(`# ImplementationAuthority ${suite.implementationAuthority}`);
  io.out(`# ClaimIssuer ${suite.claimIssuer} (managed by ${account.address})`);
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

async function claimsCommand(args: string[], io: CliOutput) {
  const { action, values } = actionAndFlags(args, ['url', 'token', 'identity', 'topic', 'data', 'expires-at', 'uri', 'claim-id']);
  if (action === 'issue') {
    required(values, ['url', 'token', 'identity', 'topic', 'data']);
    let data: unknown;
    try {
      data = JSON.parse(values.data!);
    } catch {
      throw new UsageError('--data must be a JSON object');
    }
    return adminCall(values.url!, values.token!, '/claims', {
      identity: values.identity,
      topic: values.topic,
      data,
      ...(values['expires-at'] ? { expires_at: values['expires-at'] } : {}),
      ...(values.uri ? { uri: values.uri } : {}),
    }, io);
  }
  if (action === 'revoke') {
    required(values, ['url', 'token', 'identity', 'claim-id']);
    return adminCall(values.url!, values.token!, '/claims/revocations', { identity: values.identity, claim_id: values['claim-id'] }, io);
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
    if (command === 'deploy-onchainid') await deployCommand(rest, io);
    else if (command === 'claims') await claimsCommand(rest, io);
    else if (command === 'api-keys') await apiKeysCommand(rest, io);
    else if (command === undefined || command === 'help' || command === '--help') io.out(USAGE);
    else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (error) {
    io.err(`signet: ${(error as Error).message}`);
    if (error instanceof UsageError) io.err(USAGE);
    return error instanceof UsageError ? 2 : 1;
  }
}
