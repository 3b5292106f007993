// A code's or a token's record names the Grant the engine reads next, its Session when the
// token expires with it (read by uid), and the account whose claims it may release: the reads
// are sent as soon as the record is found, together (the Grant's and the account's in one MGET,
// the Session's in the same round trip, where the engine would make them one after the other),
// and the engine's finds take them (read_ahead.ts).
import type { AdapterPayload } from 'oidc-provider';
import { MARKED } from './adapter_models.js';
import { keys } from './keys.js';
import type { ReadAccountAhead } from './read_account_ahead.js';
import { createReadAhead } from './read_ahead.js';
import type { Store } from './store.js';

/** A record as read: its id, then its value and its consumed mark where its model has one. */
export type FoundRecord = { id: string; values: (string | undefined)[] };

/** A record's keys to read: the record, and its consumed mark where its model has one (read together). */
export const recordKeys = (model: string, key: string) => (MARKED.has(model) ? [key, keys.consumed(key)] : [key]);

export type AdapterReadAhead = {
  /** Sends the reads the engine makes after finding this record of `model`. */
  readAheadFor(model: string, payload: AdapterPayload): void;
  /** The read sent for `key`, once, if one was sent within the window. */
  take(key: string): Promise<FoundRecord | undefined> | undefined;
  /** Forgets the read sent for `key` (it is about to change). */
  drop(key: string): void;
  /** A login session by its uid's key. */
  sessionByUid(lookupKey: string): Promise<FoundRecord | undefined>;
};

export function createAdapterReadAhead(store: Store, readAccountAhead: ReadAccountAhead | undefined): AdapterReadAhead {
  const readAhead = createReadAhead<FoundRecord | undefined>();
  const readAheadFor = (model: string, payload: AdapterPayload) => {
    const { accountId, grantId, scope } = payload;
    const grantKey = typeof grantId === 'string' ? keys.model('Grant', grantId) : undefined;
    const grantKeys = grantKey ? recordKeys('Grant', grantKey) : [];
    const accountReads =
      // Up through the port into the account model (read_account_ahead.ts, decision 57).
      typeof accountId === 'string' && readAccountAhead
        ? readAccountAhead({
            model,
            accountId,
            grantId: grantKey ? (grantId as string) : undefined,
            scope: typeof scope === 'string' ? scope : undefined,
          })
        : [];
    // The Grant's record and the account's reads in one getMany: one MGET on one server.
    const values = store.getMany([...grantKeys, ...accountReads.map((read) => read.key)]);
    if (grantKey) {
      const id = grantId as string;
      readAhead.send(
        grantKey,
        values.then((all) => ({ id, values: all.slice(0, grantKeys.length) })),
      );
    }
    for (const [i, read] of accountReads.entries()) read.hold(values.then((all) => all[grantKeys.length + i]));
    if (payload.expiresWithSession && typeof payload.sessionUid === 'string') {
      const lookup = keys.uid(payload.sessionUid);
      readAhead.send(lookup, sessionByUid(lookup));
    }
  };

  // A login session is found by its uid (a token that expires with it, every use) through a copy
  // of its record kept at its uid key, written and deleted with the record: one GET, where a
  // pointer to its id took a script and two reads (docs/decisions.md, 55). A pointer written
  // before the copies (a plain id) is still followed.
  const sessionByUid = async (lookupKey: string) => {
    const [held] = await store.getMany([lookupKey]);
    if (held === undefined || held.startsWith('{')) {
      return held === undefined ? undefined : { id: String((JSON.parse(held) as AdapterPayload).jti), values: [held] };
    }
    return store.getViaLookup(lookupKey, (id) => [keys.model('Session', id)]);
  };

  return { readAheadFor, take: (key) => readAhead.take(key), drop: (key) => readAhead.drop(key), sessionByUid };
}
