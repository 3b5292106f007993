// The claims Signet issued, with their off-chain data, kept in the store by identity and
// claim id. Only the hash is onchain; the data is served only under a grant.
import type { Address, Hex } from 'viem';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';
import type { ClaimDocument } from './claim_document.js';

export type ClaimRecord = {
  identity: Address;
  claim_id: Hex;
  topic: number;
  issuer: Address;
  document: ClaimDocument;
  salt: Hex;
  hash: Hex;
  signature: Hex;
  uri: string;
  issued_at: string;
  revoked_at?: string;
};

export type ClaimRecords = {
  save(record: ClaimRecord): Promise<void>;
  find(identity: Address, claimId: Hex): Promise<ClaimRecord | undefined>;
};

export function createClaimRecords(store: Store): ClaimRecords {
  return {
    async save(record) {
      await store.set(keys.claimRecord(record.identity, record.claim_id), JSON.stringify(record));
    },
    async find(identity, claimId) {
      const raw = await store.get(keys.claimRecord(identity, claimId));
      return raw ? (JSON.parse(raw) as ClaimRecord) : undefined;
    },
  };
}
