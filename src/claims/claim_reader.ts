// Reads ERC-735 claims from identity contracts and asks each claim's issuer whether it still
// stands (ClaimIssuer.isClaimValid: signed by a CLAIM key of the issuer and not revoked).
// Reads are cached for `cacheSeconds`; a caller about to release data asks for a fresh read.
// The cache is bounded: what exists in a large LRU, what does not (no such claim, no identity
// at the address) in a small one, so reads of made-up ids cannot grow memory or push out
// real entries.
import { LRUCache } from 'lru-cache';
import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256, type PublicClient, zeroAddress } from 'viem';
import { claimIssuerAbi, identityAbi } from '../chain/contracts.js';
import { chainUnavailable, isContractRefusal } from '../chain/chain_errors.js';
import { readChain } from '../chain/read_chain.js';
import { refuse } from '../errors.js';

export type OnchainClaim = {
  claimId: Hex;
  topic: number;
  scheme: number;
  issuer: Address;
  signature: Hex;
  /** The hash of the off-chain data (for Signet's claims; other issuers may put other bytes). */
  data: Hex;
  uri: string;
};

export type ReadOptions = { fresh?: boolean };

export type ClaimReader = {
  claimsOf(identity: Address, topics: number[], options?: ReadOptions): Promise<OnchainClaim[]>;
  /** Undefined when the identity has no such claim; refuses 404 identity_not_found when no identity contract is at the address. */
  claim(identity: Address, claimId: Hex, options?: ReadOptions): Promise<OnchainClaim | undefined>;
  /** The issuer's own word: its key signed this claim for this identity and did not revoke it. */
  issuerConfirms(identity: Address, claim: OnchainClaim, options?: ReadOptions): Promise<boolean>;
  /** Drops what is cached about an identity (after Signet itself changed its claims). */
  forget(identity: Address): void;
};

/** ERC-735 claim id: keccak256(abi.encode(issuer, topic)). */
export function claimIdOf(issuer: Address, topic: number): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [issuer, BigInt(topic)]));
}

/** Entries (and their approximate bytes) the caches keep at most. */
/** A claim as its issuer checks it. */
export type SignedClaim = { issuer: Address; topic: number; signature: Hex; data: Hex };

/**
 * Whether the claim's issuer confirms it for the identity (ClaimIssuer.isClaimValid: signed by
 * one of its CLAIM keys, not revoked), read live. An issuer that is not a ClaimIssuer contract
 * (it reverts, or has no code) confirms nothing; an unreachable chain is chain_unavailable.
 */
export async function readIssuerConfirms(client: PublicClient, identity: Address, claim: SignedClaim): Promise<boolean> {
  try {
    return await client.readContract({
      address: claim.issuer,
      abi: claimIssuerAbi,
      functionName: 'isClaimValid',
      args: [identity, BigInt(claim.topic), claim.signature, claim.data],
    });
  } catch (error) {
    if (isContractRefusal(error)) return false;
    throw chainUnavailable('ClaimIssuer.isClaimValid', error);
  }
}

export const CLAIM_CACHE_BOUNDS = { entries: 10_000, bytes: 16 * 1024 * 1024, missEntries: 1_000 };

type Cached = { value: unknown; until: number };

/** A rough size of a cached value, in bytes (its JSON's length, plus the entry's own cost). */
const sizeOf = (key: string, entry: Cached) => 2 * key.length + 2 * (JSON.stringify(entry.value ?? null)?.length ?? 4) + 64;

/** What the chain said about an address without a getClaim: no identity is there. */
const NO_IDENTITY = Symbol('no identity');

const noIdentity = (identity: Address) => refuse('identity_not_found', `${identity} is not an identity contract`);

export function createClaimReader(client: PublicClient, cacheSeconds: number, now: () => number): ClaimReader {
  const found = new LRUCache<string, Cached>({
    max: CLAIM_CACHE_BOUNDS.entries,
    maxSize: CLAIM_CACHE_BOUNDS.bytes,
    sizeCalculation: (entry, key) => sizeOf(key, entry),
  });
  const missing = new LRUCache<string, Cached>({ max: CLAIM_CACHE_BOUNDS.missEntries });

  /** `isMiss`: the value says something does not exist (kept in the small cache). */
  const cached = async <T>(key: string, options: ReadOptions | undefined, load: () => Promise<T>, isMiss: (value: T) => boolean = () => false): Promise<T> => {
    if (!options?.fresh) {
      const hit = found.get(key) ?? missing.get(key);
      if (hit && hit.until > now()) return hit.value as T;
    }
    const value = await load();
    if (cacheSeconds > 0) {
      const entry = { value, until: now() + cacheSeconds * 1000 };
      const miss = isMiss(value);
      (miss ? found : missing).delete(key);
      (miss ? missing : found).set(key, entry);
    }
    return value;
  };

  const claim: ClaimReader['claim'] = async (identity, claimId, options) => {
    const read = await cached<OnchainClaim | undefined | typeof NO_IDENTITY>(
      `claim:${identity}:${claimId}`,
      options,
      async () => {
        let answer: readonly [bigint, bigint, Address, Hex, Hex, string];
        try {
          answer = await client.readContract({ address: identity, abi: identityAbi, functionName: 'getClaim', args: [claimId] });
        } catch (error) {
          // The chain answered: no contract at the address, or one without getClaim. Not an outage.
          if (isContractRefusal(error)) return NO_IDENTITY;
          throw chainUnavailable('Identity.getClaim', error);
        }
        const [topic, scheme, issuer, signature, data, uri] = answer;
        if (issuer === zeroAddress) return undefined;
        return { claimId, topic: Number(topic), scheme: Number(scheme), issuer: getAddress(issuer), signature, data, uri };
      },
      (value) => value === undefined || value === NO_IDENTITY,
    );
    if (read === NO_IDENTITY) throw noIdentity(identity);
    return read;
  };

  return {
    claim,
    async claimsOf(identity, topics, options) {
      const perTopic = await Promise.all(
        topics.map(async (topic) => {
          const ids = await cached(
            `ids:${identity}:${topic}`,
            options,
            () =>
              readChain('Identity.getClaimIdsByTopic', () =>
                client.readContract({ address: identity, abi: identityAbi, functionName: 'getClaimIdsByTopic', args: [BigInt(topic)] }),
              ),
            (value) => value.length === 0,
          );
          const claims = await Promise.all(ids.map((id) => claim(identity, id, options)));
          return claims.filter((one): one is OnchainClaim => one !== undefined);
        }),
      );
      return perTopic.flat();
    },
    issuerConfirms: (identity, one, options) =>
      cached(`valid:${identity}:${one.claimId}:${one.signature}`, options, () => readIssuerConfirms(client, identity, one)),
    forget(identity) {
      for (const cache of [found, missing]) {
        const stale = [...cache.keys()].filter((key) => key.includes(`:${identity}:`));
        for (const key of stale) cache.delete(key);
      }
    },
  };
}
