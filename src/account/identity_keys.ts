// The wallets of an identity as its owner manages them: the MANAGEMENT and ACTION keys read
// from the contract (with the wallet address where Signet knows it), and the transactions
// that add or remove a key, for the owner's wallet to send. The last MANAGEMENT key stays.
import { type Address, encodeFunctionData, getAddress, type Hex, type PublicClient } from 'viem';
import { identityAbi, idFactoryAbi, KeyPurpose, KeyType } from '../chain/contracts.js';
import { chainUnavailable, isUnknownTransaction } from '../chain/chain_errors.js';
import { readChain } from '../chain/read_chain.js';
import { keyOf } from '../chain/deploy_onchainid.js';
import { refuse } from '../errors.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';

export type IdentityKey = { key: Hex; purposes: number[]; address: Address | null };
export type PreparedTransaction = { to: Address; data: Hex; description: string };

export const PURPOSE_NAMES: Record<number, string> = { 1: 'MANAGEMENT', 2: 'ACTION', 3: 'CLAIM' };

export function createIdentityKeys(deps: { store: Store; client: PublicClient; factory: Address }) {
  const { client, store } = deps;
  const keysWith = (identity: Address, purpose: bigint) =>
    readChain<readonly Hex[]>('Identity.getKeysByPurpose', () =>
      client.readContract({ address: identity, abi: identityAbi, functionName: 'getKeysByPurpose', args: [purpose] }),
    );

  /** Wallet addresses Signet can put a name on: the factory's, and those added through Signet. */
  const knownWallets = async (identity: Address, also: Address[]): Promise<Address[]> => {
    const linked = await readChain<readonly Address[]>('IdFactory.getWallets', () =>
      client.readContract({ address: deps.factory, abi: idFactoryAbi, functionName: 'getWallets', args: [identity] }),
    );
    const seen = await store.indexMembers(keys.identityWallets(identity));
    return [...new Set([...linked, ...seen, ...also].map((address) => getAddress(address)))];
  };

  const list = async (identity: Address, also: Address[] = []): Promise<IdentityKey[]> => {
    const [management, action, claim, wallets] = await Promise.all([
      keysWith(identity, KeyPurpose.MANAGEMENT),
      keysWith(identity, KeyPurpose.ACTION),
      keysWith(identity, KeyPurpose.CLAIM),
      knownWallets(identity, also),
    ]);
    const byKey = new Map(wallets.map((address) => [keyOf(address).toLowerCase(), address]));
    const purposes = new Map<string, number[]>();
    for (const [purpose, list] of [[1, management], [2, action], [3, claim]] as const) {
      for (const key of list) purposes.set(key.toLowerCase(), [...(purposes.get(key.toLowerCase()) ?? []), purpose]);
    }
    return [...purposes].map(([key, held]) => ({ key: key as Hex, purposes: held, address: byKey.get(key) ?? null }));
  };

  return {
    list,

    async prepare(identity: Address, wallet: Address, purpose: 1 | 2, action: 'add' | 'remove'): Promise<PreparedTransaction> {
      const key = keyOf(wallet);
      const current = await list(identity, [wallet]);
      const held = current.find((entry) => entry.key.toLowerCase() === key.toLowerCase());
      if (action === 'add') {
        if (held?.purposes.includes(purpose)) throw refuse('key_already_held', `wallet ${wallet} already holds a ${PURPOSE_NAMES[purpose]} key`);
        await store.addToIndex(keys.identityWallets(identity), wallet, 0);
        return {
          to: identity,
          data: encodeFunctionData({ abi: identityAbi, functionName: 'addKey', args: [key, BigInt(purpose), KeyType.ECDSA] }),
          description: `Add ${wallet} as a ${PURPOSE_NAMES[purpose]} key`,
        };
      }
      if (!held?.purposes.includes(purpose)) throw refuse('key_not_held', `wallet ${wallet} holds no ${PURPOSE_NAMES[purpose]} key on this identity`);
      const managers = current.filter((entry) => entry.purposes.includes(1));
      if (purpose === 1 && managers.length === 1) {
        throw refuse('last_management_key', 'the last MANAGEMENT key cannot be removed: add another one first, or the identity is lost');
      }
      return {
        to: identity,
        data: encodeFunctionData({ abi: identityAbi, functionName: 'removeKey', args: [key, BigInt(purpose)] }),
        description: `Remove the ${PURPOSE_NAMES[purpose]} key of ${wallet}`,
      };
    },

    async transactionStatus(hash: Hex): Promise<'pending' | 'confirmed' | 'failed'> {
      try {
        const receipt = await client.getTransactionReceipt({ hash });
        return receipt.status === 'success' ? 'confirmed' : 'failed';
      } catch (error) {
        // "No receipt yet" is pending; an unreachable chain is not.
        if (isUnknownTransaction(error)) return 'pending';
        throw chainUnavailable('getTransactionReceipt', error);
      }
    },
  };
}

export type IdentityKeys = ReturnType<typeof createIdentityKeys>;
