// The owner's data, end to end on real Redis and anvil: every release is in the access history
// (ID token, userinfo, resource reads, access grants, refusals), the export holds everything
// Signet keeps about the identity and nothing of anyone else's, and an erasure asked with a
// signature ends every grant and token and deletes what it must, keeping receipts as proof.
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { keys } from '../../src/infra/store/keys.js';
import type { RedisStore } from '../../src/infra/store/redis_store.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type Json, jsonApi } from '../support/json_api.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';

let h: Harness;
let analyticsKey: string;

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    configure: () => ({ retention: { receiptDays: 30 } }),
    // The owners' webhook host resolves to a public address (this machine has no DNS).
    resolveHost: async () => [{ address: '93.184.216.34', family: 4 }],
  });
  analyticsKey = (await h.signet.apiKeys.create('analytics', 'tests')).key;
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function ownerWithProfile(index: number) {
  const owner = h.chain.accounts[index]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  return { owner, identity };
}

const api = jsonApi(() => h.issuer);

/** The history as the owner reads it, once it holds `count` entries (recording is not awaited by the release). */
async function historyOf(agent: UserAgent, count: number, query = ''): Promise<Json[]> {
  let entries: Json[] = [];
  await waitUntil(`the history holds ${count} entries`, async () => {
    const page = await api('GET', `/account/history?limit=200${query}`, { agent });
    expect(page.status).toBe(200);
    entries = page.json.entries as Json[];
    return entries.length >= count;
  });
  return entries;
}

/** A persistent grant of the profile to analytics, validated by the owner's signature. */
async function grantProfile(owner: LocalAccount, identity: Address, fields: string[]) {
  const request = await api('POST', `/identities/${identity}/profile/access-requests`, { key: analyticsKey, body: { kind: 'persistent', fields } });
  expect(request.status).toBe(201);
  const signature = await owner.signMessage({ message: request.json.challenge as string });
  const validated = await api('POST', `/access-grants/${request.json.id}/validations`, { body: { signature } });
  expect(validated.status).toBe(200);
  return request.json.id as string;
}

describe('access history', () => {
  test('every release is recorded, newest first, with who, what, how, under which grant and from where', async () => {
    const { owner, identity } = await ownerWithProfile(0);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
    const { tokens } = await logIn(login, owner, { fields: ['given_name', 'email'] });
    const grantId = (await h.signet.receipts.listFor(identity))[0]!.grant_id;
    await oidc.fetchUserInfo(login.config, tokens.access_token, oidc.skipSubjectCheck);
    const profileRead = await api('GET', `/identities/${identity}/profile`, { token: tokens.access_token });
    expect(profileRead.status).toBe(200);
    const accessGrantId = await grantProfile(owner, identity, ['family_name']);
    expect((await api('GET', `/identities/${identity}/profile`, { key: analyticsKey })).status).toBe(200);

    const { agent } = await signInToAccount(h.issuer, owner);
    const entries = await historyOf(agent, 4);
    expect(entries.map((entry) => entry.door)).toEqual(['access_grant', 'profile_resource', 'userinfo', 'id_token']);
    const [grantRead, resource, userinfo, idToken] = entries as [Json, Json, Json, Json];
    expect(idToken).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      client_id: 'website',
      client_name: 'Test Website',
      grant_id: grantId,
      door: 'id_token',
      fields: ['given_name', 'email'],
      claims: [],
      client_address: '127.0.0.1',
      outcome: 'released',
    });
    expect(userinfo).toMatchObject({ door: 'userinfo', grant_id: grantId, fields: ['given_name', 'email'], outcome: 'released' });
    expect(resource).toMatchObject({ door: 'profile_resource', grant_id: grantId, fields: ['given_name', 'email'] });
    expect(grantRead).toMatchObject({
      door: 'access_grant',
      client_id: 'analytics',
      client_name: 'Analytics Co',
      grant_id: accessGrantId,
      fields: ['family_name'],
    });

    // Filtered by service, and paged with the cursor the API gives.
    const website = await historyOf(agent, 3, '&client_id=website');
    expect(website.every((entry) => entry.client_id === 'website')).toBe(true);
    const first = await api('GET', '/account/history?limit=2&client_id=website', { agent });
    expect(first.json.entries).toEqual(website.slice(0, 2));
    const second = await api('GET', `/account/history?limit=2&client_id=website&cursor=${first.json.next_cursor}`, { agent });
    expect(second.json).toEqual({ identity, entries: website.slice(2), next_cursor: null });
    const badCursor = await api('GET', '/account/history?cursor=nonsense', { agent });
    expect(badCursor.status).toBe(400);
    expect(badCursor.json.reason).toBe('invalid_query');

    // A read refused to a service that held a grant is the owner's to see too.
    expect((await api('POST', `/access-grants/${accessGrantId}/revocations`, { agent })).status).toBe(200);
    const refused = await api('GET', `/identities/${identity}/profile`, { key: analyticsKey });
    expect(refused.status).toBe(403);
    const [latest] = await historyOf(agent, 5);
    expect(latest).toMatchObject({ door: 'access_grant', client_id: 'analytics', outcome: 'refused', reason: 'grant_missing', fields: [] });
  });

  test('a failing history write never fails the release', async () => {
    const { owner, identity } = await ownerWithProfile(1);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid email' });
    const { tokens } = await logIn(login, owner, { fields: ['email'] });
    // The history's key made unwritable (a string where the sorted set goes): every append fails.
    await h.store.set(keys.history(identity), 'not a sorted set');
    const userinfo = await oidc.fetchUserInfo(login.config, tokens.access_token, oidc.skipSubjectCheck);
    expect(userinfo.email).toBe('ada@example.org');
    await h.store.delete(keys.history(identity));
  });

  test('no session, no history', async () => {
    const answer = await api('GET', '/account/history', { agent: new UserAgent() });
    expect(answer.status).toBe(401);
    expect(answer.json.reason).toBe('session_missing');
  });
});

