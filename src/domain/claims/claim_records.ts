// The claims Signet issued, with their off-chain data, kept in the store by identity and
// claim id, and listed per identity. Only the hash is onchain; the data is served only under a
// grant. A record is kept while its claim stands; once the claim is revoked, or a fresh read
// finds it gone from the identity, the data is kept retention.endedClaimDays more (so a
// service holding a grant sees why the data went), then goes. A claim found back on the
// identity before then is kept without end again.
import type { Address, Hex } from 'viem';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
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
  /** When a fresh read first found the claim no longer on the identity (removed by its owner). */
  gone_at?: string;
};

export type ClaimRecords = {
  save(record: ClaimRecord): Promise<void>;
  find(identity: Address, claimId: Hex): Promise<ClaimRecord | undefined>;
  /** Every record kept for the identity (export and erasure find them here). */
  listFor(identity: Address): Promise<ClaimRecord[]>;
  /** A fresh read found no claim `claimId` on the identity: a record of it starts its end period (once). */
  notOnChain(identity: Address, claimId: Hex): Promise<void>;
  /** A read found the record's claim on the identity: a record that had started its end period is kept without end again. */
  onChain(record: ClaimRecord): Promise<void>;
};

export type ClaimRecordSettings = {
  /** How long the data of a revoked or removed claim is kept (retention.endedClaimDays). */
  endedClaimSeconds: number;
};

export function createClaimRecords(
  store: Store,
  settings: ClaimRecordSettings,
  now: () => number = Date.now,
  /** How keys name an identity of the records' chain (src/infra/chain/chains.ts, identityKey). */
  identityKey: (identity: Address) => string = (identity) => identity,
): ClaimRecords {
  const keyOf = (record: Pick<ClaimRecord, 'identity' | 'claim_id'>) => keys.claimRecord(identityKey(record.identity), record.claim_id);
  const indexOf = (identity: Address) => keys.claimRecordsOf(identityKey(identity));
  const find = async (identity: Address, claimId: Hex) => {
    const raw = await store.get(keys.claimRecord(identityKey(identity), claimId));
    return raw ? (JSON.parse(raw) as ClaimRecord) : undefined;
  };
  /** Writes the record and its index entry with one life (0: no end), sent together. */
  const write = async (record: ClaimRecord, ttlSeconds: number) => {
    await Promise.all([
      store.set(keyOf(record), JSON.stringify(record), ttlSeconds || undefined),
      store.addToIndex(indexOf(record.identity), record.claim_id.toLowerCase(), ttlSeconds),
    ]);
  };
  /**
   * Replaces the record only if it is still the one read (JSON.stringify of a parsed record
   * gives the stored text back), so a claim issued again meanwhile is never overwritten.
   */
  const replace = async (read: ClaimRecord, next: ClaimRecord, ttlSeconds: number) => {
    const { swapped } = await store.compareAndSet(keyOf(read), [JSON.stringify(read)], JSON.stringify(next), ttlSeconds);
    if (swapped) await store.addToIndex(indexOf(read.identity), read.claim_id.toLowerCase(), ttlSeconds);
  };
  return {
    async save(record) {
      await write(record, record.revoked_at ? settings.endedClaimSeconds : 0);
    },
    find,
    async listFor(identity) {
      const ids = await store.indexMembers(indexOf(identity));
      const found = ids.length ? await store.getMany(ids.map((id) => keys.claimRecord(identityKey(identity), id))) : [];
      return found.filter((raw): raw is string => raw !== undefined).map((raw) => JSON.parse(raw) as ClaimRecord);
    },
    async notOnChain(identity, claimId) {
      const record = await find(identity, claimId);
      if (!record || record.revoked_at || record.gone_at) return;
      await replace(record, { ...record, gone_at: new Date(now()).toISOString() }, settings.endedClaimSeconds);
    },
    async onChain(record) {
      if (!record.gone_at || record.revoked_at) return;
      const { gone_at: _gone, ...kept } = record;
      await replace(record, kept, 0);
    },
  };
}
