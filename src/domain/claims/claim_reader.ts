// Reads ERC-735 claims from identity contracts and asks each claim's issuer whether it still
// stands (ClaimIssuer.isClaimValid: signed by a CLAIM key of the issuer and not revoked).
// `read` does all of that in one chain round trip (a deployless read, chain/claims_bundle.ts):
// the claim ids of the topics, the claims, their data and each issuer's word.
// Reads are cached for `cacheSeconds`; a caller about to release data asks for a fresh read.
// The cache is bounded: what exists in a large LRU, what does not (no such claim, no identity
// at the address) in a small one, so reads of made-up ids cannot grow memory or push out
// real entries.
import { LRUCache } from 'lru-cache';
import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256, type PublicClient, zeroAddress } from 'viem';
import { refuse } from '../../base/errors.js';
import { chainUnavailable, isContractRefusal } from '../../infra/chain/chain_errors.js';
import {
  type BundledClaim,
  type ClaimsBundle,
  type Linked,
  readClaimsBundle,
  readLinkedClaimsBundle,
  readWalletClaimsBundle,
} from '../../infra/chain/claims_bundle.js';
import { claimIssuerAbi, identityAbi } from '../../infra/chain/contracts.js';

/** A claim as the chain holds it (the data: the hash of the off-chain data for Signet's claims; other issuers may put other bytes). */
export type OnchainClaim = Omit<BundledClaim, 'issuerValid'>;

export type ReadOptions = { fresh?: boolean };

/** A claim with its issuer's word on it, read in the same round trip. */
export type CheckedClaim = OnchainClaim & { issuerValid: boolean };

export type ClaimsRead = {
  /** The identity's claims of each asked topic. */
  byTopic: Map<number, CheckedClaim[]>;
  /** Each asked id's claim; undefined when the identity holds no such claim. */
  byId: Map<Hex, CheckedClaim | undefined>;
};

export type ClaimReader = {
  /**
   * The claims of these topics and of these ids, each with its issuer's word, in one chain round
   * trip (none when every part is cached and not asked fresh); refuses 404 identity_not_found
   * when no identity contract is at the address.
   */
  read(identity: Address, ask: { topics?: readonly number[]; claimIds?: readonly Hex[] }, options?: ReadOptions): Promise<ClaimsRead>;
  /**
   * The identity the IdFactory links to the wallet (undefined: none) and its claims of these
   * topics with their issuers' word, in one chain round trip, always read (the cache is filled).
   */
  readOfWallet(factory: Address, wallet: Address, topics: readonly number[]): Promise<{ identity: Address | undefined; read: ClaimsRead }>;
  /**
   * Whether the IdFactory knows the identity and the wallet's key signs in on it, read live, and,
   * when both hold, its claims of these topics: one chain round trip (the cache is filled).
   */
  readOfLinked(
    factory: Address,
    identity: Address,
    wallet: Address,
    topics: readonly number[],
  ): Promise<{ known: boolean; linked: Linked; read: ClaimsRead | undefined }>;
  /** Undefined when the identity has no such claim; refuses 404 identity_not_found when no identity contract is at the address. */
  claim(identity: Address, claimId: Hex, options?: ReadOptions): Promise<OnchainClaim | undefined>;
  /** Drops what is cached about an identity (after Signet itself changed its claims). */
  forget(identity: Address): void;
};

