// What each adapter step costs on a real redis-server, counted with MONITOR: a find is one
// MGET (record and consumed mark together), a find by uid one script (the lookup with them), an
// upsert one script, a consume one script, and scripts go by EVALSHA once loaded; a code's
// find sends the reads of its Grant and Session that the engine makes next, and a token's the
// read of its owner's profile.
import { Redis } from 'ioredis';
import type { Address } from 'viem';
import { type ConsentReceipt, createConsentReceipts } from '../../../../src/domain/consent/consent_receipts.js';
import { createProfileStore } from '../../../../src/domain/profile/profile.js';
import { keys } from '../../../../src/infra/store/keys.js';
import { createOidcAdapter } from '../../../../src/infra/store/oidc_adapter.js';
import { createRedisStore } from '../../../../src/infra/store/redis_store.js';
import type { Store } from '../../../../src/infra/store/store.js';
import { type RedisServer, startRedisServer } from '../../../support/redis_server.js';
import { waitUntil } from '../../../support/wait_until.js';

let server: RedisServer;
let store: Store;
let monitor: Awaited<ReturnType<Redis['monitor']>>;
let admin: Redis;
const seen: string[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  store = createRedisStore(server.url);
  admin = new Redis(server.url);
  monitor = await admin.monitor();
  // Commands a script runs inside Redis are listed too, with source "lua": only the client's count.
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source !== 'lua') seen.push(args[0]!.toLowerCase());
  });
});

afterAll(async () => {
  monitor.disconnect();
  await admin.quit();
  await store.close();
  await server.stop();
});

/** The commands `work` sent, once MONITOR has reported them (a PING marks the end). */
async function commandsOf(work: () => Promise<unknown>): Promise<string[]> {
  // Cleared first: the PING that ended the previous count must not stand for this one's start.
  seen.length = 0;
  await store.ping();
  await waitUntil('MONITOR reported the PING', () => seen.includes('ping'));
  seen.length = 0;
  await work();
  await store.ping();
  await waitUntil('MONITOR reported the PING', () => seen.at(-1) === 'ping');
  return seen.slice(0, -1);
}

test('upsert, find and consume cost one command each; scripts run by EVALSHA once loaded', async () => {
  const codes = new (createOidcAdapter(store))('AuthorizationCode');
  // The first use of each script on a connection sends its text (EVAL); later ones its hash.
  await codes.upsert('warm', { grantId: 'g-warm', uid: 'u-warm' }, 60);
  await codes.consume('warm');

  expect(await commandsOf(() => codes.upsert('c-1', { grantId: 'g-1', uid: 'u-1' }, 60))).toEqual(['evalsha']);
  // The code's MGET, and its Grant's, read ahead for the engine (below).
  expect(await commandsOf(() => codes.find('c-1'))).toEqual(['mget', 'mget']);
  expect(await commandsOf(() => codes.consume('c-1'))).toEqual(['evalsha']);
  expect(await commandsOf(() => codes.find('c-1'))).toEqual(['mget', 'mget']);
});

test("a login session's find by uid is one read: the copy its uid key holds", async () => {
  const sessions = new (createOidcAdapter(store))('Session');
  await sessions.upsert('s-warm', { uid: 'uid-warm', accountId: 'a' }, 60);
  await sessions.findByUid('uid-warm');
  await sessions.upsert('s-1', { uid: 'uid-1', accountId: 'a' }, 60);

  let found: unknown;
  expect(await commandsOf(async () => (found = await sessions.findByUid('uid-1')))).toEqual(['mget']);
  expect(found).toEqual({ uid: 'uid-1', accountId: 'a' });
  expect(await commandsOf(async () => (found = await sessions.findByUid('uid-unknown')))).toEqual(['mget']);
  expect(found).toBe(undefined);
});

test("a code's find sends its Grant's and Session's reads at once, and the engine's finds take them", async () => {
  const Adapter = createOidcAdapter(store);
  const [codes, grants, sessions] = [new Adapter('AuthorizationCode'), new Adapter('Grant'), new Adapter('Session')];
  const code = { grantId: 'g-ahead', sessionUid: 'uid-ahead', expiresWithSession: true };
  await grants.upsert('g-ahead', { accountId: 'a', clientId: 'c' }, 60);
  await sessions.upsert('s-ahead', { uid: 'uid-ahead', accountId: 'a' }, 60);
  await codes.upsert('c-ahead', code, 60);
  await codes.upsert('c-warm', code, 60);
  await codes.find('c-warm');
  await Promise.all([grants.find('g-ahead'), sessions.findByUid('uid-ahead')]);

  // The code's read, then both reads sent together (one write: the connection auto-pipelines them).
  expect(await commandsOf(() => codes.find('c-ahead'))).toEqual(['mget', 'mget', 'mget']);
  let found: unknown[] = [];
  expect(await commandsOf(async () => (found = [await sessions.findByUid('uid-ahead'), await grants.find('g-ahead')]))).toEqual([]);
  expect(found).toEqual([
    { uid: 'uid-ahead', accountId: 'a' },
    { accountId: 'a', clientId: 'c' },
  ]);
  // Taken once: the next find reads again.
  expect(await commandsOf(() => grants.find('g-ahead'))).toEqual(['mget']);

  // A write of the record in this process drops what was read ahead of it.
  await codes.find('c-ahead');
  await grants.upsert('g-ahead', { accountId: 'a', clientId: 'c', changed: true }, 60);
  expect(await grants.find('g-ahead')).toEqual({ accountId: 'a', clientId: 'c', changed: true });
});

