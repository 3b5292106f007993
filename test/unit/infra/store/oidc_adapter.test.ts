// One contract for the oidc-provider adapter (and the Store primitives under it), run against
// every backend: Redis on a real redis-server, a real three-master Redis Cluster (where every
// multi-key step must keep to one hash slot or be split) and the memory store with a controllable clock.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { keys } from '../../../../src/infra/store/keys.js';
import { createOidcAdapter } from '../../../../src/infra/store/oidc_adapter.js';
import type { Store } from '../../../../src/infra/store/store.js';
import { clusterBackend, memoryBackend, redisBackend } from '../../../support/store_backends.js';
import { waitUntil } from '../../../support/wait_until.js';

type AdapterClass = new (model: string) => Adapter;

const epoch = () => Math.floor(Date.now() / 1000);

/** Replaces Date.now for the duration of `work` (the adapter stamps `consumed` with it). */
async function withDateNow<T>(fake: () => number, work: () => Promise<T>): Promise<T> {
  const real = Date.now;
  Date.now = fake;
  try {
    return await work();
  } finally {
    Date.now = real;
  }
}

describe.each([
  ['redis', redisBackend],
  ['redis cluster', clusterBackend],
  ['memory', memoryBackend],
] as const)('oidc adapter contract (%s store)', (_name, makeBackend) => {
  const backend = makeBackend();
  let Adapter: AdapterClass;

  beforeAll(async () => {
    await backend.start();
  });

  afterAll(async () => {
    await backend.stop();
  });

  beforeEach(async () => {
    await backend.reset();
    Adapter = createOidcAdapter(backend.store);
  });

  describe('upsert and find', () => {
    test('find returns the upserted payload', async () => {
      const tokens = new Adapter('AccessToken');
      const payload: AdapterPayload = { jti: 'at-1', accountId: '0xabc', scope: 'openid profile', kind: 'AccessToken' };
      await tokens.upsert('at-1', payload, 600);
      expect(await tokens.find('at-1')).toEqual(payload);
      expect(await backend.store.get(keys.model('AccessToken', 'at-1'))).toBe(JSON.stringify(payload));
    });

    test('find of a missing id is exactly undefined', async () => {
      const tokens = new Adapter('AccessToken');
      expect(await tokens.find('missing')).toBe(undefined);
    });

    test('models do not see each other: the same id under another model is missing', async () => {
      await new Adapter('AccessToken').upsert('same-id', { kind: 'AccessToken' }, 600);
      expect(await new Adapter('RefreshToken').find('same-id')).toBe(undefined);
      expect(await new Adapter('AccessToken').find('same-id')).toEqual({ kind: 'AccessToken' });
    });

    test('a second upsert replaces the payload', async () => {
      const tokens = new Adapter('AccessToken');
      await tokens.upsert('at-1', { scope: 'openid' }, 600);
      await tokens.upsert('at-1', { scope: 'openid email' }, 600);
      expect(await tokens.find('at-1')).toEqual({ scope: 'openid email' });
    });
  });

  describe('expiry', () => {
    test('the model key gets a TTL close to expiresIn', async () => {
      const tokens = new Adapter('AccessToken');
      await tokens.upsert('at-ttl', { jti: 'at-ttl' }, 100);
      const left = await backend.store.ttl(keys.model('AccessToken', 'at-ttl'));
      expect(typeof left).toBe('number');
      expect(left).toBeGreaterThanOrEqual(98);
      expect(left).toBeLessThanOrEqual(100);
    });

    test('without expiresIn the record never expires', async () => {
      const sessions = new Adapter('Session');
      await sessions.upsert('s-forever', { uid: 'u-forever' });
      expect(await backend.store.ttl(keys.model('Session', 's-forever'))).toBe(Number.POSITIVE_INFINITY);
      expect(await backend.store.ttl(keys.uid('u-forever'))).toBe(Number.POSITIVE_INFINITY);
    });

    test('a record upserted with expiresIn 1 is gone once it expired, with its uid lookup', async () => {
      const interactions = new Adapter('Interaction');
      await interactions.upsert('i-short', { uid: 'u-short', kind: 'Interaction' }, 1);
      expect(await interactions.find('i-short')).toEqual({ uid: 'u-short', kind: 'Interaction' });
      await backend.expire('the record and its uid lookup expired', 2.1, async () => {
        const lives = await Promise.all([keys.model('Interaction', 'i-short'), keys.uid('u-short')].map((key) => backend.store.ttl(key)));
        return lives.every((life) => life === undefined);
      });
      expect(await interactions.find('i-short')).toBe(undefined);
      expect(await interactions.findByUid('u-short')).toBe(undefined);
      expect(await backend.store.ttl(keys.model('Interaction', 'i-short'))).toBe(undefined);
      expect(await backend.store.ttl(keys.uid('u-short'))).toBe(undefined);
    });
  });

  describe('lookups by uid and user code', () => {
    test('findByUid finds a Session and an Interaction by their uid', async () => {
      const sessions = new Adapter('Session');
      const interactions = new Adapter('Interaction');
      const session: AdapterPayload = { uid: 'session-uid', accountId: '0xabc', kind: 'Session' };
      const interaction: AdapterPayload = { uid: 'interaction-uid', kind: 'Interaction', returnTo: 'https://x/y' };
      await sessions.upsert('session-id', session, 600);
      await interactions.upsert('interaction-id', interaction, 600);
      expect(await sessions.findByUid('session-uid')).toEqual(session);
      expect(await interactions.findByUid('interaction-uid')).toEqual(interaction);
      // A login session's uid key holds a copy of it (one read by uid); an interaction's, its id.
      expect(await backend.store.get(keys.uid('session-uid'))).toBe(JSON.stringify(session));
      expect(await backend.store.ttl(keys.uid('session-uid'))).toBe(await backend.store.ttl(keys.model('Session', 'session-id')));
      expect(await backend.store.get(keys.uid('interaction-uid'))).toBe('interaction-id');
      expect(await sessions.findByUid('unknown-uid')).toBe(undefined);
    });

    test('a destroyed session is not found by its uid: its copy goes with it, whether the request read it first or not', async () => {
      const sessions = new Adapter('Session');
      await sessions.upsert('session-id', { uid: 'session-uid' }, 600);
      await sessions.destroy('session-id');
      expect(await sessions.findByUid('session-uid')).toBe(undefined);
      expect(await backend.store.get(keys.uid('session-uid'))).toBe(undefined);
      await sessions.upsert('read-first', { uid: 'read-uid' }, 600);
      expect(await sessions.find('read-first')).toEqual({ uid: 'read-uid' });
      await sessions.destroy('read-first');
      expect(await sessions.findByUid('read-uid')).toBe(undefined);
      expect(await backend.store.get(keys.uid('read-uid'))).toBe(undefined);
    });

    test('a session given a new id (the old destroyed, then the new saved, as the engine does) is found by its uid', async () => {
      const sessions = new Adapter('Session');
      await sessions.upsert('old-id', { jti: 'old-id', uid: 'kept-uid', accountId: 'a' }, 600);
      await sessions.find('old-id');
      await sessions.destroy('old-id');
      await sessions.upsert('new-id', { jti: 'new-id', uid: 'kept-uid', accountId: 'a' }, 600);
      expect(await sessions.findByUid('kept-uid')).toEqual({ jti: 'new-id', uid: 'kept-uid', accountId: 'a' });
    });

    test('a uid key holding a session id (as written before the copies) is still followed', async () => {
      const sessions = new Adapter('Session');
      await sessions.upsert('session-id', { uid: 'older-uid', accountId: 'a' }, 600);
      await backend.store.set(keys.uid('older-uid'), 'session-id', 600);
      expect(await sessions.findByUid('older-uid')).toEqual({ uid: 'older-uid', accountId: 'a' });
    });

    test('findByUserCode finds a DeviceCode by its user code', async () => {
      const deviceCodes = new Adapter('DeviceCode');
      const payload: AdapterPayload = { userCode: 'WDJB-MJHT', clientId: 'tv', kind: 'DeviceCode' };
      await deviceCodes.upsert('dc-1', payload, 600);
      expect(await deviceCodes.findByUserCode('WDJB-MJHT')).toEqual(payload);
      expect(await backend.store.get(keys.userCode('WDJB-MJHT'))).toBe('dc-1');
      expect(await deviceCodes.findByUserCode('XXXX-XXXX')).toBe(undefined);
    });
  });

  describe('consume', () => {
    test('find returns the payload plus a numeric consumed epoch-seconds field', async () => {
      const codes = new Adapter('AuthorizationCode');
      const payload: AdapterPayload = { jti: 'code-1', grantId: 'g-1', kind: 'AuthorizationCode' };
      await codes.upsert('code-1', payload, 100);
      const before = epoch();
      await codes.consume('code-1');
      const after = epoch();
      const found = await codes.find('code-1');
      expect(found).toEqual({ ...payload, consumed: expect.any(Number) });
      const consumed = found!.consumed as number;
      expect(Number.isInteger(consumed)).toBe(true);
      expect(consumed).toBeGreaterThanOrEqual(before);
      expect(consumed).toBeLessThanOrEqual(after);
      expect(await backend.store.get(keys.consumed(keys.model('AuthorizationCode', 'code-1')))).toBe(String(consumed));
    });

    test('the consumed marker expires with the record', async () => {
      const codes = new Adapter('AuthorizationCode');
      await codes.upsert('code-ttl', { jti: 'code-ttl' }, 100);
      await codes.consume('code-ttl');
      const left = await backend.store.ttl(keys.consumed(keys.model('AuthorizationCode', 'code-ttl')));
      expect(typeof left).toBe('number');
      expect(left).toBeGreaterThanOrEqual(98);
      expect(left).toBeLessThanOrEqual(100);
    });

    test('a second consume is refused with invalid_grant, keeps the first timestamp and revokes the grant', async () => {
      const codes = new Adapter('AuthorizationCode');
      const tokens = new Adapter('AccessToken');
      const grants = new Adapter('Grant');
      await grants.upsert('g-2', { accountId: 'a' }, 600);
      await codes.upsert('code-2', { jti: 'code-2', grantId: 'g-2' }, 600);
      await tokens.upsert('at-2', { jti: 'at-2', grantId: 'g-2' }, 600);
      const first = 1_900_000_000;
      await withDateNow(
        () => first * 1000,
        () => codes.consume('code-2'),
      );
      expect(await codes.find('code-2')).toEqual({ jti: 'code-2', grantId: 'g-2', consumed: first });
      expect.assertions(6);
      await withDateNow(
        () => (first + 3600) * 1000,
        () =>
          codes.consume('code-2').catch((error) =>
            expect(error).toMatchObject({
              statusCode: 400,
              error: 'invalid_grant',
              error_description: 'grant request is invalid',
              error_detail: 'authorization code already consumed',
            }),
          ),
      );
      // The loser revoked the grant: its tokens and the grant are gone, and none can be written
      // under it. The code stays out its minute, consumed: the engine redeems none without its Grant.
      expect(await codes.find('code-2')).toEqual({ jti: 'code-2', grantId: 'g-2', consumed: first });
      expect(await tokens.find('at-2')).toBe(undefined);
      expect(await grants.find('g-2')).toBe(undefined);
      await tokens.upsert('at-late', { jti: 'at-late', grantId: 'g-2' }, 600);
      expect(await tokens.find('at-late')).toBe(undefined);
    });

    test('consume of a missing id (revoked or expired since the engine read it) is refused and creates nothing', async () => {
      const codes = new Adapter('AuthorizationCode');
      const key = keys.model('AuthorizationCode', 'never-issued');
      await expect(codes.consume('never-issued')).rejects.toMatchObject({ error: 'invalid_grant', error_detail: 'authorization code already consumed' });
      expect(await codes.find('never-issued')).toBe(undefined);
      expect(await backend.store.get(key)).toBe(undefined);
      expect(await backend.store.ttl(key)).toBe(undefined);
      expect(await backend.store.get(keys.consumed(key))).toBe(undefined);
    });

    test('of 20 concurrent consumes exactly one wins, the 19 others get invalid_grant', async () => {
      // Count the marks that took effect, through the Store interface.
      const markerKey = keys.consumed(keys.model('RefreshToken', 'rt-race'));
      const written: string[] = [];
      const inner = backend.store;
      const counting: Store = {
        ...inner,
        markOnce: async (record, mark, value) => {
          const outcome = await inner.markOnce(record, mark, value);
          if (outcome === 'marked' && mark === markerKey) written.push(value);
          return outcome;
        },
      };
      const tokens = new (createOidcAdapter(counting))('RefreshToken');
      await tokens.upsert('rt-race', { jti: 'rt-race' }, 600);
      // Every reading of the clock is a different second, so each consume would write its own value.
      const base = 1_900_000_000;
      let tick = 0;
      const outcomes = await withDateNow(
        () => (base + tick++) * 1000,
        () => Promise.allSettled(Array.from({ length: 20 }, () => tokens.consume('rt-race'))),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused).toHaveLength(19);
      for (const outcome of refused) expect(outcome.reason).toMatchObject({ error: 'invalid_grant', error_detail: 'refresh token already used' });
      expect(written).toHaveLength(1);
      expect(await inner.get(markerKey)).toBe(written[0]);
      const found = await tokens.find('rt-race');
      expect(found).toEqual({ jti: 'rt-race', consumed: Number(written[0]) });
      expect(await tokens.find('rt-race')).toEqual(found);
    });

    test('a pushed authorization request used twice: the second gets invalid_request_uri, as from the engine', async () => {
      const requests = new Adapter('PushedAuthorizationRequest');
      await requests.upsert('par-1', { jti: 'par-1' }, 60);
      await requests.consume('par-1');
      await expect(requests.consume('par-1')).rejects.toMatchObject({
        error: 'invalid_request_uri',
        error_description: 'request_uri is invalid, expired, or was already used',
      });
    });

    // The engine saves a device code again when its owner answers; a code or a token it saves once, under a new id.
    test('a re-saved record starts unconsumed', async () => {
      const codes = new Adapter('DeviceCode');
      await codes.upsert('device-3', { jti: 'device-3' }, 600);
      await codes.consume('device-3');
      await codes.upsert('device-3', { jti: 'device-3', scope: 'openid' }, 600);
      expect(await codes.find('device-3')).toEqual({ jti: 'device-3', scope: 'openid' });
    });
  });

  describe('destroy', () => {
    test('removes the record and its consumed marker', async () => {
      const tokens = new Adapter('RefreshToken');
      const key = keys.model('RefreshToken', 'rt-1');
      await tokens.upsert('rt-1', { jti: 'rt-1' }, 600);
      await tokens.consume('rt-1');
      const consumed = (await tokens.find('rt-1'))?.consumed;
      expect(typeof consumed).toBe('number');
      expect(await backend.store.get(keys.consumed(key))).toBe(String(consumed));
      await tokens.destroy('rt-1');
      expect(await tokens.find('rt-1')).toBe(undefined);
      expect(await backend.store.get(key)).toBe(undefined);
      expect(await backend.store.get(keys.consumed(key))).toBe(undefined);
      // Saved again under the same id it is a fresh, unconsumed record.
      await tokens.upsert('rt-1', { jti: 'rt-1' }, 600);
      expect(await tokens.find('rt-1')).toEqual({ jti: 'rt-1' });
    });

    test('destroy of a missing id does nothing', async () => {
      const tokens = new Adapter('RefreshToken');
      await tokens.upsert('rt-kept', { jti: 'rt-kept' }, 600);
      await expect(tokens.destroy('rt-missing')).resolves.toBe(undefined);
      expect(await tokens.find('rt-kept')).toEqual({ jti: 'rt-kept' });
    });
  });

  describe('revokeByGrantId', () => {
    test('deletes every token of the grant across models, and only those', async () => {
      const accessTokens = new Adapter('AccessToken');
      const refreshTokens = new Adapter('RefreshToken');
      const deviceCodes = new Adapter('DeviceCode');
      const codes = new Adapter('AuthorizationCode');
      await accessTokens.upsert('at-g1', { grantId: 'g1' }, 600);
      await refreshTokens.upsert('rt-g1', { grantId: 'g1' }, 6000);
      await deviceCodes.upsert('dc-g1', { grantId: 'g1' }, 600);
      await deviceCodes.consume('dc-g1');
      await codes.upsert('code-g1', { grantId: 'g1' }, 60);
      await accessTokens.upsert('at-g2', { grantId: 'g2' }, 600);

      // An authorization code is not listed: the engine redeems it only through its Grant, which
      // revocation deletes, and it lives a minute. An access token is listed in the grant's
      // bounded index of access tokens alone, which the revocation closes too.
      expect((await backend.store.indexMembers(keys.grantIndex('g1'))).sort()).toEqual(
        [keys.model('DeviceCode', 'dc-g1'), keys.model('RefreshToken', 'rt-g1')].sort(),
      );
      expect(await backend.store.indexMembers(keys.grantAccessTokens('g1'))).toEqual([keys.model('AccessToken', 'at-g1')]);

      await accessTokens.revokeByGrantId('g1');

      expect(await accessTokens.find('at-g1')).toBe(undefined);
      expect(await refreshTokens.find('rt-g1')).toBe(undefined);
      expect(await deviceCodes.find('dc-g1')).toBe(undefined);
      expect(await backend.store.get(keys.consumed(keys.model('DeviceCode', 'dc-g1')))).toBe(undefined);
      expect(await codes.find('code-g1')).toEqual({ grantId: 'g1' });
      expect(await backend.store.ttl(keys.grantIndex('g1'))).toBe(undefined);
      expect(await backend.store.indexMembers(keys.grantIndex('g1'))).toEqual([]);
      expect(await backend.store.ttl(keys.grantAccessTokens('g1'))).toBe(undefined);

      expect(await accessTokens.find('at-g2')).toEqual({ grantId: 'g2' });
      expect(await backend.store.indexMembers(keys.grantAccessTokens('g2'))).toEqual([keys.model('AccessToken', 'at-g2')]);
    });

    test('revoking an unknown grant does nothing', async () => {
      const accessTokens = new Adapter('AccessToken');
      await accessTokens.upsert('at-g3', { grantId: 'g3' }, 600);
      await expect(accessTokens.revokeByGrantId('no-such-grant')).resolves.toBe(undefined);
      expect(await accessTokens.find('at-g3')).toEqual({ grantId: 'g3' });
    });

    test('the grant index lives as long as its longest-lived record: a shorter one does not shorten it, a longer one raises it', async () => {
      const index = keys.grantIndex('G');
      await new Adapter('DeviceCode').upsert('dc-G', { grantId: 'G' }, 1000);
      await new Adapter('RefreshToken').upsert('rt-G', { grantId: 'G' }, 10);
      const kept = await backend.store.ttl(index);
      expect(typeof kept).toBe('number');
      expect(kept).toBeGreaterThanOrEqual(990);
      expect(kept).toBeLessThanOrEqual(1000);

      await new Adapter('Grant').upsert('G', { grantId: 'G' }, 5000);
      const raised = await backend.store.ttl(index);
      expect(typeof raised).toBe('number');
      expect(raised).toBeGreaterThanOrEqual(4990);
      expect(raised).toBeLessThanOrEqual(5000);
      expect((await backend.store.indexMembers(index)).sort()).toEqual(
        [keys.model('DeviceCode', 'dc-G'), keys.model('Grant', 'G'), keys.model('RefreshToken', 'rt-G')].sort(),
      );
    });

    test('a record without expiry keeps its grant index forever, whatever comes later', async () => {
      const index = keys.grantIndex('G0');
      await new Adapter('AccessToken').upsert('at-G0', { grantId: 'G0' }, 600);
      await new Adapter('Grant').upsert('G0', { grantId: 'G0' });
      expect(await backend.store.ttl(index)).toBe(Number.POSITIVE_INFINITY);
      await new Adapter('RefreshToken').upsert('rt-G0', { grantId: 'G0' }, 10);
      expect(await backend.store.ttl(index)).toBe(Number.POSITIVE_INFINITY);
      // Time passes (a real second on Redis: the shortest its EXPIRE counts), and the index, which
      // must not expire with time, still lists the records that the revocation then deletes.
      await backend.elapse(1.1);
      await new Adapter('Grant').revokeByGrantId('G0');
      expect(await new Adapter('Grant').find('G0')).toBe(undefined);
      expect(await new Adapter('AccessToken').find('at-G0')).toBe(undefined);
    });

    test('a model that is not grantable is not added to a grant index', async () => {
      const sessions = new Adapter('Session');
      const interactions = new Adapter('Interaction');
      await sessions.upsert('s-1', { grantId: 'g-ng', uid: 's-uid' }, 600);
      await interactions.upsert('i-1', { grantId: 'g-ng', uid: 'i-uid' }, 600);
      expect(await backend.store.indexMembers(keys.grantIndex('g-ng'))).toEqual([]);
      expect(await backend.store.ttl(keys.grantIndex('g-ng'))).toBe(undefined);
      await sessions.revokeByGrantId('g-ng');
      expect(await sessions.find('s-1')).toEqual({ grantId: 'g-ng', uid: 's-uid' });
      expect(await interactions.find('i-1')).toEqual({ grantId: 'g-ng', uid: 'i-uid' });
    });
  });

  describe('consumed records and the reuse window', () => {
    /** One refresh as the engine does it: read the token, consume it, save its successor and a new access token. */
    const rotate = async (Adapter: AdapterClass, grantId: string, current: string, next: string, accessTokenSeconds: number) => {
      const refreshTokens = new Adapter('RefreshToken');
      expect(await refreshTokens.find(current)).toEqual({ grantId });
      await refreshTokens.consume(current);
      await refreshTokens.upsert(next, { grantId }, 600);
      await new Adapter('AccessToken').upsert(`at-${next}`, { grantId }, accessTokenSeconds);
    };

    test('a consumed refresh token is kept only for the reuse window, and a reuse within it is still refused', async () => {
      const Windowed = createOidcAdapter(backend.store, { reuseWindowSeconds: 1 });
      const key = keys.model('RefreshToken', 'rt-rw');
      await new Windowed('Grant').upsert('G-rw', { grantId: 'G-rw' }, 600);
      await new Windowed('RefreshToken').upsert('rt-rw', { grantId: 'G-rw' }, 600);
      expect(await new Windowed('RefreshToken').find('rt-rw')).toEqual({ grantId: 'G-rw' });
      await new Windowed('RefreshToken').consume('rt-rw');
      expect(await backend.store.ttl(key)).toBe(1);
      expect(await backend.store.ttl(keys.consumed(key))).toBe(1);
      expect(await new Windowed('RefreshToken').find('rt-rw')).toEqual({ grantId: 'G-rw', consumed: expect.any(Number) });
      // Within the window a reuse is still detected (the engine revokes the grant on it).
      await expect(new Windowed('RefreshToken').consume('rt-rw')).rejects.toMatchObject({ error: 'invalid_grant', error_detail: 'refresh token already used' });
    });

    test('a grant index stays bounded however often its refresh token rotates', async () => {
      const Windowed = createOidcAdapter(backend.store, { reuseWindowSeconds: 2 });
      const index = keys.grantIndex('G-rot');
      await new Windowed('Grant').upsert('G-rot', { grantId: 'G-rot' }, 600);
      await new Windowed('RefreshToken').upsert('rt-0', { grantId: 'G-rot' }, 600);
      for (let i = 0; i < 30; i++) await rotate(Windowed, 'G-rot', `rt-${i}`, `rt-${i + 1}`, 2);
      // Within the window: the grant, the live refresh token, and of the rotations still inside it
      // the latest 3 consumed refresh tokens (the grant's bound): 5 on a quick host, fewer on one
      // so slow that rotations have left the window already; and the latest 3 access tokens in
      // their own index. Every member listed still lives.
      const members = await backend.store.indexMembers(index);
      expect(members.length).toBeLessThanOrEqual(5);
      expect(members.length).toBeGreaterThanOrEqual(2);
      const accessTokens = await backend.store.indexMembers(keys.grantAccessTokens('G-rot'));
      expect(accessTokens.length).toBeLessThanOrEqual(3);
      for (const member of [...members, ...accessTokens]) expect(await backend.store.get(member)).toEqual(expect.any(String));
      // A cluster re-times a consumed token's member one second after its record's end (see redis_store.ts).
      await backend.expire('the window has passed: the index lists the grant and the live refresh token only', 3.1, async () => {
        return (await backend.store.indexMembers(index)).length === 2;
      });
      expect(await new Windowed('RefreshToken').find('rt-29')).toBe(undefined);
      expect(await backend.store.get(keys.consumed(keys.model('RefreshToken', 'rt-29')))).toBe(undefined);
      expect((await backend.store.indexMembers(index)).sort()).toEqual([keys.model('Grant', 'G-rot'), keys.model('RefreshToken', 'rt-30')].sort());
      await rotate(Windowed, 'G-rot', 'rt-30', 'rt-31', 1);
      expect((await backend.store.indexMembers(index)).sort()).toEqual(
        [keys.model('Grant', 'G-rot'), keys.model('RefreshToken', 'rt-31'), keys.model('RefreshToken', 'rt-30')].sort(),
      );
      expect(await backend.store.indexMembers(keys.grantAccessTokens('G-rot'))).toEqual([keys.model('AccessToken', 'at-rt-31')]);
      const left = await backend.store.ttl(index);
      expect(left).toBeGreaterThanOrEqual(595);
      expect(left).toBeLessThanOrEqual(600);
      // Revocation still deletes every live record of the grant.
      await new Windowed('Grant').revokeByGrantId('G-rot');
      expect(await new Windowed('RefreshToken').find('rt-31')).toBe(undefined);
      expect(await new Windowed('AccessToken').find('at-rt-31')).toBe(undefined);
      expect(await backend.store.ttl(index)).toBe(undefined);
      expect(await backend.store.ttl(keys.grantAccessTokens('G-rot'))).toBe(undefined);
    });

    test('a consumed code keeps its own shorter life; a consume without the engine read still cuts the record', async () => {
      const codes = new Adapter('AuthorizationCode');
      await codes.upsert('code-short', { grantId: 'g-short' }, 60);
      await codes.consume('code-short');
      const left = await backend.store.ttl(keys.model('AuthorizationCode', 'code-short'));
      expect(left).toBeGreaterThanOrEqual(58);
      expect(left).toBeLessThanOrEqual(60);
      const refreshTokens = new (createOidcAdapter(backend.store, { reuseWindowSeconds: 5 }))('RefreshToken');
      await refreshTokens.upsert('rt-unread', { grantId: 'g-unread' }, 600);
      await refreshTokens.consume('rt-unread');
      expect(await backend.store.ttl(keys.model('RefreshToken', 'rt-unread'))).toBe(5);
    });
  });

  describe("the bounds on live tokens: a grant's access tokens, its consumed refresh tokens, a client's own", () => {
    const Bounded = () => createOidcAdapter(backend.store, { accessTokensPerGrant: 3, clientCredentialsPerClient: 2 });
    /** Which of `ids` still have a record. */
    const living = async (model: string, ids: string[]) => {
      const values = await backend.store.getMany(ids.map((id) => keys.model(model, id)));
      return ids.filter((_id, i) => values[i] !== undefined);
    };
    const sorted = (list: string[]) => [...list].sort();

    test('an access token past the bound deletes the oldest of its grant (the first to expire), with its index entries', async () => {
      const tokens = new (Bounded())('AccessToken');
      // Named against their order, with lives one second apart: the oldest is the first to expire, whatever its name.
      const ids = ['at-z', 'at-y', 'at-x', 'at-w', 'at-v', 'at-u'];
      for (const [i, id] of ids.entries()) {
        await tokens.upsert(id, { jti: id, grantId: 'G-b' }, 600 + i);
        expect(await living('AccessToken', ids)).toEqual(ids.slice(Math.max(0, i - 2), i + 1));
      }
      const live = ids.slice(3).map((id) => keys.model('AccessToken', id));
      expect(sorted(await backend.store.indexMembers(keys.grantAccessTokens('G-b')))).toEqual(sorted(live));
      // Listed there alone: the grant's records index holds none of them.
      expect(await backend.store.indexMembers(keys.grantIndex('G-b'))).toEqual([]);
      expect(await tokens.find('at-z')).toBe(undefined);
      expect(await tokens.find('at-u')).toEqual({ jti: 'at-u', grantId: 'G-b' });
      // Another grant's tokens are counted apart, and revocation still deletes every live one.
      await tokens.upsert('at-other', { jti: 'at-other', grantId: 'G-c' }, 600);
      await tokens.revokeByGrantId('G-b');
      expect(await living('AccessToken', [...ids, 'at-other'])).toEqual(['at-other']);
      expect(await backend.store.ttl(keys.grantAccessTokens('G-b'))).toBe(undefined);
    });

    test('the token just written is never the one evicted, even when it would expire first', async () => {
      const tokens = new (Bounded())('AccessToken');
      for (const id of ['at-1', 'at-2', 'at-3']) await tokens.upsert(id, { grantId: 'G-short' }, 600);
      await tokens.upsert('at-4', { grantId: 'G-short' }, 60);
      const kept = await living('AccessToken', ['at-1', 'at-2', 'at-3', 'at-4']);
      expect(kept).toHaveLength(3);
      expect(kept).toContain('at-4');
    });

    test('of 50 access tokens written at once under one grant, exactly the bound live on, all listed', async () => {
      const tokens = new (Bounded())('AccessToken');
      const ids = Array.from({ length: 50 }, (_, i) => `at-par-${i}`);
      await Promise.all(ids.map((id) => tokens.upsert(id, { grantId: 'G-par' }, 600)));
      const kept = await living('AccessToken', ids);
      expect(kept).toHaveLength(3);
      const listed = kept.map((id) => keys.model('AccessToken', id));
      expect(sorted(await backend.store.indexMembers(keys.grantAccessTokens('G-par')))).toEqual(sorted(listed));
    });

    test('an expired access token is not counted: it leaves room without evicting a live one', async () => {
      const tokens = new (Bounded())('AccessToken');
      await tokens.upsert('at-brief-1', { grantId: 'G-exp' }, 1);
      await tokens.upsert('at-brief-2', { grantId: 'G-exp' }, 1);
      await tokens.upsert('at-long', { grantId: 'G-exp' }, 600);
      await backend.expire('the two brief tokens expired', 1.1, async () => (await living('AccessToken', ['at-brief-1', 'at-brief-2'])).length === 0);
      await tokens.upsert('at-next-1', { grantId: 'G-exp' }, 600);
      await tokens.upsert('at-next-2', { grantId: 'G-exp' }, 600);
      expect(await living('AccessToken', ['at-long', 'at-next-1', 'at-next-2'])).toEqual(['at-long', 'at-next-1', 'at-next-2']);
      expect(await backend.store.indexMembers(keys.grantAccessTokens('G-exp'))).toHaveLength(3);
    });

    test('a grant keeps its latest consumed refresh tokens only: a reuse of one of them still revokes the grant, an older one is unknown', async () => {
      const Adapter = Bounded();
      const refreshTokens = new Adapter('RefreshToken');
      await new Adapter('Grant').upsert('G-used', { accountId: 'a' }, 600);
      await refreshTokens.upsert('rt-0', { grantId: 'G-used' }, 600);
      for (let i = 0; i < 6; i++) {
        expect(await refreshTokens.find(`rt-${i}`)).toEqual({ grantId: 'G-used' });
        await refreshTokens.consume(`rt-${i}`);
        await refreshTokens.upsert(`rt-${i + 1}`, { grantId: 'G-used' }, 600);
      }
      const used = ['rt-3', 'rt-4', 'rt-5'].map((id) => keys.model('RefreshToken', id));
      // A cluster applies the bound just after the mark, in the grant's slot.
      await waitUntil('the grant lists its latest 3 consumed refresh tokens', async () => {
        return sorted(await backend.store.indexMembers(keys.grantUsedRefreshTokens('G-used'))).join() === sorted(used).join();
      });
      await waitUntil('the older ones are gone', async () => (await living('RefreshToken', ['rt-0', 'rt-1', 'rt-2'])).length === 0);
      const marks = await backend.store.getMany(['rt-0', 'rt-1', 'rt-2'].map((id) => keys.consumed(keys.model('RefreshToken', id))));
      expect(marks).toEqual([undefined, undefined, undefined]);
      expect(sorted(await backend.store.indexMembers(keys.grantIndex('G-used')))).toEqual(sorted([...used, keys.model('RefreshToken', 'rt-6')]));
      // An evicted one reads as unknown (the engine refuses it without revoking); a kept one is a reuse.
      expect(await refreshTokens.find('rt-2')).toBe(undefined);
      expect(await refreshTokens.find('rt-3')).toEqual({ grantId: 'G-used', consumed: expect.any(Number) });
      await expect(refreshTokens.consume('rt-3')).rejects.toMatchObject({ error: 'invalid_grant', error_detail: 'refresh token already used' });
      expect(await refreshTokens.find('rt-6')).toBe(undefined);
      expect(await new Adapter('Grant').find('G-used')).toBe(undefined);
      expect(await backend.store.ttl(keys.grantUsedRefreshTokens('G-used'))).toBe(undefined);
    });

    test("a client's client credentials tokens are bounded per client, and other clients' are untouched", async () => {
      const tokens = new (Bounded())('ClientCredentials');
      const ids = ['cc-1', 'cc-2', 'cc-3', 'cc-4'];
      for (const [i, id] of ids.entries()) await tokens.upsert(id, { jti: id, clientId: 'machine', kind: 'ClientCredentials' }, 600 + i);
      await tokens.upsert('cc-other', { jti: 'cc-other', clientId: 'another', kind: 'ClientCredentials' }, 600);
      expect(await living('ClientCredentials', [...ids, 'cc-other'])).toEqual(['cc-3', 'cc-4', 'cc-other']);
      expect(sorted(await backend.store.indexMembers(keys.clientCredentialsOf('machine')))).toEqual(
        sorted(['cc-3', 'cc-4'].map((id) => keys.model('ClientCredentials', id))),
      );
      const left = await backend.store.ttl(keys.clientCredentialsOf('machine'));
      expect(left).toBeGreaterThanOrEqual(600);
      expect(left).toBeLessThanOrEqual(603);
    });
  });

  describe('store primitives', () => {
    test('an index lists a member for its TTL, re-timed when listed again; it expires with its latest member, never while one is untimed', async () => {
      const { store } = backend;
      const index = 'signet:test:index';
      await store.addToIndex(index, 'a', 1);
      await store.addToIndex(index, 'b', 100);
      expect((await store.indexMembers(index)).sort()).toEqual(['a', 'b']);
      const long = await store.ttl(index);
      expect(long).toBeGreaterThanOrEqual(98);
      expect(long).toBeLessThanOrEqual(100);
      // Listed again with a shorter TTL, the latest member comes earlier, and the index with it.
      await store.addToIndex(index, 'b', 3);
      expect(await store.ttl(index)).toBeLessThanOrEqual(3);
      await backend.expire("'a' (1 s) has left the index", 1.1, async () => !(await store.indexMembers(index)).includes('a'));
      expect(await store.indexMembers(index)).toEqual(['b']);
      await store.addToIndex(index, 'c', 0);
      expect(await store.ttl(index)).toBe(Number.POSITIVE_INFINITY);
      await store.removeFromIndex(index, 'c');
      expect(await store.indexMembers(index)).toEqual(['b']);
      const back = await store.ttl(index);
      expect(back).toBeGreaterThanOrEqual(1);
      expect(back).toBeLessThanOrEqual(2);
      await store.removeFromIndex(index, 'b');
      expect(await store.indexMembers(index)).toEqual([]);
      expect(await store.ttl(index)).toBe(undefined);
    });

    test('with onlyLater a listing only moves later: a shorter one leaves it, a longer one or until-removed moves it', async () => {
      const { store } = backend;
      const index = 'signet:test:later';
      await store.addToIndex(index, 'a', 100, { onlyLater: true });
      await store.addToIndex(index, 'a', 3, { onlyLater: true });
      expect(await store.ttl(index)).toBeGreaterThanOrEqual(98);
      await store.addToIndex(index, 'a', 200, { onlyLater: true });
      expect(await store.ttl(index)).toBeGreaterThanOrEqual(198);
      await store.addToIndex(index, 'a', 0, { onlyLater: true });
      await store.addToIndex(index, 'a', 5, { onlyLater: true });
      expect(await store.ttl(index)).toBe(Number.POSITIVE_INFINITY);
      // A new member is listed as asked; removal still removes.
      await store.addToIndex(index, 'b', 3, { onlyLater: true });
      expect((await store.indexMembers(index)).sort()).toEqual(['a', 'b']);
      await store.removeFromIndex(index, 'a');
      expect(await store.ttl(index)).toBeLessThanOrEqual(3);
    });

    test('compareAndSet keeps the TTL, or sets the one asked (0: none)', async () => {
      const { store } = backend;
      await store.set('signet:test:life', 'pending', 100);
      expect(await store.compareAndSet('signet:test:life', ['pending'], 'active', 0)).toEqual({ swapped: true, current: 'pending' });
      expect(await store.ttl('signet:test:life')).toBe(Number.POSITIVE_INFINITY);
      expect(await store.compareAndSet('signet:test:life', ['active'], 'revoked', 30)).toEqual({ swapped: true, current: 'active' });
      const left = await store.ttl('signet:test:life');
      expect(left).toBeGreaterThanOrEqual(29);
      expect(left).toBeLessThanOrEqual(30);
      expect(await store.compareAndSet('signet:test:life', ['pending'], 'active', 0)).toEqual({ swapped: false, current: 'revoked' });
      expect(await store.ttl('signet:test:life')).toBeLessThanOrEqual(30);
      expect(await store.get('signet:test:life')).toBe('revoked');
    });

    test('compareAndSet swaps only from an expected value, once among 50 concurrent callers, keeping the TTL', async () => {
      await backend.store.set('state', 'active', 100);
      const results = await Promise.all(Array.from({ length: 50 }, () => backend.store.compareAndSet('state', ['active'], 'used')));
      expect(results.filter((result) => result.swapped)).toEqual([{ swapped: true, current: 'active' }]);
      expect(results.filter((result) => !result.swapped)).toHaveLength(49);
      expect(results.find((result) => !result.swapped)).toEqual({ swapped: false, current: 'used' });
      expect(await backend.store.get('state')).toBe('used');
      const left = await backend.store.ttl('state');
      expect(left).toBeGreaterThanOrEqual(98);
      expect(left).toBeLessThanOrEqual(100);
      expect(await backend.store.compareAndSet('missing', ['active'], 'used')).toEqual({ swapped: false, current: undefined });
      expect(await backend.store.compareAndSet('state', ['pending', 'used'], 'revoked')).toEqual({ swapped: true, current: 'used' });
    });

    test('take returns the value once, then undefined', async () => {
      const { store } = backend;
      await store.set('signet:test:take', 'v1', 60);
      expect(await store.take('signet:test:take')).toBe('v1');
      expect(await store.take('signet:test:take')).toBe(undefined);
      expect(await store.get('signet:test:take')).toBe(undefined);
      expect(await store.take('signet:test:never-set')).toBe(undefined);
    });

    test('of 20 concurrent takes exactly one gets the value', async () => {
      const { store } = backend;
      await store.set('signet:test:race', 'only-once', 60);
      const results = await Promise.all(Array.from({ length: 20 }, () => store.take('signet:test:race')));
      expect(results.filter((value) => value === 'only-once')).toHaveLength(1);
      expect(results.filter((value) => value === undefined)).toHaveLength(19);
    });

    test('setIfAbsent is true once, then false, and keeps the first value', async () => {
      const { store } = backend;
      expect(await store.setIfAbsent('signet:test:nx', 'first', 60)).toBe(true);
      expect(await store.setIfAbsent('signet:test:nx', 'second', 60)).toBe(false);
      expect(await store.setIfAbsent('signet:test:nx', 'third')).toBe(false);
      expect(await store.get('signet:test:nx')).toBe('first');
    });

    test('ttl: undefined for a missing key, Infinity without expiry, seconds otherwise', async () => {
      const { store } = backend;
      await store.set('signet:test:forever', 'x');
      await store.set('signet:test:minute', 'x', 60);
      expect(await store.ttl('signet:test:missing')).toBe(undefined);
      expect(await store.ttl('signet:test:forever')).toBe(Number.POSITIVE_INFINITY);
      const left = await store.ttl('signet:test:minute');
      expect(typeof left).toBe('number');
      expect(left).toBeGreaterThanOrEqual(58);
      expect(left).toBeLessThanOrEqual(60);
    });

    test('delete removes several keys and ignores missing ones', async () => {
      const { store } = backend;
      await store.set('signet:test:a', '1');
      await store.set('signet:test:b', '2');
      await store.delete('signet:test:a', 'signet:test:b', 'signet:test:missing');
      await store.delete();
      expect(await store.get('signet:test:a')).toBe(undefined);
      expect(await store.get('signet:test:b')).toBe(undefined);
    });
  });
});
