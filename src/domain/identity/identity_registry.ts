// Onchain reads about identities: which identity a wallet belongs to, whether the configured
// IdFactory knows an identity, and whether a wallet holds a MANAGEMENT or ACTION key on it.
// Whether the factory knows an address is also kept a while for reads of an identity's
// resources (isKnown), in two bounded caches, so made-up addresses cannot push out known ones.
import { LRUCache } from 'lru-cache';
import { type Address, getAddress, type Hex, type PublicClient, toFunctionSelector, zeroAddress } from 'viem';
import { refuse } from '../../base/errors.js';
import type { Reason } from '../../base/reasons.js';
import { chainUnavailable, isContractRefusal } from '../../infra/chain/chain_errors.js';
import { identityAbi, idFactoryAbi, KeyPurpose, keyOf } from '../../infra/chain/contracts.js';
import { readTogether } from '../../infra/chain/multicall3.js';
import { readChain } from '../../infra/chain/read_chain.js';

export type IdentityRegistry = {
  /** The identity the factory links to this wallet, if any. */
  identityOf(wallet: Address): Promise<Address | undefined>;
  /** Refuses an identity the factory does not know: any contract can say yes to keyHasPurpose. */
  assertKnown(identity: Address): Promise<void>;
  /**
   * Whether the factory knows the address (an ONCHAINID identity it made): the answer of a live
   * read, or one kept from a read less than the cache's seconds ago. An outage is never kept.
   */
  isKnown(identity: Address): Promise<boolean>;
  /** Refuses a wallet holding neither a MANAGEMENT nor an ACTION key on the identity (live read). */
  assertLinked(identity: Address, wallet: Address): Promise<void>;
  /** assertKnown and assertLinked, both read live in one chain round trip (Multicall3). */
  assertKnownAndLinked(identity: Address, wallet: Address): Promise<void>;
};

/** What the live identity and key checks can refuse with. */
export const LINK_REFUSALS: Reason[] = ['identity_not_found', 'wallet_not_linked', 'chain_unavailable'];

export const notRegistered = (identity: Address, factory: Address) =>
  refuse('identity_not_found', `identity ${identity} is not registered with the IdFactory ${factory}`, { previous: 'identity_not_registered' });

export const notLinked = (identity: Address, wallet: Address) =>
  refuse('wallet_not_linked', `wallet ${wallet} holds no MANAGEMENT or ACTION key on identity ${identity}`);

export const notAnIdentity = (identity: Address, cause: unknown) =>
  refuse('identity_not_found', `${identity} is not an identity contract`, { cause, previous: 'identity_not_a_contract' });

/**
 * IdFactory.getIdentity(address), encoded and decoded by hand: a login that names no chain asks
 * it of every chain, and viem's readContract spent 0.49 ms of CPU per call where the same
 * eth_call sent as a plain request through the same client spends 0.32 (measured alternately).
 */
const GET_IDENTITY = toFunctionSelector('getIdentity(address)');

/** How long isKnown keeps an answer (0: never), on whose clock. */
export type KnownCache = { seconds: number; now: () => number };

/** Entries isKnown keeps: addresses the factory knows, and fewer it does not. */
export const KNOWN_CACHE_BOUNDS = { known: 10_000, unknown: 1_000 };

export function createIdentityRegistry(client: PublicClient, factory: Address, cache: KnownCache = { seconds: 0, now: Date.now }): IdentityRegistry {
  const known = new LRUCache<Address, number>({ max: KNOWN_CACHE_BOUNDS.known });
  const unknown = new LRUCache<Address, number>({ max: KNOWN_CACHE_BOUNDS.unknown });

  /** The factory's answer, read live, kept for the cache's seconds. */
  const readKnown = async (identity: Address) => {
    const wallets = await readChain('IdFactory.getWallets', () =>
      client.readContract({ address: factory, abi: idFactoryAbi, functionName: 'getWallets', args: [identity] }),
    );
    const isKnown = wallets.length > 0;
    if (cache.seconds > 0) {
      (isKnown ? unknown : known).delete(identity);
      (isKnown ? known : unknown).set(identity, cache.now() + cache.seconds * 1000);
    }
    return isKnown;
  };

  return {
    async identityOf(wallet) {
      const data: Hex = `${GET_IDENTITY}${wallet.slice(2).toLowerCase().padStart(64, '0')}`;
      const answer = await readChain('IdFactory.getIdentity', () => client.request({ method: 'eth_call', params: [{ to: factory, data }, 'latest'] }));
      // One ABI word holding an address; anything else (no code at the factory's address) is not an answer.
      if (typeof answer !== 'string' || !/^0x0{24}[0-9a-fA-F]{40}$/.test(answer)) {
        throw chainUnavailable('IdFactory.getIdentity', new Error('the IdFactory answered no address'));
      }
      const identity = getAddress(`0x${answer.slice(26)}`);
      return identity === zeroAddress ? undefined : identity;
    },

    async assertKnown(identity) {
      if (!(await readKnown(identity))) throw notRegistered(identity, factory);
    },

    async isKnown(identity) {
      const now = cache.now();
      if ((known.get(identity) ?? 0) > now) return true;
      if ((unknown.get(identity) ?? 0) > now) return false;
      return readKnown(identity);
    },

    async assertLinked(identity, wallet) {
      // keyHasPurpose answers true for a MANAGEMENT key whatever purpose is asked.
      let linked: boolean;
      try {
        linked = await client.readContract({
          address: identity,
          abi: identityAbi,
          functionName: 'keyHasPurpose',
          args: [keyOf(wallet), KeyPurpose.ACTION],
        });
      } catch (error) {
        if (isContractRefusal(error)) throw notAnIdentity(identity, error);
        throw chainUnavailable('Identity.keyHasPurpose', error);
      }
      if (!linked) throw notLinked(identity, wallet);
    },

    async assertKnownAndLinked(identity, wallet) {
      const [wallets, linked] = await readChain('IdFactory.getWallets + Identity.keyHasPurpose', () =>
        readTogether(client, [
          { address: factory, abi: idFactoryAbi, functionName: 'getWallets', args: [identity] },
          { address: identity, abi: identityAbi, functionName: 'keyHasPurpose', args: [keyOf(wallet), KeyPurpose.ACTION] },
        ]),
      );
      // The factory is Signet's own contract: a failed read of it is an outage, not an answer.
      if (wallets!.status === 'failure') throw chainUnavailable('IdFactory.getWallets', wallets!.error);
      if ((wallets!.result as readonly Address[]).length === 0) throw notRegistered(identity, factory);
      // Any failure of the identity's own call is its answer: it reverted or is no contract.
      if (linked!.status === 'failure') throw notAnIdentity(identity, linked!.error);
      if (linked!.result !== true) throw notLinked(identity, wallet);
    },
  };
}
