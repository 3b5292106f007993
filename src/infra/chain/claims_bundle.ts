// An identity's claims in one chain round trip: the claim ids of some topics, each claim by id,
// its data, and its issuer's word on it (ClaimIssuer.isClaimValid), read by one eth_call that
// carries ClaimsReader's code (contracts/ClaimsReader.sol) instead of calling a deployed
// contract, so it runs on any EVM chain as it is. Each issuer's check has a gas cap: an
// issuer cannot make the whole read fail by burning the call's gas.
import { type Address, getAddress, type Hex, type PublicClient, parseAbi, zeroAddress } from 'viem';
import { chainUnavailable, isContractRefusal } from './chain_errors.js';
import { CLAIMS_READER_CREATION_CODE } from './claims_reader_bytecode.js';

const claimsReaderAbi = parseAbi([
  'struct Claim { bytes32 id; bool found; uint256 topic; uint256 scheme; address issuer; bytes signature; bytes data; string uri; bool valid; }',
  'function read(address identity, uint256[] topics, bytes32[] ids, uint256 validityGas) view returns (bool isIdentity, uint256[] perTopic, Claim[] claims)',
  'function readOfLinked(address factory, address identity, address wallet, uint256[] topics, uint256 validityGas) view returns (bool known, uint8 linked, bool isIdentity, uint256[] perTopic, Claim[] claims)',
  'function readOfWallet(address factory, address wallet, uint256[] topics, uint256 validityGas) view returns (address identity, bool isIdentity, uint256[] perTopic, Claim[] claims)',
]);

type RawClaim = { id: Hex; found: boolean; topic: bigint; scheme: bigint; issuer: Address; signature: Hex; data: Hex; uri: string; valid: boolean };

/** Gas one issuer's isClaimValid may use (a signature recovery and a key lookup take ~30k). */
export const VALIDITY_GAS = 500_000n;

export type BundledClaim = {
  claimId: Hex;
  topic: number;
  scheme: number;
  issuer: Address;
  signature: Hex;
  data: Hex;
  uri: string;
  /** The issuer confirms it now (false when the issuer has no code, reverts or says no). */
  issuerValid: boolean;
};

export type ClaimsBundle = {
  /** False: no contract at the address, or one that refuses the ERC-735 reads. */
  isIdentity: boolean;
  /** Claim ids per asked topic. */
  idsByTopic: Map<number, Hex[]>;
  /** Every claim read (of the topics and by id); undefined for an id the identity does not hold. */
  claims: Map<Hex, BundledClaim | undefined>;
};

export async function readClaimsBundle(
  client: PublicClient,
  identity: Address,
  ask: { topics?: readonly number[]; claimIds?: readonly Hex[] },
): Promise<ClaimsBundle> {
  const topics = ask.topics ?? [];
  const claimIds = ask.claimIds ?? [];
  let answer: readonly [boolean, readonly bigint[], readonly RawClaim[]];
  try {
    answer = await client.readContract({
      abi: claimsReaderAbi,
      code: CLAIMS_READER_CREATION_CODE,
      functionName: 'read',
      args: [identity, topics.map(BigInt), [...claimIds], VALIDITY_GAS],
    });
  } catch (error) {
    // The chain answered with a revert: what is at the address is no identity Signet can read.
    if (isContractRefusal(error)) return { isIdentity: false, idsByTopic: new Map(), claims: new Map() };
    throw chainUnavailable('ClaimsReader.read', error);
  }
  return bundleOf(topics, ...answer);
}

function bundleOf(topics: readonly number[], isIdentity: boolean, perTopic: readonly bigint[], read: readonly RawClaim[]): ClaimsBundle {
  if (!isIdentity) return { isIdentity, idsByTopic: new Map(), claims: new Map() };
  const claims = new Map<Hex, BundledClaim | undefined>();
  for (const one of read) {
    claims.set(
      one.id,
      one.found
        ? {
            claimId: one.id,
            topic: Number(one.topic),
            scheme: Number(one.scheme),
            issuer: getAddress(one.issuer),
            signature: one.signature,
            data: one.data,
            uri: one.uri,
            issuerValid: one.valid,
          }
        : undefined,
    );
  }
  const idsByTopic = new Map<number, Hex[]>();
  let at = 0;
  topics.forEach((topic, i) => {
    const count = Number(perTopic[i] ?? 0n);
    idsByTopic.set(
      topic,
      read.slice(at, at + count).map((one) => one.id),
    );
    at += count;
  });
  return { isIdentity, idsByTopic, claims };
}

/**
 * The identity the IdFactory links to `wallet` (undefined: none) and its claims of `topics`,
 * in the same one round trip. The factory is Signet's own contract: any failure is an outage.
 */
export async function readWalletClaimsBundle(
  client: PublicClient,
  factory: Address,
  wallet: Address,
  topics: readonly number[],
): Promise<ClaimsBundle & { identity: Address | undefined }> {
  let answer: readonly [Address, boolean, readonly bigint[], readonly RawClaim[]];
  try {
    answer = await client.readContract({
      abi: claimsReaderAbi,
      code: CLAIMS_READER_CREATION_CODE,
      functionName: 'readOfWallet',
      args: [factory, wallet, topics.map(BigInt), VALIDITY_GAS],
    });
  } catch (error) {
    throw chainUnavailable('ClaimsReader.readOfWallet', error);
  }
  const [identity, ...rest] = answer;
  if (identity === zeroAddress) return { identity: undefined, isIdentity: false, idsByTopic: new Map(), claims: new Map() };
  return { identity: getAddress(identity), ...bundleOf(topics, ...rest) };
}

/** What the factory and the identity say of a wallet: its key signs in, it does not, or the identity refused (no identity contract). */
export type Linked = 'linked' | 'not_linked' | 'not_an_identity';

/**
 * Whether the IdFactory knows `identity`, whether `wallet` holds a MANAGEMENT or ACTION key on
 * it, and, when both hold, its claims of `topics`: one round trip. The factory is Signet's own
 * contract: any failure is an outage.
 */
export async function readLinkedClaimsBundle(
  client: PublicClient,
  factory: Address,
  identity: Address,
  wallet: Address,
  topics: readonly number[],
): Promise<ClaimsBundle & { known: boolean; linked: Linked }> {
  let answer: readonly [boolean, number, boolean, readonly bigint[], readonly RawClaim[]];
  try {
    answer = await client.readContract({
      abi: claimsReaderAbi,
      code: CLAIMS_READER_CREATION_CODE,
      functionName: 'readOfLinked',
      args: [factory, identity, wallet, topics.map(BigInt), VALIDITY_GAS],
    });
  } catch (error) {
    throw chainUnavailable('ClaimsReader.readOfLinked', error);
  }
  const [known, linked, ...rest] = answer;
  return { known, linked: linked === 1 ? 'linked' : linked === 0 ? 'not_linked' : 'not_an_identity', ...bundleOf(topics, ...rest) };
}
