// Signet as a claim issuer: it keeps the claim's data off-chain, puts its hash in the claim,
// signs with the ONCHAINID scheme (keccak256(abi.encode(identity, topic, hash)) as an
// Ethereum signed message), adds the claim to the identity when Signet holds a CLAIM key
// there (or returns it for the owner to add), and revokes by signature, with no action
// from the holder.
import { type Address, encodeAbiParameters, type Hex, keccak256, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { readsAsTime } from '../../base/dates.js';
import { refuse } from '../../base/errors.js';
import { createSendingClient } from '../../infra/chain/chain_client.js';
import { outsideRequestBudget } from '../../infra/chain/chain_deadline.js';
import { send } from '../../infra/chain/chain_writes.js';
import { claimIssuerAbi, identityAbi, KeyPurpose, keyOf } from '../../infra/chain/contracts.js';
import { readChain } from '../../infra/chain/read_chain.js';
import { type ClaimDocument, hashClaimDocument, newSalt } from '../claims/claim_document.js';
import { type ClaimReader, claimIdOf } from '../claims/claim_reader.js';
import type { ClaimRecords } from '../claims/claim_records.js';
import type { ClaimTopics } from '../claims/claim_topics.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';

/** ONCHAINID scheme 1: ECDSA signature over the claim. */
export const ECDSA_SCHEME = 1;

export type SignedClaim = { topic: number; scheme: number; issuer: Address; signature: Hex; data: Hex; uri: string };

export type IssueRequest = {
  identity: Address;
  topic: string;
  data: Record<string, unknown>;
  expiresAt?: string;
  uri?: string;
};

export type IssueResult = {
  claim_id: Hex;
  claim: SignedClaim;
  added: boolean;
  transaction?: Hex;
  /** When this claim replaces one Signet issued before: that one's signature, now revoked. */
  replaced?: { signature: Hex; transaction: Hex };
};

export type SignetIssuer = {
  readonly address: Address;
  issue(request: IssueRequest): Promise<IssueResult>;
  revoke(identity: Address, claimId: Hex): Promise<{ claim_id: Hex; revoked_at: string; transaction: Hex }>;
};

export function createSignetIssuer(deps: {
  address: Address;
  key: Hex;
  client: PublicClient;
  baseUrl: string;
  topics: ClaimTopics;
  records: ClaimRecords;
  reader: ClaimReader;
  registry: IdentityRegistry;
  /** The chain the claims are issued on: named in each claim's hashed document (decision 33). */
  chainId: number;
  /** How paths name an identity of that chain (a bare address means the default chain). */
  identityRef?: (identity: Address) => string;
  now: () => number;
}): SignetIssuer {
  const account = privateKeyToAccount(deps.key);
  const signer = { wallet: createSendingClient(deps.client, account), client: deps.client };

  // Waiting for a block takes longer than a request's chain budget: each call stays bounded by
  // the per-call timeout, and the admin API answers when the transaction is mined.
  const transact = async (what: string, call: Parameters<typeof send>[1]) => {
    try {
      return await outsideRequestBudget(() => send(signer, call));
    } catch (error) {
      throw refuse('chain_unavailable', `the ${what} transaction failed`, { cause: error });
    }
  };

  const revokeSignature = async (signature: Hex): Promise<Hex> => {
    const receipt = await transact('revokeClaimBySignature', {
      address: deps.address,
      abi: claimIssuerAbi,
      functionName: 'revokeClaimBySignature',
      args: [signature],
    });
    return receipt.transactionHash;
  };

  return {
    address: deps.address,

    async issue(request) {
      const topic = deps.topics.byName(request.topic);
      if (!topic) throw refuse('claim_topic_unknown', `"topic" names "${request.topic}", which is not a configured claim topic`);
      if (request.expiresAt !== undefined && !readsAsTime(request.expiresAt)) {
        throw refuse('claim_expiry_invalid', '"expires_at" must be an ISO-8601 date');
      }
      await deps.registry.assertKnown(request.identity);
      const document: ClaimDocument = {
        chain_id: deps.chainId,
        data: request.data,
        expires_at: request.expiresAt ? new Date(request.expiresAt).toISOString() : null,
      };
      const salt = newSalt();
      const hash = hashClaimDocument(document, salt);
      const claimId = claimIdOf(deps.address, topic.topic);
      const uri = request.uri ?? `${deps.baseUrl}/identities/${deps.identityRef?.(request.identity) ?? request.identity}/claims/${claimId}`;
      const digest = keccak256(
        encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }], [request.identity, BigInt(topic.topic), hash]),
      );
      const signature = await account.signMessage({ message: { raw: digest } });
      const previous = await deps.records.find(request.identity, claimId);
      await deps.records.save({
        identity: request.identity,
        claim_id: claimId,
        topic: topic.topic,
        issuer: deps.address,
        document,
        salt,
        hash,
        signature,
        uri,
        issued_at: new Date(deps.now()).toISOString(),
      });
      const claim: SignedClaim = { topic: topic.topic, scheme: ECDSA_SCHEME, issuer: deps.address, signature, data: hash, uri };

      const mayAdd = await readChain('Identity.keyHasPurpose', () =>
        deps.client.readContract({
          address: request.identity,
          abi: identityAbi,
          functionName: 'keyHasPurpose',
          args: [keyOf(account.address), KeyPurpose.CLAIM],
        }),
      );
      // The replaced claim's signature is revoked, so a copy of it can never be added back.
      const replaced = previous && !previous.revoked_at ? await revokeSignature(previous.signature) : undefined;
      const extra = replaced ? { replaced: { signature: previous!.signature, transaction: replaced } } : {};
      if (!mayAdd) {
        deps.reader.forget(request.identity);
        return { claim_id: claimId, claim, added: false, ...extra };
      }
      const receipt = await transact('addClaim', {
        address: request.identity,
        abi: identityAbi,
        functionName: 'addClaim',
        args: [BigInt(claim.topic), BigInt(claim.scheme), claim.issuer, claim.signature, claim.data, claim.uri],
      });
      deps.reader.forget(request.identity);
      return { claim_id: claimId, claim, added: true, transaction: receipt.transactionHash, ...extra };
    },

    async revoke(identity, claimId) {
      const record = await deps.records.find(identity, claimId);
      if (!record) throw refuse('claim_not_found', `Signet issued no claim ${claimId} to identity ${identity}`, { previous: 'issued_claim_not_found' });
      if (record.revoked_at) throw refuse('claim_already_revoked', `the claim was already revoked at ${record.revoked_at}`);
      const transaction = await revokeSignature(record.signature);
      const revokedAt = new Date(deps.now()).toISOString();
      await deps.records.save({ ...record, revoked_at: revokedAt });
      deps.reader.forget(identity);
      return { claim_id: claimId, revoked_at: revokedAt, transaction };
    },
  };
}