test("an access token's find sends the owner's profile read in its Grant's MGET, and the account model's read takes it", async () => {
  const profiles = createProfileStore(store);
  const owner = '0x00000000000000000000000000000000000000c1';
  const Adapter = createOidcAdapter(store, { readAccountAhead: ({ accountId }) => [profiles.readAhead(accountId.split(':')[2] as Address)] });
  const [tokens, grants] = [new Adapter('AccessToken'), new Adapter('Grant')];
  await profiles.set(owner, { given_name: 'Ada' });
  await grants.upsert('g-profile', { accountId: `eip155:1:${owner}`, clientId: 'c' }, 60);
  await tokens.upsert('at-profile', { grantId: 'g-profile', accountId: `eip155:1:${owner}` }, 60);
  await tokens.upsert('at-warm', { grantId: 'g-profile', accountId: `eip155:1:${owner}` }, 60);
  await tokens.find('at-warm');
  await Promise.all([grants.find('g-profile'), profiles.get(owner)]);

  // The token's read, then the Grant's and the profile's in one MGET.
  expect(await commandsOf(() => tokens.find('at-profile'))).toEqual(['mget', 'mget']);
  let found: unknown[] = [];
  expect(await commandsOf(async () => (found = [await grants.find('g-profile'), await profiles.get(owner)]))).toEqual([]);
  expect(found[1]).toEqual({ given_name: 'Ada' });
  // Taken once; and a save in this process drops what was read ahead of it.
  expect(await commandsOf(() => profiles.get(owner))).toEqual(['get']);
  await tokens.find('at-profile');
  await profiles.set(owner, { given_name: 'Grace' });
  expect(await profiles.get(owner)).toEqual({ given_name: 'Grace' });
});

test('a consent receipt read ahead is taken by the next find, once; its save drops it', async () => {
  const receipts = createConsentReceipts(store);
  const receipt: ConsentReceipt = {
    grant_id: 'g-receipt',
    client_id: 'c',
    identity: '0x00000000000000000000000000000000000000c2',
    wallet: '0x00000000000000000000000000000000000000c3',
    fields: [],
    claims: [],
    message: 'm',
    signature: 's',
    signed_at: 'now',
  };
  await receipts.save({ ...receipt }, 60);
  expect(await commandsOf(async () => receipts.readAhead('g-receipt').hold(store.get(keys.consent('g-receipt'))))).toEqual(['get']);
  let found: unknown;
  expect(await commandsOf(async () => (found = await receipts.find('g-receipt')))).toEqual([]);
  expect(found).toEqual(receipt);
  expect(await commandsOf(() => receipts.find('g-receipt'))).toEqual(['get']);
  receipts.readAhead('g-receipt').hold(store.get(keys.consent('g-receipt')));
  await receipts.save({ ...receipt, message: 'kept longer' }, 120);
  expect(await receipts.find('g-receipt')).toMatchObject({ message: 'kept longer' });
});

test('a refresh token consumed after the engine read it: one script cuts its life and re-times its grant index member', async () => {
  const refreshTokens = new (createOidcAdapter(store, { reuseWindowSeconds: 60 }))('RefreshToken');
  await refreshTokens.upsert('rt-warm', { grantId: 'g-rt' }, 600);
  await refreshTokens.find('rt-warm');
  await refreshTokens.consume('rt-warm');

  await refreshTokens.upsert('rt-1', { grantId: 'g-rt' }, 600);
  expect(await commandsOf(() => refreshTokens.find('rt-1'))).toEqual(['mget', 'mget']);
  expect(await commandsOf(() => refreshTokens.consume('rt-1'))).toEqual(['evalsha']);
  expect(await admin.ttl('signet:oidc:{RefreshToken:rt-1}')).toBe(60);
  const score = Number(await admin.zscore('signet:oidc:{grant:g-rt}:records', 'signet:oidc:{RefreshToken:rt-1}'));
  const [seconds, micros] = await admin.time();
  const left = score - (Number(seconds) * 1000 + Number(micros) / 1000);
  expect(left).toBeGreaterThan(59_000);
  expect(left).toBeLessThanOrEqual(60_000);
});
