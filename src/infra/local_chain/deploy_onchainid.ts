// Deploys the ONCHAINID suite (Identity implementation, ImplementationAuthority, IdFactory,
// ClaimIssuer) and creates identities through the factory, as the demo and the tests need.
import { type Address, getAddress, type Hex, type WalletClient } from 'viem';

export type { Deployer } from '../chain/chain_writes.js';

import { type Deployer, send } from '../chain/chain_writes.js';
import {
  claimIssuerArtifact,
  identityAbi,
  identityArtifact,
  idFactoryAbi,
  idFactoryArtifact,
  implementationAuthorityArtifact,
  KeyType,
  keyOf,
} from '../chain/contracts.js';

export type OnchainIdSuite = {
  identityImplementation: Address;
  implementationAuthority: Address;
  identityFactory: Address;
  claimIssuer: Address;
};

async function deploy(deployer: Deployer, artifact: { abi: readonly unknown[]; bytecode: Hex }, args: unknown[]) {
  const hash = await deployer.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    account: deployer.wallet.account,
    chain: deployer.wallet.chain,
  } as Parameters<WalletClient['deployContract']>[0]);
  const receipt = await deployer.client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`deployment ${hash} created no contract`);
  return getAddress(receipt.contractAddress);
}

export async function deployOnchainId(deployer: Deployer): Promise<OnchainIdSuite> {
  const owner = deployer.wallet.account.address;
  const identityImplementation = await deploy(deployer, identityArtifact, [owner, true]);
  const implementationAuthority = await deploy(deployer, implementationAuthorityArtifact, [identityImplementation]);
  const identityFactory = await deploy(deployer, idFactoryArtifact, [implementationAuthority]);
  const claimIssuer = await deploy(deployer, claimIssuerArtifact, [owner]);
  return { identityImplementation, implementationAuthority, identityFactory, claimIssuer };
}

/** createIdentity(wallet, salt) on the factory (owner only); returns the identity address. */
export async function createIdentity(deployer: Deployer, factory: Address, wallet: Address, salt: string) {
  await send(deployer, { address: factory, abi: idFactoryAbi, functionName: 'createIdentity', args: [wallet, salt] });
  return deployer.client.readContract({ address: factory, abi: idFactoryAbi, functionName: 'getIdentity', args: [wallet] });
}

/** addKey / removeKey on an identity, sent by a holder of its MANAGEMENT key. */
export async function addKey(manager: Deployer, identity: Address, wallet: Address, purpose: bigint) {
  return send(manager, { address: identity, abi: identityAbi, functionName: 'addKey', args: [keyOf(wallet), purpose, KeyType.ECDSA] });
}

export async function removeKey(manager: Deployer, identity: Address, wallet: Address, purpose: bigint) {
  return send(manager, { address: identity, abi: identityAbi, functionName: 'removeKey', args: [keyOf(wallet), purpose] });
}

/** A self-deployed Identity that the factory does not know, managed by `manager`. */
export async function deployLooseIdentity(deployer: Deployer, manager: Address) {
  return deploy(deployer, identityArtifact, [manager, false]);
}
