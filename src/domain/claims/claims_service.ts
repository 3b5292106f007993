// What Signet says about an identity's claims: the public view of each (issuer, topic,
// validity, hash, uri, expiry) from cached reads, and the private data, released only after
// a fresh read finds the claim valid and its off-chain data matching the onchain hash. Each
// read of the chain is one round trip: the claims with their issuers' word (ClaimReader.read).
import type { Address, Hex } from 'viem';
import { refuse } from '../../base/errors.js';
import type { Linked } from '../../infra/chain/claims_bundle.js';
import { hashClaimDocument } from './claim_document.js';
import type { CheckedClaim, ClaimReader, OnchainClaim, ReadOptions } from './claim_reader.js';
import type { ClaimRecord, ClaimRecords } from './claim_records.js';
import type { ClaimTopics } from './claim_topics.js';

export type ClaimStatus = 'valid' | 'untrusted_issuer' | 'not_confirmed_by_issuer' | 'expired';

/** The JSON a claim is shared as, in tokens and at its resource. */
export type ClaimView = {
  claim_id: Hex;
  topic: number;
  topic_name: string | null;
  issuer: Address;
  trusted: boolean;
  valid: boolean;
  status: ClaimStatus;
  scheme: number;
  data_hash: Hex;
  uri: string;
  expires_at: string | null;
  data?: Record<string, unknown>;
};

export type ClaimsService = {
  /** The claims of these topics, as the consent page lists them (cached reads). */
  listForTopics(identity: Address, topics: number[]): Promise<ClaimView[]>;
  /**
   * The identity the IdFactory links to the wallet (undefined: none) and its claims of these
   * topics as listForTopics lists them, in one chain round trip.
   */
  listForWallet(factory: Address, wallet: Address, topics: number[]): Promise<{ identity: Address | undefined; claims: ClaimView[] }>;
  /**
   * Whether the IdFactory knows the identity and the wallet's key signs in on it (read live), and
   * then its claims of these topics as listForTopics lists them: one chain round trip.
   */
  listForLinked(factory: Address, identity: Address, wallet: Address, topics: number[]): Promise<{ known: boolean; linked: Linked; claims: ClaimView[] }>;
  /** One claim's public part (cached read); 404 if the identity has no such claim. */
  publicView(identity: Address, claimId: Hex, options?: ReadOptions): Promise<ClaimView>;
  /**
   * One claim with its data, read fresh; refuses with the reason when it cannot be released.
   * With `proof`, also what lets the reader check the data against the onchain hash itself: the
   * salt and the chain the hashed document names (a service reading under an access grant).
   */
  release(identity: Address, claimId: Hex, options?: { proof?: boolean }): Promise<ClaimView & { salt?: Hex; chain_id?: number }>;
  /** The claims kept in a grant as they stand now (fresh reads): data only where releasable; removed ones left out. */
  shared(identity: Address, claimIds: readonly Hex[]): Promise<ClaimView[]>;
};

function matchesHash(record: ClaimRecord, claim: OnchainClaim): boolean {
  return record.hash.toLowerCase() === claim.data.toLowerCase() && hashClaimDocument(record.document, record.salt) === record.hash;
}

/** What makes one of Signet's own claims stand on a chain, when several are served (decision 33). */
export type OwnClaimsOnChain = {
  chainId: number;
  /** Signet's ClaimIssuer contracts, on every chain: a claim of theirs needs this chain's record. */
  issuers: readonly Address[];
  /** The chain id its records carry (src/infra/chain/chains.ts): undefined on the default chain, whose documents may name none (from before several chains). */
  idInRecords: number | undefined;
};

/**
 * A claim Signet issued stands on a chain only with Signet's record of it on that chain, whose
 * hashed document names that chain: the issuer's signature alone does not cover the chain, so
 * a copy onto the same-address identity of another chain is not confirmed.
 */
function ownClaimStands(own: OwnClaimsOnChain, claim: OnchainClaim, current: ClaimRecord | undefined): boolean {
  if (!own.issuers.some((issuer) => issuer.toLowerCase() === claim.issuer.toLowerCase())) return true;
  if (!current || hashClaimDocument(current.document, current.salt) !== current.hash) return false;
  return current.document.chain_id === undefined ? own.idInRecords === undefined : current.document.chain_id === own.chainId;
}

