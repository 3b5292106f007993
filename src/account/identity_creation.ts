// Deploys an identity for a wallet that has none, through the IdFactory
// (createIdentity(wallet, salt)) with the factory owner's key, so the wallet holds the
// MANAGEMENT key. Idempotent per wallet, rate-limited per client address and per wallet
// (the deployer key pays the gas), and observable:
// the transaction is recorded as pending, then deployed.
import { type Address, createWalletClient, type Hex, http, type PublicClient, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition } from '../chain/chain_client.js';
import { idFactoryAbi } from '../chain/contracts.js';
import { notFound, SignetError, unavailable } from '../errors.js';
import type { Logger } from '../http/error_handler.js';
import type { RateLimits } from '../http/rate_limits.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';

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
  rpcUrl: string;
  chainId: number;
  factory: Address;
  deployerKey?: Hex;
  logger: Logger;
  limits: Pick<RateLimits, 'consume'>;
  now: () => number;
}) {
  const { store } = deps;
  const wallet = deps.deployerKey
    ? createWalletClient({
        account: privateKeyToAccount(deps.deployerKey),
        chain: chainDefinition(deps.chainId, deps.rpcUrl),
        transport: http(deps.rpcUrl),
      })
    : undefined;

  const read = async (owner: Address) => {
    const raw = await store.get(keys.identityCreation(owner));
    return raw ? (JSON.parse(raw) as IdentityCreation) : undefined;
  };
  const write = (record: IdentityCreation) => store.set(keys.identityCreation(record.wallet), JSON.stringify(record), 24 * 3600);

  const identityOf = async (owner: Address) => {
    const found = (await deps.client.readContract({
      address: deps.factory,
      abi: idFactoryAbi,
      functionName: 'getIdentity',
      args: [owner],
    })) as Address;
    return found === zeroAddress ? undefined : found;
  };

  /** Waits for the transaction in the background and records the outcome. */
  const follow = async (record: IdentityCreation) => {
    try {
      const receipt = await deps.client.waitForTransactionReceipt({ hash: record.transaction! });
      if (receipt.status !== 'success') throw new Error(`transaction ${record.transaction} reverted`);
      await write({ ...record, status: 'deployed', identity: (await identityOf(record.wallet)) ?? null });
    } catch (error) {
      deps.logger.error(`identity creation for ${record.wallet} failed`, error);
      await write({ ...record, status: 'failed', error: 'the deployment failed; try again' });
      await store.delete(keys.identityCreationLock(record.wallet));
    }
  };

  return {
    status: async (owner: Address): Promise<IdentityCreation | undefined> => {
      const record = await read(owner);
      if (record) return record;
      const existing = await identityOf(owner);
      return existing
        ? { wallet: owner, status: 'deployed', transaction: null, identity: existing, started_at: new Date(deps.now()).toISOString() }
        : undefined;
    },

    async start(owner: Address, clientAddress: string): Promise<IdentityCreation> {
      if (!wallet) throw notFound('Signet does not deploy identities here: set IDENTITY_DEPLOYER_KEY');
      // A second click answers with the first one's deployment.
      const earlier = await read(owner);
      if (earlier && earlier.status !== 'failed') return earlier;
      const existing = await identityOf(owner);
      if (existing) {
        return { wallet: owner, status: 'deployed', transaction: null, identity: existing, started_at: new Date(deps.now()).toISOString() };
      }
      // One deployment per wallet at a time: a second click gets the first one's record.
      if (!(await store.setIfAbsent(keys.identityCreationLock(owner), '1', 3600))) {
        const record = await read(owner);
        if (record) return record;
        throw new SignetError('conflict', 'an identity is already being created for this wallet');
      }
      try {
        await deps.limits.consume('identityCreationsPerAddress', clientAddress);
        await deps.limits.consume('identityCreationsPerWallet', owner.toLowerCase());
      } catch (refused) {
        await store.delete(keys.identityCreationLock(owner));
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
        await store.delete(keys.identityCreationLock(owner));
        throw unavailable('the identity could not be deployed now', error);
      }
      const record: IdentityCreation = { wallet: owner, status: 'pending', transaction, identity: null, started_at: new Date(deps.now()).toISOString() };
      await write(record);
      void follow(record);
      return record;
    },
  };
}

export type IdentityCreator = ReturnType<typeof createIdentityCreator>;
