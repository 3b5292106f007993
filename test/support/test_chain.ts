// A real anvil with the real ONCHAINID contracts, and viem local accounts as wallets.
import { type Address, createWalletClient, http, type LocalAccount, type PublicClient } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from '../../src/infra/chain/chain_client.js';
import { idFactoryAbi } from '../../src/infra/chain/contracts.js';
import { type Anvil, startAnvil } from '../../src/infra/local_chain/anvil.js';
import { createIdentity, type Deployer, deployOnchainId, type OnchainIdSuite } from '../../src/infra/local_chain/deploy_onchainid.js';

const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

export type TestChain = {
  anvil: Anvil;
  client: PublicClient;
  suite: OnchainIdSuite;
  deployer: Deployer;
  /** anvil's funded accounts #1..#9 as viem local accounts. */
  accounts: LocalAccount[];
  /** A Deployer-shaped handle that sends transactions from the given account. */
  as(account: LocalAccount): Deployer;
  createIdentityFor(wallet: Address, salt?: string): Promise<Address>;
  /** The identity the IdFactory links to a wallet (created earlier). */
  factoryIdentityOf(wallet: Address): Promise<Address>;
  stop(): Promise<void>;
};

export async function startTestChain(options: { chainId?: number } = {}): Promise<TestChain> {
  const anvil = await startAnvil(options);
  try {
    return await onAnvil(anvil);
  } catch (error) {
    // Failing half way (a deployment that fails), it stops its anvil: the caller never gets it.
    await anvil.stop();
    throw error;
  }
}

async function onAnvil(anvil: Anvil): Promise<TestChain> {
  const client = createChainClient(anvil.rpcUrl, anvil.chainId, { pollingInterval: 50 });
  const chain = chainDefinition(anvil.chainId, anvil.rpcUrl);
  const as = (account: LocalAccount): Deployer => ({
    wallet: createWalletClient({ account, chain, transport: http(anvil.rpcUrl) }),
    client,
  });
  const accounts = Array.from({ length: 10 }, (_, i) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i }));
  const deployer = as(accounts[0]!);
  const suite = await deployOnchainId(deployer);
  let salts = 0;
  return {
    anvil,
    client,
    suite,
    deployer,
    accounts: accounts.slice(1),
    as,
    createIdentityFor: (wallet, salt) => createIdentity(deployer, suite.identityFactory, wallet, salt ?? `test-${++salts}`),
    factoryIdentityOf: async (wallet) =>
      (await client.readContract({ address: suite.identityFactory, abi: idFactoryAbi, functionName: 'getIdentity', args: [wallet] })) as Address,
    stop: () => anvil.stop(),
  };
}
