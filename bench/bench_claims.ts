// Claims for the claim-resource read: the first `count` bench identities let Signet's issuer
// key add claims (each wallet, funded by the deployer, adds that key as a CLAIM key), then
// Signet issues each a claim of `topic` through its admin API, on chain and with its data.
import { type Address, createWalletClient, type Hex, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainClient } from '../src/infra/chain/chain_client.js';
import { KeyPurpose } from '../src/infra/chain/contracts.js';
import { addKey } from '../src/infra/local_chain/deploy_onchainid.js';
import type { BenchChain } from './bench_chain.js';

export type ClaimHolder = { index: number; identity: Address; claimId: Hex };

/** Lets `issuerKey` add claims to the first `count` identities. */
export async function letIssuerAddClaims(chain: BenchChain, issuerKey: Hex, count: number): Promise<void> {
  const definition = chainDefinition(chain.anvil.chainId, chain.anvil.rpcUrl);
  const client = createChainClient(chain.anvil.rpcUrl, chain.anvil.chainId, { pollingInterval: 20 });
  const issuer = privateKeyToAccount(issuerKey);
  const funder = createWalletClient({ account: issuer, chain: definition, transport: http(chain.anvil.rpcUrl) });
  for (const user of chain.users.slice(0, count)) {
    const hash = await funder.sendTransaction({ to: user.wallet.address, value: parseEther('1') });
    await client.waitForTransactionReceipt({ hash });
    const wallet = createWalletClient({ account: user.wallet, chain: definition, transport: http(chain.anvil.rpcUrl) });
    await addKey({ wallet, client }, user.identity, issuer.address, KeyPurpose.CLAIM);
  }
}

/** Issues one claim of `topic` to each of the first `count` identities through Signet's admin API. */
export async function issueClaims(base: string, adminToken: string, chain: BenchChain, topic: string, count: number): Promise<ClaimHolder[]> {
  const holders: ClaimHolder[] = [];
  for (const [index, user] of chain.users.slice(0, count).entries()) {
    const response = await fetch(`${base}/admin/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ identity: user.identity, topic, data: { level: 'basic', checked_by: 'bench' } }),
    });
    const body = (await response.json()) as { claim_id?: Hex; added?: boolean };
    if (response.status !== 201 || !body.added || !body.claim_id) throw new Error(`issuing a claim: ${response.status} ${JSON.stringify(body)}`);
    holders.push({ index, identity: user.identity, claimId: body.claim_id });
  }
  return holders;
}
