// The claim changes an owner makes with their own wallet: remove a claim, or add a claim an
// issuer signed and returned (checked with its issuer first, as the contract will).
import { type Address, encodeFunctionData, type Hex, type PublicClient } from 'viem';
import { refuse } from '../../base/errors.js';
import { type ClaimReader, readIssuerConfirms } from '../../domain/claims/claim_reader.js';
import { identityAbi } from '../../infra/chain/contracts.js';
import type { PreparedTransaction } from './identity_keys.js';

export type SignedClaimInput = { topic: number; scheme: number; issuer: Address; signature: Hex; data: Hex; uri: string };

export function createClaimActions(deps: { client: PublicClient; reader: ClaimReader }) {
  return {
    async prepareRemoval(identity: Address, claimId: Hex): Promise<PreparedTransaction> {
      const claim = await deps.reader.claim(identity, claimId, { fresh: true });
      if (!claim) throw refuse('claim_not_found', `identity ${identity} has no claim ${claimId}`);
      return {
        to: identity,
        data: encodeFunctionData({ abi: identityAbi, functionName: 'removeClaim', args: [claimId] }),
        description: `Remove claim ${claimId}`,
      };
    },

    async prepareAddition(identity: Address, claim: SignedClaimInput): Promise<PreparedTransaction> {
      if (!(await readIssuerConfirms(deps.client, identity, claim)))
        throw refuse('claim_not_confirmed', `the issuer ${claim.issuer} does not confirm this claim for identity ${identity}`, {
          previous: 'claim_unconfirmed_by_issuer',
        });
      return {
        to: identity,
        data: encodeFunctionData({
          abi: identityAbi,
          functionName: 'addClaim',
          args: [BigInt(claim.topic), BigInt(claim.scheme), claim.issuer, claim.signature, claim.data, claim.uri],
        }),
        description: `Add a topic ${claim.topic} claim from ${claim.issuer}`,
      };
    },

    /** After a change sent by the owner, the next reads must see it. */
    forget: (identity: Address) => deps.reader.forget(identity),
  };
}

export type ClaimActions = ReturnType<typeof createClaimActions>;
