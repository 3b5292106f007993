// Deploys an identity for a wallet that has none, through the IdFactory
// (createIdentity(wallet, salt)) with the factory owner's key, so the wallet holds the
// MANAGEMENT key. Idempotent per wallet, rate-limited per client address and per wallet
// (the deployer key pays the gas), and observable:
// the transaction is recorded in the store as pending, and whichever process reads the record
// next finishes it from the transaction's receipt, so a restart loses no deployment.
import { type Address, type Hex, type PublicClient, type TransactionReceipt, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { refuse } from '../../base/errors.js';
import { createSendingClient } from '../../infra/chain/chain_client.js';
import { chainUnavailable, isContractRefusal, isUnknownTransaction } from '../../infra/chain/chain_errors.js';
import { idFactoryAbi } from '../../infra/chain/contracts.js';
import { readChain } from '../../infra/chain/read_chain.js';
import type { Logger } from '../../infra/observability/logger.js';
import type { RateLimits } from '../../infra/rate_limits/rate_limits.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type IdentityCreation = {
  wallet: Address;
  status: 'pending' | 'deployed' | 'failed';
  transaction: Hex | null;
  identity: Address | null;
  error?: string;
  started_at: string;
};

export function createIdentityCreator(deps: {
  store: Store;
  client: PublicClient;
  factory: Address;
  deployerKey?: Hex;
  /** How the records name a wallet: the default chain's by its address (as before several chains), another's by CAIP-10. */
  walletKey?: (wallet: Address) => string;
  logger: Logger;
  limits: Pick<RateLimits, 'consume' | 'consumeAll'>;
  now: () => number;
}) {
  const { store } = deps;
  const named = deps.walletKey ?? ((owner: Address) => owner);
  const wallet = deps.deployerKey ? createSendingClient(deps.client, privateKeyToAccount(deps.deployerKey)) : undefined;

  const read = async (owner: Address) => {
    const raw = await store.get(keys.identityCreation(named(owner)));
    return raw ? (JSON.parse(raw) as IdentityCreation) : undefined;
  };
  const write = (record: IdentityCreation) => store.set(keys.identityCreation(named(record.wallet)), JSON.stringify(record), 24 * 3600);

  const identityOf = async (owner: Address) => {
    const found = await readChain('IdFactory.getIdentity', () =>
      deps.client.readContract({ address: deps.factory, abi: idFactoryAbi, functionName: 'getIdentity', args: [owner] }),
    );
    return found === zeroAddress ? undefined : found;
  };

  /** A pending record finished from its transaction's receipt, if the chain has one yet. */
  const settle = async (record: IdentityCreation): Promise<IdentityCreation> => {
    if (record.status !== 'pending' || !record.transaction) return record;
    let receipt: TransactionReceipt;
    try {
      receipt = await deps.client.getTransactionReceipt({ hash: record.transaction });
    } catch (error) {
      if (isUnknownTransaction(error)) return record;
      throw chainUnavailable('getTransactionReceipt', error);
    }
    if (receipt.status !== 'success') {
      // No wallet or transaction in the line: the transaction names the wallet on chain.
      deps.logger.error('an identity deployment failed: its transaction reverted');
      const failed: IdentityCreation = { ...record, status: 'failed', error: 'the deployment failed; try again' };
      await write(failed);
      await store.delete(keys.identityCreationLock(named(record.wallet)));
      return failed;
    }
    const deployed: IdentityCreation = { ...record, status: 'deployed', identity: (await identityOf(record.wallet)) ?? null };
    await write(deployed);
    return deployed;
  };

  const current = async (owner: Address) => {
    const record = await read(owner);
    return record ? settle(record) : undefined;
  };

  return {
    status: async (owner: Address): Promise<IdentityCreation | undefined> => {
      const record = await current(owner);
      if (record) return record;
      const existing = await identityOf(owner);
      return existing
        ? { wallet: owner, status: 'deployed', transaction: null, identity: existing, started_at: new Date(deps.now()).toISOString() }
        : undefined;
    },

    async start(owner: Address, clientAddress: string): Promise<IdentityCreation> {
      if (!wallet) throw refuse('identity_deployment_off', 'Signet does not deploy identities here: set IDENTITY_DEPLOYER_KEY');
      // A second click answers with the first one's deployment.
      const earlier = await current(owner);
      if (earlier && earlier.status !== 'failed') return earlier;
      const existing = await identityOf(owner);
      if (existing) {
        return { wallet: owner, status: 'deployed', transaction: null, identity: existing, started_at: new Date(deps.now()).toISOString() };
      }
      // One deployment per wallet at a time: a second click gets the first one's record.
      if (!(await store.setIfAbsent(keys.identityCreationLock(named(owner)), '1', 3600))) {
        const record = await read(owner);
        if (record) return record;
        throw refuse('identity_creation_in_progress', 'an identity is already being created for this wallet');
      }
      try {
        await deps.limits.consumeAll([
          ['identityCreationsPerAddress', clientAddress],
          ['identityCreationsPerWallet', owner.toLowerCase()],
        ]);
      } catch (refused) {
        await store.delete(keys.identityCreationLock(named(owner)));
        throw refused;
      }
      let transaction: Hex;
      try {
        transaction = await wallet.writeContract({
          address: deps.factory,
          abi: idFactoryAbi,
          functionName: 'createIdentity',
          // The wallet address is a salt unique to it: the factory refuses a salt twice.
          args: [owner, owner.toLowerCase()],
          account: wallet.account,
          chain: wallet.chain,
        });
      } catch (error) {
        await store.delete(keys.identityCreationLock(named(owner)));
        // The factory's own "no" (it reverted) is not an outage.
        if (isContractRefusal(error)) {
          throw refuse('deployment_refused', 'the IdFactory refused to deploy an identity for this wallet', { cause: error });
        }
        throw chainUnavailable('IdFactory.createIdentity', error);
      }
      const record: IdentityCreation = { wallet: owner, status: 'pending', transaction, identity: null, started_at: new Date(deps.now()).toISOString() };
      await write(record);
      return record;
    },
  };
}

export type IdentityCreator = ReturnType<typeof createIdentityCreator>;