describe('export', () => {
  test('one JSON document with everything held about the identity, and nothing secret or foreign', async () => {
    const { owner, identity } = await ownerWithProfile(2);
    const other = await ownerWithProfile(3);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
    const { tokens, signed } = await logIn(login, owner, { fields: ['given_name', 'email'] });
    await oidc.fetchUserInfo(login.config, tokens.access_token, oidc.skipSubjectCheck);
    await grantProfile(other.owner, other.identity, ['email']);
    const { agent, session } = await signInToAccount(h.issuer, owner);
    const webhook = await api('PUT', '/account/webhook', { agent, body: { url: 'https://owner.example/hook' } });
    expect(webhook.status).toBe(200);
    await historyOf(agent, 2);

    const answer = await api('GET', '/account/export', { agent });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="signet-export-\d{4}-\d{2}-\d{2}\.json"$/);
    const document = answer.json;
    expect(document).toMatchObject({
      format: 'signet-export',
      version: 1,
      issuer: h.issuer,
      identity,
      subject: `eip155:${h.chain.anvil.chainId}:${identity}`,
      profile: { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' },
      webhooks: [{ url: 'https://owner.example/hook' }],
      account_sessions: [{ wallet: owner.address, created_at: session.created_at, current: true }],
      claims: [],
      claim_requests: [],
      pending_logins: [],
    });
    expect(document.grants).toHaveLength(1);
    expect(document.grants[0]).toMatchObject({
      kind: 'login',
      service: 'website',
      challenge: signed.message,
      signature: signed.signature,
      kept_until: expect.any(String),
    });
    expect(document.access_history.map((entry: Json) => entry.door)).toEqual(['userinfo', 'id_token']);

    const text = JSON.stringify(document);
    for (const secret of [tokens.access_token, tokens.refresh_token!, tokens.id_token!, other.identity, analyticsKey]) expect(text).not.toContain(secret);
    expect(text).not.toContain(webhook.json.secret as string);
  });

  test('no session, no export', async () => {
    const answer = await api('GET', '/account/export', { agent: new UserAgent() });
    expect(answer.status).toBe(401);
    expect(answer.json.reason).toBe('session_missing');
  });
});

/** Every Redis key that names the identity, with its TTL in seconds (-1: none). */
async function keysNaming(identity: Address): Promise<Record<string, number>> {
  const client = (h.store as RedisStore).client;
  const found: Record<string, number> = {};
  for (const key of await client.keys('signet:*')) {
    const value = (await client.type(key)) === 'string' ? await client.get(key) : JSON.stringify(await client.dump(key));
    if (key.toLowerCase().includes(identity.toLowerCase()) || value?.toLowerCase().includes(identity.toLowerCase().slice(2))) {
      found[key] = await client.ttl(key);
    }
  }
  return found;
}

async function erase(agent: UserAgent, owner: LocalAccount, body: Json = {}) {
  const challenge = await api('POST', '/account/erasure/challenge', { agent });
  expect(challenge.status).toBe(200);
  expect(challenge.json.challenge).toContain('Erase what Signet holds about this identity');
  expect(challenge.json.challenge).toContain('Signed consent receipts are kept 30 days as proof');
  const signature = await owner.signMessage({ message: challenge.json.challenge as string });
  return api('POST', '/account/erasure', { agent, body: { signature, message: challenge.json.challenge, ...body } });
}

async function untilDone(location: string, timeoutMs = 10_000): Promise<Json> {
  let state: Json = {};
  await waitUntil(
    'the erasure is done',
    async () => {
      const answer = await fetch(location, { headers: { accept: 'application/json' } });
      state = (await answer.json()) as Json;
      return state.status === 'done';
    },
    timeoutMs,
  );
  return state;
}

