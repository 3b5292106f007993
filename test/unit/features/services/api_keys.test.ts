// createApiKeys on both store backends (memory, and Redis on a real redis-server): keys shown
// once and stored hashed, authentication and each refusal with its reason, rotate, revoke.
import { createHash } from 'node:crypto';
import { type ApiKeys, createApiKeys } from '../../../../src/features/services/api_keys.js';
import { keys } from '../../../../src/infra/store/keys.js';
import { memoryBackend, redisBackend } from '../../../support/store_backends.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(ms).toISOString();
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const secretOf = (key: string) => key.slice('sgk_'.length + 12 + 1);

/** What a rejected promise threw, in the fields a caller sees; fails when nothing was thrown. */
async function refusal(work: Promise<unknown>) {
  try {
    await work;
  } catch (error) {
    const { name, code, status, reason } = error as { name: string; code: string; status: number; reason?: string };
    return { name, code, status, reason };
  }
  throw new Error('expected a refusal, the call succeeded');
}

const invalidKey = { name: 'SignetError', code: 'invalid_client', status: 401, reason: 'api_key_invalid' };

describe.each([
  ['memory', memoryBackend()],
  ['redis', redisBackend()],
])('API keys on the %s store', (_name, backend) => {
  let clock = T0;
  let apiKeys: ApiKeys;

  beforeAll(() => backend.start(), 20_000);
  afterAll(() => backend.stop());
  beforeEach(async () => {
    await backend.reset();
    clock = T0;
    apiKeys = createApiKeys(backend.store, () => clock);
  });

  test('create shows the key once; list shows the prefix, never the secret', async () => {
    const created = await apiKeys.create('billing', 'nightly export');
    expect(created.id).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(created.key).toMatch(new RegExp(`^sgk_${created.id}_[A-Za-z0-9_-]{43}$`));
    expect(created).toEqual({
      id: created.id,
      key: created.key,
      prefix: `sgk_${created.id}`,
      service: 'billing',
      label: 'nightly export',
      created_at: at(T0),
    });
    expect(await apiKeys.list('billing')).toEqual([
      { id: created.id, prefix: `sgk_${created.id}`, service: 'billing', label: 'nightly export', created_at: at(T0) },
    ]);
    expect(await apiKeys.list('other')).toEqual([]);
    const unlabelled = await apiKeys.create('billing');
    expect(unlabelled.label).toBeNull();
  });

  test('the store holds the hash of the secret, not the secret; nothing expires', async () => {
    const created = await apiKeys.create('billing', 'ci');
    const secret = secretOf(created.key);
    const raw = await backend.store.get(keys.apiKey(created.id));
    expect(raw).toBeDefined();
    expect(raw).not.toContain(secret);
    expect(JSON.parse(raw!)).toEqual({
      id: created.id,
      prefix: `sgk_${created.id}`,
      service: 'billing',
      label: 'ci',
      created_at: at(T0),
      sha256: sha256Hex(secret),
    });
    expect(await backend.store.indexMembers(keys.apiKeysOf('billing'))).toEqual([created.id]);
    expect(await backend.store.ttl(keys.apiKey(created.id))).toBe(Number.POSITIVE_INFINITY);
    expect(await backend.store.ttl(keys.apiKeysOf('billing'))).toBe(Number.POSITIVE_INFINITY);
  });

  test('authenticate accepts the key and records last_used_at at most once a minute', async () => {
    const created = await apiKeys.create('billing');
    clock = T0 + 5_000;
    expect(await apiKeys.authenticate(created.key)).toEqual({ service: 'billing', keyId: created.id });
    expect((await apiKeys.list('billing'))[0]!.last_used_at).toBe(at(T0 + 5_000));
    clock = T0 + 64_999;
    await apiKeys.authenticate(created.key);
    expect((await apiKeys.list('billing'))[0]!.last_used_at).toBe(at(T0 + 5_000));
    clock = T0 + 65_000;
    await apiKeys.authenticate(created.key);
    expect((await apiKeys.list('billing'))[0]!.last_used_at).toBe(at(T0 + 65_000));
  });

  test('missing, malformed, unknown and wrong keys are refused in the same words', async () => {
    const created = await apiKeys.create('billing');
    const secret = secretOf(created.key);
    const otherSecret = Buffer.alloc(32, 7).toString('base64url');
    expect(await refusal(apiKeys.authenticate(undefined))).toEqual(invalidKey);
    expect(await refusal(apiKeys.authenticate(''))).toEqual(invalidKey);
    expect(await refusal(apiKeys.authenticate(`sgk_${created.id}_${otherSecret}`))).toEqual(invalidKey);
    expect(await refusal(apiKeys.authenticate(`sgk_AAAAAAAAAAAA_${secret}`))).toEqual(invalidKey);
    for (const malformed of [`sgk_${created.id}`, `${created.key}x`, `Bearer ${created.key}`, `sgk_${created.id}__${secret}`, secret]) {
      expect(await refusal(apiKeys.authenticate(malformed))).toEqual(invalidKey);
    }
    expect(await apiKeys.authenticate(created.key)).toEqual({ service: 'billing', keyId: created.id });
  });

  test('revoke: the key stops working, a second revoke and other services are refused', async () => {
    const created = await apiKeys.create('billing', 'old');
    clock = T0 + 1_000;
    expect(await refusal(apiKeys.revoke('shop', created.id))).toEqual({
      name: 'SignetError',
      code: 'not_found',
      status: 404,
      reason: 'api_key_not_found',
    });
    expect(await refusal(apiKeys.revoke('billing', 'AAAAAAAAAAAA'))).toEqual({
      name: 'SignetError',
      code: 'not_found',
      status: 404,
      reason: 'api_key_not_found',
    });
    expect(await refusal(apiKeys.revoke('billing', '../x'))).toEqual({
      name: 'SignetError',
      code: 'not_found',
      status: 404,
      reason: 'api_key_not_found',
    });
    expect(await apiKeys.revoke('billing', created.id)).toEqual({
      id: created.id,
      prefix: `sgk_${created.id}`,
      service: 'billing',
      label: 'old',
      created_at: at(T0),
      revoked_at: at(T0 + 1_000),
    });
    expect(await refusal(apiKeys.authenticate(created.key))).toEqual(invalidKey);
    expect(await refusal(apiKeys.revoke('billing', created.id))).toEqual({
      name: 'SignetError',
      code: 'conflict',
      status: 409,
      reason: 'api_key_revoked',
    });
    expect(await refusal(apiKeys.rotate('billing', created.id))).toEqual({
      name: 'SignetError',
      code: 'conflict',
      status: 409,
      reason: 'api_key_revoked',
    });
  });

  test('rotate: a working new key with the same label; the old one revoked and replaced_by the new', async () => {
    const old = await apiKeys.create('billing', 'ci');
    clock = T0 + 2_000;
    const fresh = await apiKeys.rotate('billing', old.id);
    expect(fresh).toEqual({
      id: fresh.id,
      key: fresh.key,
      prefix: `sgk_${fresh.id}`,
      service: 'billing',
      label: 'ci',
      created_at: at(T0 + 2_000),
    });
    expect(fresh.id).not.toBe(old.id);
    expect(await apiKeys.authenticate(fresh.key)).toEqual({ service: 'billing', keyId: fresh.id });
    expect(await refusal(apiKeys.authenticate(old.key))).toEqual(invalidKey);
    expect(await apiKeys.list('billing')).toEqual([
      { id: fresh.id, prefix: `sgk_${fresh.id}`, service: 'billing', label: 'ci', created_at: at(T0 + 2_000), last_used_at: at(T0 + 2_000) },
      {
        id: old.id,
        prefix: `sgk_${old.id}`,
        service: 'billing',
        label: 'ci',
        created_at: at(T0),
        revoked_at: at(T0 + 2_000),
        replaced_by: fresh.id,
      },
    ]);
    expect(await refusal(apiKeys.rotate('billing', old.id))).toEqual({
      name: 'SignetError',
      code: 'conflict',
      status: 409,
      reason: 'api_key_revoked',
    });
    expect(await refusal(apiKeys.rotate('shop', fresh.id))).toEqual({
      name: 'SignetError',
      code: 'not_found',
      status: 404,
      reason: 'api_key_not_found',
    });
  });

  test('of two concurrent rotations of one key, one wins and the loser leaves no live key', async () => {
    const old = await apiKeys.create('billing');
    const outcomes = await Promise.allSettled([apiKeys.rotate('billing', old.id), apiKeys.rotate('billing', old.id)]);
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict', reason: 'api_key_revoked' });
    const winner = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
    const listed = await apiKeys.list('billing');
    expect(listed.map((key) => key.id).sort()).toEqual([winner, old.id].sort());
    expect(listed.find((key) => key.id === old.id)!.replaced_by).toBe(winner);
  });

  test('list: newest first, one service only', async () => {
    const first = await apiKeys.create('billing', 'first');
    clock = T0 + 1_000;
    const second = await apiKeys.create('billing', 'second');
    await apiKeys.create('shop', 'elsewhere');
    expect((await apiKeys.list('billing')).map((key) => key.id)).toEqual([second.id, first.id]);
  });

  test('an id drawn twice is refused with api_key_id_taken, and nothing is stored over the first', async () => {
    const first = await apiKeys.create('billing', 'first');
    // A store where every id is taken: the draw collides, as two equal random ids would.
    const taken = { ...backend.store, setIfAbsent: async () => false };
    const colliding = createApiKeys(taken, () => clock);
    expect(await refusal(colliding.create('billing', 'second'))).toEqual({ name: 'SignetError', code: 'conflict', status: 409, reason: 'api_key_id_taken' });
    expect((await apiKeys.list('billing')).map((key) => key.label)).toEqual(['first']);
    expect(await apiKeys.authenticate(first.key)).toEqual({ service: 'billing', keyId: first.id });
  });
});