/** ERC-735 claim id: keccak256(abi.encode(issuer, topic)). */
export function claimIdOf(issuer: Address, topic: number): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [issuer, BigInt(topic)]));
}

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

  /** Keeps a value for cacheSeconds; `miss`: it says something does not exist (kept in the small cache). */
  const remember = (key: string, value: unknown, miss: boolean) => {
    if (cacheSeconds <= 0) return;
    const entry = { value, until: now() + cacheSeconds * 1000 };
    (miss ? found : missing).delete(key);
    (miss ? missing : found).set(key, entry);
  };
  const hit = (key: string): Cached | undefined => {
    const entry = found.get(key) ?? missing.get(key);
    return entry && entry.until > now() ? entry : undefined;
  };

  /** `isMiss`: the value says something does not exist (kept in the small cache). */
  const cached = async <T>(key: string, options: ReadOptions | undefined, load: () => Promise<T>, isMiss: (value: T) => boolean): Promise<T> => {
    const kept = options?.fresh ? undefined : hit(key);
    if (kept) return kept.value as T;
    const value = await load();
    remember(key, value, isMiss(value));
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

  const validKey = (identity: Address, one: OnchainClaim) => `valid:${identity}:${one.claimId}:${one.signature}`;

  /** Every asked part from the cache, or undefined when one is missing. */
  const fromCache = (identity: Address, topics: readonly number[], claimIds: readonly Hex[]): ClaimsRead | undefined => {
    const checked = (claimId: Hex): CheckedClaim | undefined | null => {
      const entry = hit(`claim:${identity}:${claimId}`);
      if (!entry || entry.value === NO_IDENTITY) return null;
      const one = entry.value as OnchainClaim | undefined;
      if (!one) return undefined;
      const valid = hit(validKey(identity, one));
      return valid ? { ...one, issuerValid: valid.value as boolean } : null;
    };
    const byTopic = new Map<number, CheckedClaim[]>();
    for (const topic of topics) {
      const ids = hit(`ids:${identity}:${topic}`)?.value as Hex[] | undefined;
      if (!ids) return undefined;
      const claims: CheckedClaim[] = [];
      for (const id of ids) {
        const one = checked(id);
        if (one === null) return undefined;
        if (one) claims.push(one);
      }
      byTopic.set(topic, claims);
    }
    const byId = new Map<Hex, CheckedClaim | undefined>();
    for (const id of claimIds) {
      const one = checked(id);
      if (one === null) return undefined;
      byId.set(id, one);
    }
    return { byTopic, byId };
  };

  const read: ClaimReader['read'] = async (identity, ask, options) => {
    const topics = ask.topics ?? [];
    const claimIds = ask.claimIds ?? [];
    if (!options?.fresh) {
      const cachedRead = fromCache(identity, topics, claimIds);
      if (cachedRead) return cachedRead;
    }
    return kept(identity, topics, claimIds, await readClaimsBundle(client, identity, { topics, claimIds }));
  };

  /** A bundle read from the chain: cached, and answered as asked. */
  const kept = (identity: Address, topics: readonly number[], claimIds: readonly Hex[], bundle: ClaimsBundle): ClaimsRead => {
    if (!bundle.isIdentity) throw noIdentity(identity);
    const checked = new Map<Hex, CheckedClaim | undefined>();
    for (const [claimId, one] of bundle.claims) {
      // The contract answers ids in lower case; the cache keys take them as asked, so both.
      const { issuerValid, ...claimOnly } = one ?? { issuerValid: false };
      const onchain = one ? (claimOnly as OnchainClaim) : undefined;
      remember(`claim:${identity}:${claimId}`, onchain, onchain === undefined);
      if (one && onchain) remember(validKey(identity, onchain), issuerValid, false);
      checked.set(claimId, one ? { ...(claimOnly as OnchainClaim), issuerValid } : undefined);
    }
    const byTopic = new Map<number, CheckedClaim[]>();
    for (const topic of topics) {
      const ids = bundle.idsByTopic.get(topic) ?? [];
      remember(`ids:${identity}:${topic}`, ids, ids.length === 0);
      byTopic.set(
        topic,
        ids.flatMap((id) => checked.get(id) ?? []),
      );
    }
    return { byTopic, byId: new Map(claimIds.map((id) => [id, checked.get(id.toLowerCase() as Hex)])) };
  };

  return {
    read,
    async readOfWallet(factory, wallet, topics) {
      const bundle = await readWalletClaimsBundle(client, factory, wallet, topics);
      if (!bundle.identity) return { identity: undefined, read: { byTopic: new Map(), byId: new Map() } };
      return { identity: bundle.identity, read: kept(bundle.identity, topics, [], bundle) };
    },
    async readOfLinked(factory, identity, wallet, topics) {
      const bundle = await readLinkedClaimsBundle(client, factory, identity, wallet, topics);
      const holds = bundle.known && bundle.linked === 'linked';
      return { known: bundle.known, linked: bundle.linked, read: holds ? kept(identity, topics, [], bundle) : undefined };
    },
    claim,
    forget(identity) {
      for (const cache of [found, missing]) {
        const stale = [...cache.keys()].filter((key) => key.includes(`:${identity}:`));
        for (const key of stale) cache.delete(key);
      }
    },
  };
}
