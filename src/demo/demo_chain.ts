// The embedded demo's chain: a local anvil with the real ONCHAINID contracts deployed and a
// demo identity created through the IdFactory for anvil's account #1.
import { type Address, createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from '../infra/chain/chain_client.js';
import { KeyPurpose } from '../infra/chain/contracts.js';
import { type Anvil, startAnvil } from '../infra/local_chain/anvil.js';
import { DEMO_OWNER_KEY, DEPLOYER_KEY } from '../infra/local_chain/anvil_accounts.js';
import { addKey, createIdentity, type Deployer, deployOnchainId, type OnchainIdSuite } from '../infra/local_chain/deploy_onchainid.js';

export type DemoChain = {
  anvil: Anvil;
  suite: OnchainIdSuite;
  owner: Address;
  identity: Address;
  deployer: Deployer;
};

// The port wallets expect for a local chain; another free one if it is taken.
const USUAL_PORT = 8545;

/** `port`: the usual one for demo chain A; the next for a second (another free one if taken). */
export async function startDemoChain(chainId = 31337, port = USUAL_PORT): Promise<DemoChain> {
  const anvil = await startAnvil({ chainId, port }).catch(() => startAnvil({ chainId }));
  try {
    const client = createChainClient(anvil.rpcUrl, chainId, { pollingInterval: 100 });
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEPLOYER_KEY),
      chain: chainDefinition(chainId, anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
    });
    const deployer: Deployer = { wallet, client };
    const suite = await deployOnchainId(deployer);
    const owner = privateKeyToAccount(DEMO_OWNER_KEY);
    const identity = await createIdentity(deployer, suite.identityFactory, owner.address, 'signet-demo');
    // The owner lets Signet's issuer key (the deployer, a manager of the ClaimIssuer) add claims.
    const ownerWallet = createWalletClient({ account: owner, chain: chainDefinition(chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
    await addKey({ wallet: ownerWallet, client }, identity, wallet.account.address, KeyPurpose.CLAIM);
    return { anvil, suite, owner: owner.address, identity, deployer };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
