// Transactions Signet sends itself (as a claim issuer), and the demo's and the tests' deployments.
import type { Account, Address, PublicClient, WalletClient } from 'viem';

/** A wallet that sends, and the client that simulates and waits for its transactions. */
export type Deployer = { wallet: WalletClient & { account: Account }; client: PublicClient };

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
