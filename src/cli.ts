// The `signet` command line: operator tasks that are not part of the running server.
//   signet deploy-onchainid --rpc <url> [--key <deployer private key>]
import { parseArgs } from 'node:util';
import { createWalletClient, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from './chain/chain_client.js';
import { deployOnchainId } from './chain/deploy_onchainid.js';
import { DEPLOYER_KEY } from './demo/demo_accounts.js';

const USAGE = `usage:
  signet deploy-onchainid --rpc <url> [--key <0x private key>]
      Deploys the ONCHAINID suite (Identity implementation, ImplementationAuthority,
      IdFactory, ClaimIssuer) and prints the addresses as environment settings.
      Without --key it uses anvil's account #0, which only exists on a local chain.`;

async function deployCommand(args: string[]) {
  const { values } = parseArgs({ args, options: { rpc: { type: 'string' }, key: { type: 'string' } } });
  if (!values.rpc) throw new Error('--rpc is required');
  const probe = createChainClient(values.rpc, 1);
  const chainId = await probe.getChainId();
  const client = createChainClient(values.rpc, chainId, 200);
  const account = privateKeyToAccount((values.key ?? DEPLOYER_KEY) as Hex);
  const wallet = createWalletClient({ account, chain: chainDefinition(chainId, values.rpc), transport: http(values.rpc) });
  const suite = await deployOnchainId({ wallet, client });
  console.log(`CHAIN_ID=${chainId}`);
  console.log(`IDENTITY_FACTORY=${suite.identityFactory}`);
  console.log(`# ImplementationAuthority ${suite.implementationAuthority}`);
  console.log(`# ClaimIssuer ${suite.claimIssuer} (managed by ${account.address})`);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  switch (command) {
    case 'deploy-onchainid':
      return deployCommand(rest);
    default:
      console.log(USAGE);
      process.exitCode = command === undefined || command === 'help' ? 0 : 2;
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(`signet: ${error.message}`);
  process.exit(1);
});
