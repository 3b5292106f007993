// The oidc-provider adapter for every engine model, written once over the Store interface so
// the Redis and the memory backends behave the same (one contract test suite covers both).
// Round trips: find is one read (the record, with its consumed mark where its model is single
// use), a find by uid or user code one too (the lookup with them), upsert one atomic write,
// consume one atomic decision.
import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { defaultNumber } from '../../config/config.js';
import { CONSUMABLE, GRANTABLE, LEADS_TO_GRANT, RESAVED } from './adapter_models.js';
import { createAdapterReadAhead, recordKeys } from './adapter_read_ahead.js';
import { type ClientRecord, type ClientRecords, createClientRecords } from './client_records.js';
import { keys } from './keys.js';
import type { ReadAccountAhead } from './read_account_ahead.js';
import { rememberedOfRead } from './remembered_of_read.js';
import type { BoundedIndex, Store } from './store.js';

/** How long a consumed code or refresh token is kept for reuse detection, unless it expires sooner. */
export const DEFAULT_REUSE_WINDOW_SECONDS = 600;

/** Live access tokens a grant holds at most (tokenLimits.accessTokensPerGrant, decision 45). */
export const DEFAULT_ACCESS_TOKENS_PER_GRANT = defaultNumber('tokenLimits.accessTokensPerGrant');
/** Live client credentials tokens a client holds at most (tokenLimits.clientCredentialsPerClient). */
export const DEFAULT_CLIENT_CREDENTIALS_PER_CLIENT = defaultNumber('tokenLimits.clientCredentialsPerClient');

export type OidcAdapterOptions = {
  /**
   * How long a consumed code or refresh token stays, for reuse detection (its own expiry if
   * sooner). A reuse within it revokes the grant; after it the token is unknown (refused all
   * the same). Signet uses the access token's life: the tokens issued with it live as long.
   */
  reuseWindowSeconds?: number;
  /**
   * The most live access tokens one grant holds: an issuance past it (a refresh, mostly) deletes
   * the grant's oldest before the new one is handed out (docs/data.md). The grant keeps as many
   * consumed refresh tokens for reuse detection, the latest: those whose refreshes issued its
   * live ones.
   */
  accessTokensPerGrant?: number;
  /** The most live client credentials tokens one client holds (they have no grant): past it, the client's oldest go. */
  clientCredentialsPerClient?: number;
  /**
   * The port the account model fills (read_account_ahead.ts): told of the account a code or
   * token names as soon as its record is found, it names the reads its claims or checks make
   * next, which go out with the Grant's, in the same MGET.
   */
  readAccountAhead?: ReadAccountAhead;
  /** The engine's Client model: Signet's client records (src/infra/store/client_records.ts), shared with its registry. */
  clients?: ClientRecords;
  /**
   * Dynamic registration (RFC 7591, 7592) is the only way the engine itself saves or deletes a
   * client: what a client must pass before it is saved (throwing the engine's
   * InvalidClientMetadata or InvalidRedirectUri), and what deleting one does besides.
   */
  registeredClients?: {
    save(record: ClientRecord): Promise<void>;
    tokenLifeOf(clientId: string): Promise<number | undefined>;
    remove(clientId: string): Promise<void>;
  };
};

// A revoked grant refuses new records this long: enough for any request that was already
// issuing tokens under it when it was revoked (a parallel redemption's winner) to finish.
export const REVOKED_GRANT_MEMORY_SECONDS = 3600;

// How long a replay mark lives: longer than the engine's acceptance window of a DPoP proof or
// client assertion (five minutes). The mark written by `find` is the record; the engine's save
// that follows would only write it again (a second round trip on every proof).
const REPLAY_MARK_SECONDS = 600;

// What the engine says when it finds a record already consumed, said by the loser of a race.
const REFUSALS: Record<string, () => Error> = {
  AuthorizationCode: () => new errors.InvalidGrant('authorization code already consumed'),
  RefreshToken: () => new errors.InvalidGrant('refresh token already used'),
  DeviceCode: () => new errors.InvalidGrant('device code already consumed'),
  BackchannelAuthenticationRequest: () => new errors.InvalidGrant('backchannel authentication request already consumed'),
  PushedAuthorizationRequest: () => new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used'),
};

const epochSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The key of the copy a login session record keeps at its uid (written and deleted with it), from
 * the record as stored; none for a record that names no uid or cannot be read (a corrupt key must
 * not stop the deletion of the others).
 */
export function sessionCopyKeyOf(raw: string | undefined): string | undefined {
  try {
    const uid = raw ? (JSON.parse(raw) as { uid?: unknown }).uid : undefined;
    return typeof uid === 'string' ? keys.uid(uid) : undefined;
  } catch {
    return undefined;
  }
}

