// The real ONCHAINID contracts (ABIs and bytecode) from @onchain-id/solidity, typed for viem.
import onchainId from '@onchain-id/solidity';
import { type Abi, type Address, encodeAbiParameters, type Hex, keccak256, parseAbi } from 'viem';

type Artifact = { abi: Abi; bytecode: Hex };

const { contracts } = onchainId as unknown as { contracts: Record<string, Artifact> };

export const identityArtifact = contracts.Identity!;
export const claimIssuerArtifact = contracts.ClaimIssuer!;
export const idFactoryArtifact = contracts.Factory!;
export const implementationAuthorityArtifact = contracts.ImplementationAuthority!;

/** Key purposes of ERC-734 as ONCHAINID uses them: the numbers the contract takes and answers. */
export const KeyPurpose = { MANAGEMENT: 1n, ACTION: 2n, CLAIM: 3n } as const;
export type PurposeName = keyof typeof KeyPurpose;

/** What each purpose lets its holder do, in one line, and whether its wallet signs in with it. */
const PURPOSE_MEANINGS: Record<PurposeName, { explanation: string; signsIn: boolean }> = {
  MANAGEMENT: { explanation: 'full control: adds and removes keys and claims', signsIn: true },
  ACTION: { explanation: 'signs in and approves sharing, nothing more', signsIn: true },
  CLAIM: { explanation: 'lets a claim issuer add claims to your identity; not a wallet you sign in with', signsIn: false },
};

export type Purpose = { number: number; name: PurposeName; explanation: string; signsIn: boolean };

/** Every purpose, in the contract's order (MANAGEMENT, ACTION, CLAIM). */
export const PURPOSE_LIST: readonly Purpose[] = (Object.keys(KeyPurpose) as PurposeName[]).map((name) => ({
  number: Number(KeyPurpose[name]),
  name,
  ...PURPOSE_MEANINGS[name],
}));

/** The purposes by their number, as an identity's keys list them. */
export const PURPOSES: Readonly<Record<number, Purpose>> = Object.fromEntries(PURPOSE_LIST.map((purpose) => [purpose.number, purpose]));

/** Whether a key holding these purposes signs in: MANAGEMENT or ACTION (ONCHAINID counts MANAGEMENT as every purpose). */
export const signsIn = (purposes: readonly number[]): boolean => purposes.some((purpose) => PURPOSES[purpose]?.signsIn === true);
export const KeyType = { ECDSA: 1n } as const;

// The functions Signet calls, written out so that viem types their arguments and results (the
// artifacts' JSON is typed only as Abi). test/unit/infra/chain/contracts.test.ts checks each one
// against its artifact; the artifacts stay for the bytecode and constructors (deploy_onchainid.ts).

/** ONCHAINID Identity (ERC-734 keys, ERC-735 claims). */
export const identityAbi = parseAbi([
  'function getClaim(bytes32 claimId) view returns (uint256 topic, uint256 scheme, address issuer, bytes signature, bytes data, string uri)',
  'function getClaimIdsByTopic(uint256 topic) view returns (bytes32[] claimIds)',
  'function keyHasPurpose(bytes32 key, uint256 purpose) view returns (bool result)',
  'function getKeysByPurpose(uint256 purpose) view returns (bytes32[] keys)',
  'function getKeyPurposes(bytes32 key) view returns (uint256[] purposes)',
  'function addKey(bytes32 key, uint256 purpose, uint256 keyType) returns (bool success)',
  'function removeKey(bytes32 key, uint256 purpose) returns (bool success)',
  'function addClaim(uint256 topic, uint256 scheme, address issuer, bytes signature, bytes data, string uri) returns (bytes32 claimRequestId)',
  'function removeClaim(bytes32 claimId) returns (bool success)',
]);

/** ONCHAINID IdFactory: one identity per wallet. */
export const idFactoryAbi = parseAbi([
  'function getIdentity(address wallet) view returns (address)',
  'function getWallets(address identity) view returns (address[])',
  'function createIdentity(address wallet, string salt) returns (address)',
]);

/** ONCHAINID ClaimIssuer (an Identity too: its keys read with identityAbi). */
export const claimIssuerAbi = parseAbi([
  'function isClaimValid(address identity, uint256 claimTopic, bytes sig, bytes data) view returns (bool claimValid)',
  'function isClaimRevoked(bytes sig) view returns (bool)',
  'function revokeClaimBySignature(bytes signature)',
]);

/** The ERC-734 key of an address: keccak256(abi.encode(address)). */
export function keyOf(address: Address): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }], [address]));
}
