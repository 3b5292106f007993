// Access grants in the store: the record (JSON), its status (a plain value moved by atomic
// compare-and-set), indexes per identity and per service, and the bearer tokens of grants.
// A grant lives as long as its caller says at each step (access_grants.ts): the record, its
// status and its index entries get the same TTL (0: none), so they go together.
import { createHash, randomBytes } from 'node:crypto';
import type { Address } from 'viem';
import { refuse } from '../../base/errors.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { AccessGrant, GrantStatus } from './access_grant.js';
import { deadGrantToken } from './dead_grant_token.js';

export type GrantToken = { grantId: string; expiresIn: number };

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export type AccessGrantStore = ReturnType<typeof createAccessGrantStore>;

export function createAccessGrantStore(store: Store) {
  const find = async (id: string): Promise<AccessGrant | undefined> => {
    if (!/^[A-Za-z0-9_-]{8,64}$/.test(id)) return undefined;
    const [raw, status] = await Promise.all([store.get(keys.accessGrant(id)), store.get(keys.accessGrantStatus(id))]);
    if (!raw || !status) return undefined;
    return { ...(JSON.parse(raw) as AccessGrant), status: status as GrantStatus };
  };

  /** The grant's index entries, listed as long as the grant lives (sent together: one round trip). */
  const listFor = async (grant: Pick<AccessGrant, 'id' | 'identity' | 'chain_id' | 'service' | 'resource'>, ttlSeconds: number) => {
    await Promise.all([
      store.addToIndex(keys.accessGrantsOfIdentity(identityKeyOf(grant.identity, grant.chain_id)), grant.id, ttlSeconds),
      store.addToIndex(keys.accessGrantsOfService(grant.service), grant.id, ttlSeconds),
      store.addToIndex(keys.accessGrantsOfServiceResource(grant.service, grant.resource), grant.id, ttlSeconds),
    ]);
  };

  return {
    newId: () => randomBytes(16).toString('base64url'),

    /** Stores a new grant for ttlSeconds (0: no expiry). */
    async create(grant: AccessGrant, ttlSeconds: number): Promise<void> {
      const { status, ...record } = grant;
      const ttl = ttlSeconds || undefined;
      await store.set(keys.accessGrant(grant.id), JSON.stringify(record), ttl);
      await store.set(keys.accessGrantStatus(grant.id), status, ttl);
      await listFor(grant, ttlSeconds);
    },

    find,

    /**
     * Moves a grant from one of `from` to `to`, atomically, then records `changes`; the grant
     * then lives ttlSeconds from now (0: no expiry). Of many concurrent callers exactly one
     * succeeds; the others get 409 with the status they met.
     */
    async transition(id: string, from: readonly GrantStatus[], to: GrantStatus, changes: Partial<AccessGrant>, ttlSeconds: number): Promise<AccessGrant> {
      const result = await store.compareAndSet(keys.accessGrantStatus(id), from, to, ttlSeconds);
      if (!result.swapped) {
        const state = `the access grant is ${result.current ?? 'gone'}`;
        // Its one read spent, or the grant revoked, since it was read: the token is dead.
        if (to === 'used') throw deadGrantToken({ status: result.current as GrantStatus | undefined });
        throw refuse(from.includes('pending') ? 'grant_not_pending' : 'grant_not_active', state);
      }
      const raw = await store.get(keys.accessGrant(id));
      // The record expired in the instant between the two reads (its status is on its way out too).
      if (!raw) throw refuse('grant_not_found', `no access grant ${id}`);
      const record = { ...(JSON.parse(raw) as AccessGrant), ...changes };
      const { status: _status, ...stored } = record;
      await Promise.all([store.set(keys.accessGrant(id), JSON.stringify(stored), ttlSeconds || undefined), listFor(record, ttlSeconds)]);
      return { ...record, status: to };
    },

    /** chainId: of an identity on another chain than the default one. */
    async listIds(owner: { identity?: Address; chainId?: number; service?: string }): Promise<string[]> {
      if (owner.identity) return store.indexMembers(keys.accessGrantsOfIdentity(identityKeyOf(owner.identity, owner.chainId)));
      if (owner.service) return store.indexMembers(keys.accessGrantsOfService(owner.service));
      return [];
    },

    /** The grants one service holds on one resource: what an API-key read looks at. */
    listIdsOn(service: string, resource: string): Promise<string[]> {
      return store.indexMembers(keys.accessGrantsOfServiceResource(service, resource));
    },

    /** A bearer token for one grant; only its hash is stored. */
    async issueToken(grantId: string, ttlSeconds: number): Promise<string> {
      const token = `sgt_${randomBytes(32).toString('base64url')}`;
      await store.set(keys.grantToken(tokenHash(token)), grantId, ttlSeconds);
      return token;
    },

    async tokenGrant(token: string): Promise<string | undefined> {
      return store.get(keys.grantToken(tokenHash(token)));
    },
  };
}