export function createOidcAdapter(store: Store, options: OidcAdapterOptions = {}): new (model: string) => Adapter {
  const reuseWindowSeconds = options.reuseWindowSeconds ?? DEFAULT_REUSE_WINDOW_SECONDS;
  const accessTokensPerGrant = options.accessTokensPerGrant ?? DEFAULT_ACCESS_TOKENS_PER_GRANT;
  const clientCredentialsPerClient = options.clientCredentialsPerClient ?? DEFAULT_CLIENT_CREDENTIALS_PER_CLIENT;
  // An evicted consumed record goes with its mark.
  const markSuffix = keys.consumed('');
  const clients = options.clients ?? createClientRecords(store);
  // The engine reads a single-use record (find), then consumes it by id alone, in the same
  // request of the same process. The grant read here names the index whose member the consume
  // re-times, with no read of its own (no round trip added to a refresh).
  const grantOfRead = rememberedOfRead();
  // The engine reads a login session by its cookie before it destroys it (a logout, a login that
  // gives it a new id): its uid, read here, names the copy the destroy deletes with it.
  const uidOfRead = rememberedOfRead();

  const readAhead = createAdapterReadAhead(store, options.readAccountAhead);
  const { readAheadFor, sessionByUid } = readAhead;

  /** Deletes every record of a grant and refuses any record written under it afterwards. */
  const revokeGrant = async (grantId: string) => {
    readAhead.drop(keys.model('Grant', grantId));
    // The grant's records, its access tokens (listed in their bounded index alone) and its kept
    // consumed refresh tokens (listed in both); the tombstone refuses new members.
    const indexes = [keys.grantIndex(grantId), keys.grantAccessTokens(grantId), keys.grantUsedRefreshTokens(grantId)];
    const members = await store.closeIndexes(indexes, keys.revokedGrant(grantId), REVOKED_GRANT_MEMORY_SECONDS);
    await store.delete(...members, ...members.map((member) => keys.consumed(member)));
  };

  return class OidcAdapter implements Adapter {
    readonly model: string;

    constructor(model: string) {
      this.model = model;
    }

    private key(id: string) {
      // A registration access token lives until its client goes (docs/data.md): a key of its own.
      return this.model === 'RegistrationAccessToken' ? keys.registrationToken(id) : keys.model(this.model, id);
    }

    /**
     * The bounded index this model's record joins: a grant's access tokens, a client's client
     * credentials tokens. Past the bound, the oldest of them are deleted as this one is written.
     */
    private boundOf(payload: AdapterPayload, grantId: string | undefined): BoundedIndex | undefined {
      if (this.model === 'AccessToken' && grantId) return { key: keys.grantAccessTokens(grantId), atMost: accessTokensPerGrant };
      if (this.model === 'ClientCredentials' && typeof payload.clientId === 'string') {
        return { key: keys.clientCredentialsOf(payload.clientId), atMost: clientCredentialsPerClient };
      }
      return undefined;
    }

    /** The record indexes this model's records join. */
    private indexesOf(payload: AdapterPayload, grantId: string | undefined): string[] {
      // An access token is listed in its grant's bounded index alone (boundOf), which the
      // grant's revocation closes with the records index: one join per token, not two.
      if (grantId && this.model === 'AccessToken') return [];
      if (grantId) return [keys.grantIndex(grantId)];
      // A login session is found by its subject too, so that an erasure can end it.
      if (this.model === 'Session' && payload.accountId) return [keys.engineSessionsOf(payload.accountId)];
      // A client's registration access tokens go with the client.
      if (this.model === 'RegistrationAccessToken' && payload.clientId) return [keys.registrationTokensOf(payload.clientId)];
      return [];
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn = 0): Promise<void> {
      if (this.model === 'Client') {
        const record = { ...payload, client_id: id } as ClientRecord;
        return options.registeredClients ? options.registeredClients.save(record) : clients.save(record);
      }
      // A registered client's access token lives no longer than the client while it is unused.
      if (this.model === 'RegistrationAccessToken' && options.registeredClients && typeof payload.clientId === 'string') {
        expiresIn = (await options.registeredClients.tokenLifeOf(payload.clientId)) ?? expiresIn;
      }
      // `find` wrote the mark atomically; it already outlives the acceptance window.
      if (this.model === 'ReplayDetection') return;
      const key = this.key(id);
      readAhead.drop(key);
      if (payload.uid) readAhead.drop(keys.uid(payload.uid));
      const grantId = GRANTABLE.has(this.model) ? payload.grantId : undefined;
      const aliases = [];
      if (payload.userCode) aliases.push({ key: keys.userCode(payload.userCode), value: id });
      const value = JSON.stringify(payload);
      // A login session's uid key holds a copy of it; another model's, its id.
      if (payload.uid) aliases.push({ key: keys.uid(payload.uid), value: this.model === 'Session' ? value : id });
      // A record of a revoked grant is not written: the tokens a request was still issuing when
      // the grant was revoked never exist, so they cannot be used.
      await store.putRecord({
        key,
        value,
        ttlSeconds: expiresIn > 0 ? expiresIn : undefined,
        unless: grantId ? keys.revokedGrant(grantId) : undefined,
        // A re-saved record starts unconsumed (the engine re-saves, never re-consumes).
        clear: RESAVED.has(this.model) ? [keys.consumed(key)] : [],
        aliases,
        indexes: this.indexesOf(payload, grantId),
        bounded: this.boundOf(payload, grantId),
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      // The shared frozen record: the engine builds its client from it without changing it.
      if (this.model === 'Client') return clients.look(id) as Promise<AdapterPayload | undefined>;
      const key = this.key(id);
      // The engine asks "seen before?" (find) and then records the id (upsert): two steps, so two
      // processes could both pass with the same DPoP proof or client assertion. Here the find is
      // the decision: the first asker marks the id atomically and hears "never seen"; the
      // engine's upsert then gives the mark its true expiry.
      if (this.model === 'ReplayDetection') {
        const first = await store.setIfAbsent(key, JSON.stringify({ jti: id }), REPLAY_MARK_SECONDS);
        return first ? undefined : { jti: id };
      }
      const ahead = readAhead.take(key);
      const [raw, consumed] = ahead ? ((await ahead)?.values ?? []) : await store.getMany(recordKeys(this.model, key));
      const payload = this.payloadOf(key, raw, consumed);
      if (this.model === 'Session' && typeof payload?.uid === 'string') uidOfRead.remember(key, payload.uid);
      return payload;
    }

    private payloadOf(key: string, raw: string | undefined, consumed: string | undefined): AdapterPayload | undefined {
      if (!raw) return undefined;
      const payload = JSON.parse(raw) as AdapterPayload;
      if (CONSUMABLE.has(this.model) && GRANTABLE.has(this.model) && payload.grantId && !consumed) grantOfRead.remember(key, payload.grantId);
      if (LEADS_TO_GRANT.has(this.model)) readAheadFor(this.model, payload);
      // An Interaction that carries the owner's consent names the Grant the engine's resume reads
      // next (after deleting the Interaction): the read goes out with that delete, one round trip.
      if (this.model === 'Interaction') {
        const grantId = (payload.result as { consent?: { grantId?: unknown } } | undefined)?.consent?.grantId;
        if (typeof grantId === 'string') readAheadFor(this.model, { grantId });
      }
      return consumed ? { ...payload, consumed: Number(consumed) } : payload;
    }

    /** A record found by a lookup (uid, user code): the lookup, the record and its mark in one read. */
    private async findVia(lookupKey: string): Promise<AdapterPayload | undefined> {
      const read = this.model === 'Session' ? () => sessionByUid(lookupKey) : () => store.getViaLookup(lookupKey, (id) => recordKeys(this.model, this.key(id)));
      const found = await (readAhead.take(lookupKey) ?? read());
      return found ? this.payloadOf(this.key(found.id), found.values[0], found.values[1]) : undefined;
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findVia(keys.uid(uid));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findVia(keys.userCode(userCode));
    }

    /**
     * The single-use decision, one atomic store operation. The engine reads `consumed`, then
     * calls this: between the two a parallel request may have won. The loser is refused here
     * with the engine's own invalid_grant, and the grant is revoked as for any reuse. A record
     * gone since the engine read it was revoked (by such a loser) or expired: refused too.
     */
    async consume(id: string): Promise<void> {
      const key = this.key(id);
      readAhead.drop(key);
      const grantId = grantOfRead.take(key);
      // A consumed code or refresh token stays only for the reuse window, and leaves its grant
      // index with it (when the engine's read named the grant; else at its own expiry). The
      // grant keeps its latest consumed refresh tokens only, as many as its live access tokens:
      // a grant refreshed again and again holds a bounded number, whatever the window.
      const used =
        this.model === 'RefreshToken' && grantId ? { key: keys.grantUsedRefreshTokens(grantId), atMost: accessTokensPerGrant, marks: [markSuffix] } : undefined;
      const keep = CONSUMABLE.has(this.model)
        ? { seconds: reuseWindowSeconds, index: grantId ? keys.grantIndex(grantId) : undefined, bounded: used }
        : undefined;
      const outcome = await store.markOnce(key, keys.consumed(key), String(epochSeconds()), keep);
      if (outcome === 'marked') return;
      if (outcome === 'already_marked') {
        const grantId = (await this.find(id))?.grantId;
        if (grantId) await Promise.all([revokeGrant(grantId), store.delete(keys.model('Grant', grantId))]);
      }
      throw REFUSALS[this.model]?.() ?? new errors.InvalidGrant(`${this.model} already consumed`);
    }

    async destroy(id: string): Promise<void> {
      if (this.model === 'Client') return options.registeredClients ? options.registeredClients.remove(id) : clients.delete(id);
      const key = this.key(id);
      readAhead.drop(key);
      const clientId = this.model === 'RegistrationAccessToken' ? (await this.find(id))?.clientId : undefined;
      // A login session takes its copy at its uid with it (the uid its read in this request told, else read now).
      let copy: string | undefined;
      if (this.model === 'Session') {
        const uid = uidOfRead.take(key);
        copy = uid !== undefined ? keys.uid(uid) : sessionCopyKeyOf((await store.getMany([key]))[0]);
      }
      await store.delete(key, keys.consumed(key), ...(copy ? [copy] : []));
      if (clientId) await store.removeFromIndex(keys.registrationTokensOf(clientId), key);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrant(grantId);
    }
  };
}
