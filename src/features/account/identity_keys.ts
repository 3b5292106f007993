// The wallets of an identity as its owner manages them: the MANAGEMENT and ACTION keys read
// from the contract (with the wallet address where Signet knows it), and the transactions
// that add or remove a key, for the owner's wallet to send. The last MANAGEMENT key stays.
import { type Address, encodeFunctionData, getAddress, type Hex, type PublicClient } from 'viem';
import { refuse } from '../../base/errors.js';
import { chainUnavailable, isUnknownTransaction } from '../../infra/chain/chain_errors.js';
import { identityAbi, idFactoryAbi, KeyPurpose, KeyType, keyOf, PURPOSE_LIST } from '../../infra/chain/contracts.js';
import { readChain } from '../../infra/chain/read_chain.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

export type IdentityKey = { key: Hex; purposes: number[]; address: Address | null };
export type PreparedTransaction = { to: Address; data: Hex; description: string };

export function createIdentityKeys(deps: { store: Store; client: PublicClient; factory: Address }) {
  const { client, store } = deps;
  const keysWith = (identity: Address, purpose: bigint) =>
    readChain('Identity.getKeysByPurpose', () =>
      client.readContract({ address: identity, abi: identityAbi, functionName: 'getKeysByPurpose', args: [purpose] }),
    );

  /** Wallet addresses Signet can put a name on: the factory's, and those added through Signet. */
  const knownWallets = async (identity: Address, also: Address[]): Promise<Address[]> => {
    const linked = await readChain('IdFactory.getWallets', () =>
      client.readContract({ address: deps.factory, abi: idFactoryAbi, functionName: 'getWallets', args: [identity] }),
    );
    const seen = await store.indexMembers(keys.identityWallets(identity));
    return [...new Set([...linked, ...seen, ...also].map((address) => getAddress(address)))];
  };

  const list = async (identity: Address, also: Address[] = []): Promise<IdentityKey[]> => {
    const [byPurpose, wallets] = await Promise.all([
      Promise.all(PURPOSE_LIST.map((purpose) => keysWith(identity, KeyPurpose[purpose.name]))),
      knownWallets(identity, also),
    ]);
    const byKey = new Map(wallets.map((address) => [keyOf(address).toLowerCase(), address]));
    const purposes = new Map<string, number[]>();
    PURPOSE_LIST.forEach((purpose, index) => {
      for (const key of byPurpose[index] ?? []) purposes.set(key.toLowerCase(), [...(purposes.get(key.toLowerCase()) ?? []), purpose.number]);
    });
    return [...purposes].map(([key, held]) => ({ key: key as Hex, purposes: held, address: byKey.get(key) ?? null }));
  };

  return {
    list,

    async prepare(identity: Address, wallet: Address, purpose: 'MANAGEMENT' | 'ACTION', action: 'add' | 'remove'): Promise<PreparedTransaction> {
      const key = keyOf(wallet);
      const number = Number(KeyPurpose[purpose]);
      const current = await list(identity, [wallet]);
      const held = current.find((entry) => entry.key.toLowerCase() === key.toLowerCase());
      if (action === 'add') {
        if (held?.purposes.includes(number)) throw refuse('key_already_held', `wallet ${wallet} already holds a ${purpose} key`);
        await store.addToIndex(keys.identityWallets(identity), wallet, 0);
        return {
          to: identity,
          data: encodeFunctionData({ abi: identityAbi, functionName: 'addKey', args: [key, KeyPurpose[purpose], KeyType.ECDSA] }),
          description: `Add ${wallet} as a ${purpose} key`,
        };
      }
      if (!held?.purposes.includes(number)) throw refuse('key_not_held', `wallet ${wallet} holds no ${purpose} key on this identity`);
      const managers = current.filter((entry) => entry.purposes.includes(Number(KeyPurpose.MANAGEMENT)));
      if (purpose === 'MANAGEMENT' && managers.length === 1) {
        throw refuse('last_management_key', 'the last MANAGEMENT key cannot be removed: add another one first, or the identity is lost');
      }
      return {
        to: identity,
        data: encodeFunctionData({ abi: identityAbi, functionName: 'removeKey', args: [key, KeyPurpose[purpose]] }),
        description: `Remove the ${purpose} key of ${wallet}`,
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