export function createClaimsService(deps: {
  reader: ClaimReader;
  topics: ClaimTopics;
  records: ClaimRecords;
  now: () => number;
  /** Only with several chains: one chain's, the rule above (absent, one chain: as ever). */
  own?: OwnClaimsOnChain;
}): ClaimsService {
  const { reader, topics, records, now } = deps;

  const viewOf = async (identity: Address, claim: CheckedClaim) => {
    const record = await records.find(identity, claim.claimId);
    // Only the record that matches what is onchain tells the expiry.
    const current = record && record.hash.toLowerCase() === claim.data.toLowerCase() ? record : undefined;
    // Back on the identity after a read found it gone: its data is kept without end again.
    if (current?.gone_at) await records.onChain(current);
    const expiresAt = current?.document.expires_at ?? null;
    const trusted = topics.isTrusted(claim.issuer, claim.topic);
    // The issuer's word came with the claim, read in the same round trip (as fresh as the claim).
    const confirmed = trusted && (!deps.own || ownClaimStands(deps.own, claim, current)) && claim.issuerValid;
    let status: ClaimStatus = 'valid';
    if (!trusted) status = 'untrusted_issuer';
    else if (!confirmed) status = 'not_confirmed_by_issuer';
    else if (expiresAt && Date.parse(expiresAt) <= now()) status = 'expired';
    const view: ClaimView = {
      claim_id: claim.claimId as Hex,
      topic: claim.topic,
      topic_name: topics.byNumber(claim.topic)?.name ?? null,
      issuer: claim.issuer,
      trusted,
      valid: status === 'valid',
      status,
      scheme: claim.scheme,
      data_hash: claim.data,
      uri: claim.uri,
      expires_at: expiresAt,
    };
    return { view, record };
  };

  /** A fresh read that finds no such claim starts the end period of the data Signet keeps for it (claim_records.ts). */
  const gone = async (identity: Address, claimId: Hex, options?: ReadOptions) => {
    if (options?.fresh) await records.notOnChain(identity, claimId);
  };

  const find = async (identity: Address, claimId: Hex, options?: ReadOptions) => {
    const claim = (await reader.read(identity, { claimIds: [claimId] }, options)).byId.get(claimId);
    if (!claim) {
      await gone(identity, claimId, options);
      throw refuse('claim_not_found', `identity ${identity} has no claim ${claimId}`);
    }
    return claim;
  };

  const release = async (identity: Address, claimId: Hex, options: { proof?: boolean } = {}): Promise<ClaimView & { salt?: Hex; chain_id?: number }> => {
    const claim = await find(identity, claimId, { fresh: true });
    const { view, record } = await viewOf(identity, claim);
    if (view.status === 'untrusted_issuer') {
      throw refuse('claim_issuer_untrusted', `the issuer ${claim.issuer} is not trusted for topic ${claim.topic}`);
    }
    if (view.status === 'not_confirmed_by_issuer') {
      throw refuse('claim_not_confirmed', `the issuer ${claim.issuer} no longer confirms this claim (revoked or not signed by its key)`);
    }
    if (view.status === 'expired') throw refuse('claim_expired', `the claim expired at ${view.expires_at}`);
    if (!record) throw refuse('claim_data_missing', 'Signet holds no off-chain data for this claim');
    if (!matchesHash(record, claim)) throw refuse('claim_data_mismatch', "the claim's off-chain data does not match its onchain hash");
    if (!options.proof) return { ...view, data: record.document.data };
    const chainId = record.document.chain_id;
    return { ...view, data: record.document.data, salt: record.salt, ...(chainId === undefined ? {} : { chain_id: chainId }) };
  };

  return {
    async listForTopics(identity, topicNumbers) {
      const read = await reader.read(identity, { topics: topicNumbers });
      const claims = topicNumbers.flatMap((topic) => read.byTopic.get(topic) ?? []);
      return Promise.all(claims.map(async (claim) => (await viewOf(identity, claim)).view));
    },
    async listForWallet(factory, wallet, topicNumbers) {
      const { identity, read } = await reader.readOfWallet(factory, wallet, topicNumbers);
      if (!identity) return { identity, claims: [] };
      const claims = topicNumbers.flatMap((topic) => read.byTopic.get(topic) ?? []);
      return { identity, claims: await Promise.all(claims.map(async (claim) => (await viewOf(identity, claim)).view)) };
    },
    async listForLinked(factory, identity, wallet, topicNumbers) {
      const { known, linked, read } = await reader.readOfLinked(factory, identity, wallet, topicNumbers);
      const claims = read ? topicNumbers.flatMap((topic) => read.byTopic.get(topic) ?? []) : [];
      return { known, linked, claims: await Promise.all(claims.map(async (claim) => (await viewOf(identity, claim)).view)) };
    },
    async publicView(identity, claimId, options) {
      return (await viewOf(identity, await find(identity, claimId, options))).view;
    },
    release,
    async shared(identity, claimIds) {
      if (claimIds.length === 0) return [];
      // Every kept claim and its issuer's word, fresh, in one round trip.
      const read = await reader.read(identity, { claimIds }, { fresh: true });
      const views = await Promise.all(
        claimIds.map(async (claimId) => {
          const claim = read.byId.get(claimId);
          // A claim removed from the identity is no longer shared.
          if (!claim) {
            await gone(identity, claimId, { fresh: true });
            return undefined;
          }
          const { view, record } = await viewOf(identity, claim);
          return view.valid && record && matchesHash(record, claim) ? { ...view, data: record.document.data } : view;
        }),
      );
      return views.filter((view): view is ClaimView => view !== undefined);
    },
  };
}
