// Consent receipts: the exact message an owner signed and the signature, kept with the
// engine's Grant (same id) so the owner can read what they approved, and after it for
// retention.receiptDays as proof (the caller gives the whole life). The identity's index lists
// each receipt as long as it lives, and so does the client's: deleting a client ends its login
// grants (src/domain/clients/client_removal.ts).
import type { Address } from 'viem';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import { createGetsAhead, type ReadToSend } from '../../infra/store/read_ahead.js';
import type { Store } from '../../infra/store/store.js';
import type { VerifiedPick } from '../fields/verified_fields.js';

export type ConsentReceipt = {
  grant_id: string;
  client_id: string;
  identity: Address;
  /** The identity's chain, as records name it (absent: the default chain, as before several chains; src/infra/chain/chains.ts). */
  chain_id?: number;
  wallet: Address;
  fields: string[];
  /** Ids of the onchain claims shared (lower-case hex). */
  claims: string[];
  /** The verified claims shared as `verified_claims`, claim by claim (absent in receipts from before them). */
  verified?: VerifiedPick[];
  message: string;
  signature: string;
  signed_at: string;
};

export type ConsentReceipts = {
  save(receipt: ConsentReceipt, ttlSeconds: number): Promise<void>;
  find(grantId: string): Promise<ConsentReceipt | undefined>;
  /** The receipt's read, to send now with the other reads of that moment, for the `find` that follows shortly (the engine found a token of its grant). */
  readAhead(grantId: string): ReadToSend;
  /** The receipts of an identity; of another chain than the default one, given its chain_id. */
  listFor(identity: Address, chainId?: number): Promise<ConsentReceipt[]>;
  /** The grant ids of a client's receipts: its login grants, live or ended. */
  grantIdsOf(clientId: string): Promise<string[]>;
  /** The client's index, once the client is deleted. */
  forgetClient(clientId: string): Promise<void>;
};

export function createConsentReceipts(store: Store): ConsentReceipts {
  const reads = createGetsAhead(store);
  const find = async (grantId: string) => {
    const raw = await reads.get(keys.consent(grantId));
    return raw ? (JSON.parse(raw) as ConsentReceipt) : undefined;
  };
  return {
    readAhead: (grantId) => reads.toSend(keys.consent(grantId)),
    async save(receipt, ttl) {
      reads.drop(keys.consent(receipt.grant_id));
      // Sent together, one round trip (keys of different cluster slots, so no script). An
      // index entry whose receipt did not land is skipped by listFor.
      await Promise.all([
        store.set(keys.consent(receipt.grant_id), JSON.stringify(receipt), ttl),
        store.addToIndex(keys.consentsOf(identityKeyOf(receipt.identity, receipt.chain_id)), receipt.grant_id, ttl),
        store.addToIndex(keys.clientLogins(receipt.client_id), receipt.grant_id, ttl),
      ]);
    },
    find,
    async listFor(identity, chainId) {
      const ids = await store.indexMembers(keys.consentsOf(identityKeyOf(identity, chainId)));
      const receipts = await Promise.all(ids.map(find));
      return receipts.filter((receipt): receipt is ConsentReceipt => receipt !== undefined).sort((a, b) => b.signed_at.localeCompare(a.signed_at));
    },
    grantIdsOf: (clientId) => store.indexMembers(keys.clientLogins(clientId)),
    forgetClient: (clientId) => store.delete(keys.clientLogins(clientId)),
  };
}
