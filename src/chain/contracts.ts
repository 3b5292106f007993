// The real ONCHAINID contracts (ABIs and bytecode) from @onchain-id/solidity, typed for viem.
import onchainId from '@onchain-id/solidity';
import type { Abi, Hex } from 'viem';

type Artifact = { abi: Abi; bytecode: Hex };

const { contracts } = onchainId as unknown as { contracts: Record<string, Artifact> };

export const identityArtifact = contracts.Identity!;
export const claimIssuerArtifact = contracts.ClaimIssuer!;
export const idFactoryArtifact = contracts.Factory!;
export const implementationAuthorityArtifact = contracts.ImplementationAuthority!;

/** Key purposes of ERC-734 as ONCHAINID uses them. */
export const KeyPurpose = { MANAGEMENT: 1n, ACTION: 2n, CLAIM: 3n } as const;
export const KeyType = { ECDSA: 1n } as const;

export const identityAbi = identityArtifact.abi;
export const idFactoryAbi = idFactoryArtifact.abi;
export const claimIssuerAbi = claimIssuerArtifact.abi;
