// Deploys the ONCHAINID suite (Identity implementation, ImplementationAuthority, IdFactory,
// ClaimIssuer) and creates identities through the factory, as the demo and the tests need.
import { type Account, type Address, encodeAbiParameters, getAddress, type Hex, keccak256, type PublicClient, type WalletClient } from 'viem';
import { claimIssuerArtifact, identityAbi, identityArtifact, idFactoryAbi, idFactoryArtifact, implementationAuthorityArtifact, KeyType } from './contracts.js';

export type Deployer = { wallet: WalletClient & { account: Account }; client: PublicClient };

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

/** Sends one transaction and waits for it; throws if it reverted. */
export async function send(deployer: Deployer, call: { address: Address; abi: readonly unknown[]; functionName: string; args: unknown[] }) {
  const { request } = await deployer.client.simulateContract({
    ...call,
    account: deployer.wallet.account,
  } as Parameters<PublicClient['simulateContract']>[0]);
  const hash = await deployer.wallet.writeContract(request as Parameters<WalletClient['writeContract']>[0]);
  const receipt = await deployer.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
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

/** The ERC-734 key of an address: keccak256(abi.encode(address)). */
export function keyOf(address: Address): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }], [address]));
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