describe('erasure', () => {
  test('a signed erasure ends every grant, token and session, deletes the data and keeps only receipts, until their end', async () => {
    const { owner, identity } = await ownerWithProfile(4);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email offline_access' });
    const { tokens } = await logIn(login, owner, { fields: ['given_name', 'email'] });
    await grantProfile(owner, identity, ['email']);
    const { agent } = await signInToAccount(h.issuer, owner);
    expect((await api('PUT', '/account/webhook', { agent, body: { url: 'https://owner.example/hook' } })).status).toBe(200);

    const started = Date.now();
    const accepted = await erase(agent, owner);
    expect(accepted.status).toBe(202);
    expect(accepted.json).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/), status: 'pending' });
    const location = accepted.headers.get('location')!;
    expect(location).toBe(`${h.issuer}/account/erasures/${accepted.json.id}`);
    const state = await untilDone(location);
    expect(state).toEqual({
      id: accepted.json.id,
      status: 'done',
      steps: ['sessions', 'requests', 'access_grants', 'logins', 'issued_claims', 'data'],
      steps_done: ['sessions', 'requests', 'access_grants', 'logins', 'issued_claims', 'data'],
      requested_at: expect.any(String),
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
    console.log(`erasure: accepted to done in ${Date.now() - started} ms`);
    // Its state says nothing about whose it was.
    expect(JSON.stringify(state)).not.toContain(identity.slice(2).toLowerCase());

    // What is left naming the identity: receipts and ended grants, each with its end, the
    // challenges signed for the erasure and the sign-in, which expire within minutes, and the
    // login's authorization code, refused once its Grant is gone, until its minute ends.
    const left = await keysNaming(identity);
    const kinds = Object.keys(left).map((key) =>
      key.startsWith('signet:oidc:{AuthorizationCode:')
        ? 'signet:oidc:{AuthorizationCode:<id>}'
        : key.replace(/0x[0-9a-fA-F]{40}/gi, '<identity>').replace(/[0-9a-zA-Z_-]{16,}/g, '<id>'),
    );
    expect(new Set(kinds)).toEqual(
      new Set([
        'signet:oidc:{AuthorizationCode:<id>}',
        'signet:consent:<id>',
        'signet:consents:<identity>',
        'signet:{access-grant:<id>}',
        'signet:access-grants:identity:<identity>',
        'signet:{challenge:<id>}',
      ]),
    );
    for (const [key, ttl] of Object.entries(left)) {
      const bound = key.startsWith('signet:oidc:{AuthorizationCode:') ? 60 : key.startsWith('signet:{challenge:') ? 300 : 30 * 86400;
      expect([key, ttl > 0 && ttl <= bound]).toEqual([key, true]);
    }

    // The website's tokens stop at once; the service's grant is revoked; the owner is signed out.
    await expect(oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const userinfo = await fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(401);
    const serviceRead = await api('GET', `/identities/${identity}/profile`, { key: analyticsKey });
    expect(serviceRead.status).toBe(403);
    expect(serviceRead.json.reason).toBe('grant_missing');
    expect((await api('GET', '/account/history', { agent })).json.reason).toBe('session_missing');

    // Signed in again, the export shows only what is kept, and until when.
    const again = await signInToAccount(h.issuer, owner);
    const exported = (await api('GET', '/account/export', { agent: again.agent })).json;
    expect(exported).toMatchObject({ profile: null, webhooks: [], access_history: [], claims: [], claim_requests: [] });
    expect(exported.grants.map((grant: Json) => [grant.kind, grant.status, typeof grant.kept_until])).toEqual(
      expect.arrayContaining([
        ['login', 'revoked', 'string'],
        ['persistent', 'revoked', expect.any(String)],
      ]),
    );

    // Asked again, it runs again and ends the same way (idempotent).
    const twice = await erase(again.agent, owner);
    expect(twice.status).toBe(202);
    expect((await untilDone(twice.headers.get('location')!)).status).toBe('done');
  });

  test('a signature of another text, or none, erases nothing', async () => {
    const { owner, identity } = await ownerWithProfile(5);
    const { agent } = await signInToAccount(h.issuer, owner);
    await api('POST', '/account/erasure/challenge', { agent });
    const wrong = await api('POST', '/account/erasure', { agent, body: { signature: await owner.signMessage({ message: 'something else' }) } });
    expect(wrong.status).toBe(422);
    expect(wrong.json.error).toBe('invalid_signature');
    const missing = await api('POST', '/account/erasure', { agent, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.reason).toBe('invalid_body');
    expect(await h.signet.profiles.get(identity)).toEqual({ given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  });

  test('an unknown job id is a 404', async () => {
    const answer = await api('GET', '/account/erasures/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(answer.status).toBe(404);
    expect(answer.json.reason).toBe('erasure_not_found');
  });
});
