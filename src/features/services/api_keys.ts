// API keys of services (configured clients), sent as `X-API-Key: sgk_<id>_<secret>`: shown once,
// kept as sha256 of the secret, the `sgk_<id>` prefix visible in listings; create, rotate, revoke.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { refuse } from '../../base/errors.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** A key as listings show it: never the secret nor its hash. */
export type ApiKeyInfo = {
  id: string;
  prefix: string;
  service: string;
  label: string | null;
  created_at: string;
  last_used_at?: string;
  revoked_at?: string;
  replaced_by?: string;
};

/** A new key with its one and only showing of the full `key`. */
export type NewApiKey = { id: string; key: string; prefix: string; service: string; label: string | null; created_at: string };

/** Who presented an accepted key. */
export type ApiKeyCaller = { service: string; keyId: string };

export type ApiKeys = {
  create(serviceId: string, label?: string): Promise<NewApiKey>;
  /** The service's keys, newest first, revoked ones included. */
  list(serviceId: string): Promise<ApiKeyInfo[]>;
  /** A new key with the same label; the old one is revoked with replaced_by = the new id. */
  rotate(serviceId: string, keyId: string): Promise<NewApiKey>;
  revoke(serviceId: string, keyId: string): Promise<ApiKeyInfo>;
  /** Every key of the service, gone with their records (the service's client was deleted). */
  removeAll(serviceId: string): Promise<void>;
  /** The X-API-Key header's value to the caller it names, or invalid_client. */
  authenticate(presented: string | undefined): Promise<ApiKeyCaller>;
};

type KeyRecord = { id: string; prefix: string; service: string; label: string | null; created_at: string; sha256: string };
type Revocation = { revoked_at: string; replaced_by?: string };

const API_KEY_PREFIX = 'sgk_';
// Alphanumeric ids: url-safe, no "_" so the key splits plainly, no leading "-" to read as a CLI flag.
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 12;
const ID_PATTERN = /^[A-Za-z0-9]{12}$/;
// 32 random bytes in base64url are 43 characters, which may include "_" and "-".
const KEY_PATTERN = /^sgk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const LAST_USED_EVERY_MS = 60_000;
const INVALID_KEY = 'the API key is not valid';
// Compared against when the id is unknown, so that answer takes as long as a wrong secret.
const NO_HASH = Buffer.alloc(32);

function randomId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(ID_LENGTH * 2)) {
      // 248 = 4 × 62: dropping the bytes above keeps every character equally likely.
      if (byte < 248 && id.length < ID_LENGTH) id += ID_ALPHABET[byte % 62];
    }
  }
  return id;
}

const sha256 = (secret: string) => createHash('sha256').update(secret).digest();

