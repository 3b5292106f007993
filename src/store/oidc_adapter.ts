// The oidc-provider adapter for every engine model, written once over the Store interface so
// the Redis and the memory backends behave the same (one contract test suite covers both).
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { keys } from './keys.js';
import type { Store } from './store.js';

// Models whose records belong to a grant: revoking the grant deletes them all.
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'Grant',
]);

export function createOidcAdapter(store: Store): new (model: string) => Adapter {
  return class OidcAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    private key(id: string) {
      return keys.model(this.model, id);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn = 0): Promise<void> {
      const key = this.key(id);
      const ttl = expiresIn > 0 ? expiresIn : undefined;
      await store.set(key, JSON.stringify(payload), ttl);
      // A re-saved record starts unconsumed (the engine re-saves, never re-consumes).
      await store.delete(keys.consumed(key));
      const writes: Promise<unknown>[] = [];
      if (GRANTABLE.has(this.model) && payload.grantId) {
        writes.push(store.addToIndex(keys.grantIndex(payload.grantId), key, expiresIn));
      }
      if (payload.userCode) writes.push(store.set(keys.userCode(payload.userCode), id, ttl));
      if (payload.uid) writes.push(store.set(keys.uid(payload.uid), id, ttl));
      await Promise.all(writes);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const key = this.key(id);
      const [raw, consumed] = await Promise.all([store.get(key), store.get(keys.consumed(key))]);
      if (!raw) return undefined;
      const payload = JSON.parse(raw) as AdapterPayload;
      return consumed ? { ...payload, consumed: Number(consumed) } : payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const id = await store.get(keys.uid(uid));
      return id ? this.find(id) : undefined;
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      const id = await store.get(keys.userCode(userCode));
      return id ? this.find(id) : undefined;
    }

    /** Marks the record consumed once; the first consume wins and keeps its timestamp. */
    async consume(id: string): Promise<void> {
      const key = this.key(id);
      const left = await store.ttl(key);
      if (left === undefined) return;
      // Redis rounds TTL to whole seconds: a record about to expire still gets a marker that expires.
      const ttl = left === Number.POSITIVE_INFINITY ? undefined : Math.max(1, left);
      await store.setIfAbsent(keys.consumed(key), String(Math.floor(Date.now() / 1000)), ttl);
    }

    async destroy(id: string): Promise<void> {
      const key = this.key(id);
      await store.delete(key, keys.consumed(key));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const index = keys.grantIndex(grantId);
      const members = await store.indexMembers(index);
      await store.delete(...members, ...members.map((member) => keys.consumed(member)), index);
    }
  };
}
