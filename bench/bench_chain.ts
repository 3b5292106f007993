// The bench's chain: anvil (with Multicall3) and the ONCHAINID contracts, and one identity
// created through the IdFactory for each of `count` wallets (viem local accounts).
import { type Address, createWalletClient, http, keccak256, type LocalAccount, toHex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from '../src/infra/chain/chain_client.js';
import { idFactoryAbi } from '../src/infra/chain/contracts.js';
import { readTogether } from '../src/infra/chain/multicall3.js';
import { type Anvil, startAnvil } from '../src/infra/local_chain/anvil.js';
import { type Deployer, deployOnchainId, type OnchainIdSuite } from '../src/infra/local_chain/deploy_onchainid.js';

export type BenchChain = { anvil: Anvil; suite: OnchainIdSuite; users: { wallet: LocalAccount; identity: Address }[] };

/** `chainId`: another chain than anvil's default (31337), for a deployment with several. */
export async function startBenchChain(count: number, chainId?: number): Promise<BenchChain> {
  const anvil = await startAnvil({ chainId });
  const client = createChainClient(anvil.rpcUrl, anvil.chainId, { pollingInterval: 20 });
  const account = mnemonicToAccount('test test test test test test test test test test test junk');
  const wallet = createWalletClient({ account, chain: chainDefinition(anvil.chainId, anvil.rpcUrl), transport: http(anvil.rpcUrl) });
  const deployer: Deployer = { wallet, client };
  const suite = await deployOnchainId(deployer);
  const wallets = Array.from({ length: count }, (_, i) => privateKeyToAccount(keccak256(toHex(`signet-bench-wallet-${i}`))));
  // Sent back to back with explicit nonces (anvil mines each at once), then awaited together.
  let nonce = await client.getTransactionCount({ address: account.address });
  let last: `0x${string}` | undefined;
  for (const [i, user] of wallets.entries()) {
    last = await wallet.writeContract({
      address: suite.identityFactory,
      abi: idFactoryAbi,
      functionName: 'createIdentity',
      args: [user.address, `bench-${i}`],
      nonce: nonce++,
      gas: 3_000_000n,
    } as Parameters<typeof wallet.writeContract>[0]);
  }
  if (last) await client.waitForTransactionReceipt({ hash: last });
  const found = await readTogether(
    client,
    wallets.map((user) => ({ address: suite.identityFactory, abi: idFactoryAbi, functionName: 'getIdentity', args: [user.address] })),
  );
  const users = wallets.map((user, i) => {
    const outcome = found[i]!;
    if (outcome.status !== 'success') throw new Error(`no identity for bench wallet ${i}`);
    return { wallet: user, identity: outcome.result as Address };
  });
  return { anvil, suite, users };
}
