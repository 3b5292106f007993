// Reads ERC-735 claims from identity contracts and asks each claim's issuer whether it still
// stands (ClaimIssuer.isClaimValid: signed by a CLAIM key of the issuer and not revoked).
// Reads are cached for `cacheSeconds`; a caller about to release data asks for a fresh read.
import { type Address, encodeAbiParameters, getAddress, type Hex, keccak256, type PublicClient, zeroAddress } from 'viem';
import { claimIssuerAbi, identityAbi } from '../chain/contracts.js';
import { chainUnavailable, isContractRefusal } from '../chain/chain_errors.js';
import { readChain } from '../chain/read_chain.js';

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

export function createClaimReader(client: PublicClient, cacheSeconds: number, now: () => number): ClaimReader {
  const cache = new Map<string, { value: unknown; until: number }>();

  const cached = async <T>(key: string, options: ReadOptions | undefined, load: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key);
    if (!options?.fresh && hit && hit.until > now()) return hit.value as T;
    const value = await load();
    cache.set(key, { value, until: now() + cacheSeconds * 1000 });
    return value;
  };

  const claim: ClaimReader['claim'] = (identity, claimId, options) =>
    cached(`claim:${identity}:${claimId}`, options, async () => {
      const [topic, scheme, issuer, signature, data, uri] = await readChain<[bigint, bigint, Address, Hex, Hex, string]>(
        'Identity.getClaim',
        () => client.readContract({ address: identity, abi: identityAbi, functionName: 'getClaim', args: [claimId] }),
      );
      if (issuer === zeroAddress) return undefined;
      return { claimId, topic: Number(topic), scheme: Number(scheme), issuer: getAddress(issuer), signature, data, uri };
    });

  return {
    claim,
    async claimsOf(identity, topics, options) {
      const perTopic = await Promise.all(
        topics.map(async (topic) => {
          const ids = await cached(`ids:${identity}:${topic}`, options, () =>
            readChain<readonly Hex[]>('Identity.getClaimIdsByTopic', () =>
              client.readContract({ address: identity, abi: identityAbi, functionName: 'getClaimIdsByTopic', args: [BigInt(topic)] }),
            ),
          );
          const claims = await Promise.all(ids.map((id) => claim(identity, id, options)));
          return claims.filter((found): found is OnchainClaim => found !== undefined);
        }),
      );
      return perTopic.flat();
    },
    issuerConfirms: (identity, found, options) =>
      cached(`valid:${identity}:${found.claimId}:${found.signature}`, options, async () => {
        try {
          return (await client.readContract({
            address: found.issuer,
            abi: claimIssuerAbi,
            functionName: 'isClaimValid',
            args: [identity, BigInt(found.topic), found.signature, found.data],
          })) as boolean;
        } catch (error) {
          // An issuer that is not a ClaimIssuer contract (it reverts, or has no code) confirms nothing.
          if (isContractRefusal(error)) return false;
          throw chainUnavailable('ClaimIssuer.isClaimValid', error);
        }
      }),
    forget(identity) {
      for (const key of cache.keys()) if (key.includes(`:${identity}:`)) cache.delete(key);
    },
  };
}