export function createApiKeys(store: Store, now: () => number): ApiKeys {
  const iso = () => new Date(now()).toISOString();

  const readJson = async <T>(key: string): Promise<T | undefined> => {
    const raw = await store.get(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  };

  const info = async (record: KeyRecord): Promise<ApiKeyInfo> => {
    const [revocation, lastUsed] = await Promise.all([readJson<Revocation>(keys.apiKeyRevoked(record.id)), store.get(keys.apiKeyUsed(record.id))]);
    const { sha256: _hash, ...visible } = record;
    return { ...visible, ...(lastUsed ? { last_used_at: lastUsed } : {}), ...revocation };
  };

  /** The key of this service, or not_found (an unknown id and another service's key alike). */
  const ownKey = async (serviceId: string, keyId: string): Promise<KeyRecord> => {
    const record = ID_PATTERN.test(keyId) ? await readJson<KeyRecord>(keys.apiKey(keyId)) : undefined;
    if (!record || record.service !== serviceId) throw refuse('api_key_not_found', `service "${serviceId}" has no API key "${keyId}"`);
    return record;
  };

  const create = async (serviceId: string, label: string | null): Promise<NewApiKey> => {
    const id = randomId();
    const secret = randomBytes(32).toString('base64url');
    const prefix = `${API_KEY_PREFIX}${id}`;
    const record: KeyRecord = { id, prefix, service: serviceId, label, created_at: iso(), sha256: sha256(secret).toString('hex') };
    if (!(await store.setIfAbsent(keys.apiKey(id), JSON.stringify(record)))) throw refuse('api_key_id_taken', 'an API key id was drawn twice: try again');
    await store.addToIndex(keys.apiKeysOf(serviceId), id, 0);
    return { id, key: `${prefix}_${secret}`, prefix, service: serviceId, label, created_at: record.created_at };
  };

  /** Marks the key revoked; of concurrent revokers and rotators exactly one gets true. */
  const markRevoked = (keyId: string, replacedBy?: string): Promise<boolean> => {
    const revocation: Revocation = { revoked_at: iso(), ...(replacedBy ? { replaced_by: replacedBy } : {}) };
    return store.setIfAbsent(keys.apiKeyRevoked(keyId), JSON.stringify(revocation));
  };

  const notRotatable = (keyId: string) => refuse('api_key_revoked', `the API key "${keyId}" is revoked and cannot be rotated: create a new one`);

  const alreadyRevoked = async (keyId: string) => {
    const revocation = await readJson<Revocation>(keys.apiKeyRevoked(keyId));
    return refuse('api_key_revoked', `the API key "${keyId}" was already revoked at ${revocation?.revoked_at ?? 'an unknown time'}`);
  };

  return {
    create: (serviceId, label) => create(serviceId, label ?? null),

    async list(serviceId) {
      const ids = await store.indexMembers(keys.apiKeysOf(serviceId));
      const records = await Promise.all(ids.map((id) => readJson<KeyRecord>(keys.apiKey(id))));
      const own = records.filter((record): record is KeyRecord => record?.service === serviceId);
      const listed = await Promise.all(own.map(info));
      return listed.sort((a, b) => b.created_at.localeCompare(a.created_at) || a.id.localeCompare(b.id));
    },

    async rotate(serviceId, keyId) {
      const old = await info(await ownKey(serviceId, keyId));
      if (old.revoked_at) throw notRotatable(keyId);
      const fresh = await create(serviceId, old.label);
      // A concurrent revoke or rotation got there first: the new key must not outlive the refusal.
      if (!(await markRevoked(keyId, fresh.id))) {
        await store.delete(keys.apiKey(fresh.id));
        throw notRotatable(keyId);
      }
      return fresh;
    },

    async revoke(serviceId, keyId) {
      const record = await ownKey(serviceId, keyId);
      if (!(await markRevoked(keyId))) throw await alreadyRevoked(keyId);
      return info(record);
    },

    async removeAll(serviceId) {
      const ids = await store.indexMembers(keys.apiKeysOf(serviceId));
      await store.delete(...ids.flatMap((id) => [keys.apiKey(id), keys.apiKeyRevoked(id), keys.apiKeyUsed(id)]), keys.apiKeysOf(serviceId));
    },

    async authenticate(presented) {
      if (!presented) throw refuse('api_key_invalid', 'an X-API-Key header is required');
      const match = KEY_PATTERN.exec(presented);
      if (!match) throw refuse('api_key_invalid', INVALID_KEY);
      const keyId = match[1]!;
      const secret = match[2]!;
      const [record, revocation, lastUsed] = await Promise.all([
        readJson<KeyRecord>(keys.apiKey(keyId)),
        store.get(keys.apiKeyRevoked(keyId)),
        store.get(keys.apiKeyUsed(keyId)),
      ]);
      const expected = record ? Buffer.from(record.sha256, 'hex') : NO_HASH;
      const matches = expected.length === 32 && timingSafeEqual(sha256(secret), expected);
      if (!record || !matches || revocation) throw refuse('api_key_invalid', INVALID_KEY);
      // last_used_at lives in its own key so this write can never undo a concurrent revocation.
      if (!lastUsed || now() - Date.parse(lastUsed) >= LAST_USED_EVERY_MS) await store.set(keys.apiKeyUsed(keyId), iso());
      return { service: record.service, keyId };
    },
  };
}
