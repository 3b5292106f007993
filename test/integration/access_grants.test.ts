// The access-grant API end to end: immediate and persistent grants, API keys, the owner's
// inbox, webhooks to a real receiver, revocation and listing, against real Redis and anvil.
import type { Address, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createWebhookQueueFor } from '../../src/app/webhook_queue_for.js';
import type { ClientConfig } from '../../src/config/config.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { jsonApi } from '../support/json_api.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook_receiver.js';

let h: Harness;
let receiver: WebhookReceiver;
let analyticsKey: string;
let otherKey: string;

const withWebhook = (url: string): ClientConfig => ({ ...ANALYTICS, webhook_url: url, webhook_secret: 'analytics-webhook-secret' });
const OTHER: ClientConfig = { ...ANALYTICS, client_id: 'other', client_name: 'Other Co' };

beforeAll(async () => {
  receiver = await startWebhookReceiver('analytics-webhook-secret');
  // The owner's webhook receiver is on loopback: private targets allowed, as in development.
  h = await startSignet({ clients: [WEBSITE, withWebhook(receiver.url), OTHER], configure: () => ({ webhooks: { allowPrivate: true } }) });
  analyticsKey = (await h.signet.apiKeys.create('analytics', 'tests')).key;
  otherKey = (await h.signet.apiKeys.create('other')).key;
}, 60_000);

afterAll(async () => {
  await h.close();
  await receiver.close();
});

async function ownerWithProfile(index: number) {
  const owner = h.chain.accounts[index]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  return { owner, identity };
}

const api = jsonApi(() => h.issuer);

async function signIn(owner: LocalAccount) {
  return (await signInToAccount(h.issuer, owner)).agent;
}

async function requestGrant(identity: Address, kind: 'immediate' | 'persistent', fields?: string[], key = analyticsKey) {
  const answer = await api('POST', `/identities/${identity}/profile/access-requests`, { key, body: { kind, ...(fields ? { fields } : {}) } });
  expect(answer.status).toBe(201);
  return answer;
}

describe('immediate grants', () => {
  test('request → challenge → owner signs → service validates → exactly one read', async () => {
    const { owner, identity } = await ownerWithProfile(0);
    const request = await requestGrant(identity, 'immediate', ['given_name', 'email']);
    const id = request.json.id as string;
    // Absolute from the issuer, so it survives a path prefix in front of Signet.
    expect(request.location).toBe(`${h.issuer}/access-grants/${id}`);
    expect(request.json).toEqual({
      id,
      kind: 'immediate',
      status: 'pending',
      fields: ['given_name', 'email'],
      challenge: expect.any(String),
      expires_at: expect.any(String),
    });
    const challenge = request.json.challenge as string;
    expect(challenge).toContain('Analytics Co asks for one-time access (a single read) to your data.');
    expect(challenge).toContain(`Identity: eip155:31337:${identity}`);
    expect(challenge).toContain(`Resource: ${h.issuer}/identities/${identity}/profile`);
    expect(challenge).toContain('Fields: given_name, email');
    expect(challenge).toContain(`Grant: ${id}`);

    // The service relays the owner's signature to the validations path (Location + /validations).
    const signature = await owner.signMessage({ message: challenge });
    const validated = await api('POST', `${new URL(request.location!).pathname}/validations`, { body: { signature } });
    expect(validated.status).toBe(200);
    expect(validated.json).toEqual({
      grant: expect.objectContaining({ id, status: 'active', signer: owner.address, signature, granted_at: expect.any(String) }),
      access_token: expect.stringMatching(/^sgt_/),
      token_type: 'Bearer',
      expires_in: 300,
    });
    const token = validated.json.access_token as string;

    const read = await api('GET', `/identities/${identity}/profile`, { token });
    expect(read).toMatchObject({ status: 200, json: { identity, fields: ['given_name', 'email'], values: { given_name: 'Ada', email: 'ada@example.org' } } });
    const again = await api('GET', `/identities/${identity}/profile`, { token });
    // A spent token is dead: 401 with the challenge of RFC 6750, the reason naming why.
    expect(again.status).toBe(401);
    expect(again.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(again.json).toMatchObject({ error: 'invalid_token', reason: 'token_used', previous_reason: 'grant_used' });

    const record = await api('GET', `/access-grants/${id}`, { key: analyticsKey });
    expect(record.json).toMatchObject({ id, status: 'used', used_at: expect.any(String), kind: 'immediate', service: 'analytics' });
  });

  test('50 concurrent reads of one immediate grant: exactly one 200', async () => {
    const { owner, identity } = await ownerWithProfile(1);
    const request = await requestGrant(identity, 'immediate');
    const validated = await api('POST', `/access-grants/${request.json.id}/validations`, {
      body: { signature: await owner.signMessage({ message: request.json.challenge }) },
    });
    const token = validated.json.access_token as string;
    const reads = await Promise.all(Array.from({ length: 50 }, () => api('GET', `/identities/${identity}/profile`, { token })));
    expect(reads.filter((read) => read.status === 200)).toHaveLength(1);
    expect(reads.filter((read) => read.status === 401 && read.json.reason === 'token_used')).toHaveLength(49);
  });
});

describe('persistent grants', () => {
  test('request → owner notified in the inbox → owner signs → service notified → reads fresh data until revoked', async () => {
    const { owner, identity } = await ownerWithProfile(2);
    const request = await requestGrant(identity, 'persistent', ['given_name', 'email']);
    const id = request.json.id as string;
    expect(request.json.challenge).toContain('Analytics Co asks for lasting access, until you revoke it, to your data.');

    const agent = await signIn(owner);
    const inbox = await api('GET', '/account/inbox', { agent });
    expect(inbox.json.pending.map((grant: { id: string }) => grant.id)).toEqual([id]);

    // Before approval the API key reads nothing.
    const early = await api('GET', `/identities/${identity}/profile`, { key: analyticsKey });
    expect(early).toMatchObject({ status: 403, json: { error: 'access_denied', reason: 'grant_missing' } });

    const signature = await owner.signMessage({ message: inbox.json.pending[0].challenge });
    const approved = await api('POST', `/access-grants/${id}/validations`, { agent, body: { signature } });
    expect(approved.status).toBe(200);

    const [event] = await receiver.waitFor((events) => events.some((e) => e.type === 'access_grant.granted' && (e.data.grant as { id: string }).id === id));
    const granted = receiver.events.find((e) => e.type === 'access_grant.granted' && (e.data.grant as { id: string }).id === id)!;
    expect(event).toBeDefined();
    expect(granted).toMatchObject({
      service: 'analytics',
      data: { grant: { id, status: 'active', kind: 'persistent', identity, fields: ['given_name', 'email'] } },
    });
    expect((granted.data.grant as Record<string, unknown>).signature).toBeUndefined();

    const read = await api('GET', `/identities/${identity}/profile`, { key: analyticsKey });
    expect(read.json).toEqual({ identity, fields: ['given_name', 'email'], values: { given_name: 'Ada', email: 'ada@example.org' } });
    // Updatable data is read fresh.
    await h.signet.profiles.set(identity, { given_name: 'Augusta', family_name: 'Lovelace', email: 'augusta@example.org' });
    expect((await api('GET', `/identities/${identity}/profile`, { key: analyticsKey })).json.values).toEqual({
      given_name: 'Augusta',
      email: 'augusta@example.org',
    });
    const token = approved.json.access_token as string;
    expect((await api('GET', `/identities/${identity}/profile`, { token })).status).toBe(200);
    expect((await api('GET', `/identities/${identity}/profile`, { token })).status).toBe(200);

    // The owner revokes: every read under the grant stops at once, and the service is told.
    const revoked = await api('POST', `/access-grants/${id}/revocations`, { agent, body: {} });
    expect(revoked.json).toMatchObject({ id, status: 'revoked', revoked_at: expect.any(String) });
    expect(await api('GET', `/identities/${identity}/profile`, { key: analyticsKey })).toMatchObject({
      status: 403,
      json: { error: 'access_denied', reason: 'grant_missing' },
    });
    expect(await api('GET', `/identities/${identity}/profile`, { token })).toMatchObject({
      status: 401,
      json: {
        error: 'invalid_token',
        reason: 'token_revoked',
        previous_reason: 'grant_revoked',
        error_description: `the access grant of this token was revoked at ${revoked.json.revoked_at}`,
      },
    });
    await receiver.waitFor((events) => events.some((e) => e.type === 'access_grant.revoked' && (e.data.grant as { id: string }).id === id));
    const again = await api('POST', `/access-grants/${id}/revocations`, { agent, body: {} });
    expect(again).toMatchObject({ status: 409, json: { error: 'conflict', reason: 'grant_not_active' } });
  });

  test("the owner's optional webhook hears of each lasting-access request", async () => {
    const { owner, identity } = await ownerWithProfile(8);
    const agent = await signIn(owner);
    const ownerReceiver = await startWebhookReceiver('owner-webhook-secret-value');
    try {
      const set = await api('PUT', '/account/webhook', { agent, body: { url: ownerReceiver.url, secret: 'owner-webhook-secret-value' } });
      expect(set.json).toEqual({ url: ownerReceiver.url, secret: 'owner-webhook-secret-value', events: ['access_request.created'] });
      expect((await api('GET', '/account/webhook', { agent })).json).toEqual({ url: ownerReceiver.url });
      const request = await requestGrant(identity, 'persistent', ['given_name']);
      const [event] = await ownerReceiver.waitFor((events) => events.length === 1);
      expect(event).toMatchObject({
        type: 'access_request.created',
        service: `owner:${identity}`,
        data: { grant: { id: request.json.id, status: 'pending', service: 'analytics', fields: ['given_name'], challenge: request.json.challenge } },
      });
      // Immediate requests go through the service to the owner: no owner webhook. A request's
      // events are queued before it answers, so once the queue has settled everything, any
      // owner webhook for it would have arrived.
      await requestGrant(identity, 'immediate');
      await waitUntil('the webhook queue has settled every event', async () => (await h.webhooks.depth()) === 0);
      expect(ownerReceiver.events).toHaveLength(1);
      expect((await api('DELETE', '/account/webhook', { agent })).status).toBe(204);
      expect((await api('GET', '/account/webhook', { agent })).json).toEqual({ url: null });
    } finally {
      await ownerReceiver.close();
    }
  });

  test('the owner denies: the service is told and the grant cannot be validated', async () => {
    const { owner, identity } = await ownerWithProfile(3);
    const request = await requestGrant(identity, 'persistent');
    const id = request.json.id as string;
    const agent = await signIn(owner);
    const denied = await api('POST', `/access-grants/${id}/denials`, { agent, body: {} });
    expect(denied.json).toMatchObject({ id, status: 'denied', denied_at: expect.any(String) });
    await receiver.waitFor((events) => events.some((e) => e.type === 'access_grant.denied' && (e.data.grant as { id: string }).id === id));
    const late = await api('POST', `/access-grants/${id}/validations`, { body: { signature: await owner.signMessage({ message: request.json.challenge }) } });
    expect(late).toMatchObject({ status: 409, json: { error: 'conflict', reason: 'grant_not_pending' } });
  });

  test('the receiver fails twice, then recovers: the webhook arrives once', async () => {
    const { owner, identity } = await ownerWithProfile(4);
    const request = await requestGrant(identity, 'persistent');
    const id = request.json.id as string;
    const before = receiver.attempts;
    receiver.failNext(2);
    await api('POST', `/access-grants/${id}/validations`, { body: { signature: await owner.signMessage({ message: request.json.challenge }) } });
    await receiver.waitFor((events) => events.some((e) => (e.data.grant as { id: string }).id === id));
    expect(receiver.attempts - before).toBe(3);
    expect(receiver.events.filter((e) => (e.data.grant as { id: string }).id === id)).toHaveLength(1);
  });

  test('Signet restarts between the approval and the delivery: still delivered', async () => {
    const { owner, identity } = await ownerWithProfile(5);
    const request = await requestGrant(identity, 'persistent');
    const id = request.json.id as string;
    await h.webhooks.stop();
    await api('POST', `/access-grants/${id}/validations`, { body: { signature: await owner.signMessage({ message: request.json.challenge }) } });
    // Queued before the validation answered, and not delivered: the stopped worker reads nothing.
    expect(await h.webhooks.depth()).toBeGreaterThanOrEqual(1);
    expect(receiver.events.some((e) => (e.data.grant as { id: string }).id === id)).toBe(false);
    // A new process: a new queue on the same Redis.
    const restarted = createWebhookQueueFor(h.config, h.store, { retryDelaysMs: [50], pollMs: 20 });
    restarted.start();
    try {
      await receiver.waitFor((events) => events.some((e) => (e.data.grant as { id: string }).id === id));
    } finally {
      await restarted.close();
      h.webhooks.start();
    }
  });
});

describe('refusals, each with its exact error', () => {
  let identity: Address;
  let owner: LocalAccount;

  beforeAll(async () => {
    ({ owner, identity } = await ownerWithProfile(6));
  });

  test('wrong, revoked and rotated API keys', async () => {
    const path = `/identities/${identity}/profile/access-requests`;
    const invalid = { error: 'invalid_client', reason: 'api_key_invalid' };
    expect(await api('POST', path, { key: 'sgk_nope', body: { kind: 'immediate' } })).toMatchObject({ status: 401, json: invalid });
    expect(await api('POST', path, { body: { kind: 'immediate' } })).toMatchObject({
      status: 401,
      json: { error: 'invalid_client', reason: 'api_key_invalid' },
    });
    const revokable = await h.signet.apiKeys.create('analytics', 'to revoke');
    await h.signet.apiKeys.revoke('analytics', revokable.id);
    expect(await api('POST', path, { key: revokable.key, body: { kind: 'immediate' } })).toMatchObject({ status: 401, json: invalid });
    const rotating = await h.signet.apiKeys.create('analytics', 'to rotate');
    const rotated = await h.signet.apiKeys.rotate('analytics', rotating.id);
    expect(await api('POST', path, { key: rotating.key, body: { kind: 'immediate' } })).toMatchObject({ status: 401, json: invalid });
    expect((await api('POST', path, { key: rotated.key, body: { kind: 'immediate' } })).status).toBe(201);
    // A key of a service no longer configured stops working with it.
    const orphan = await h.signet.apiKeys.create('removed-service');
    expect(await api('POST', path, { key: orphan.key, body: { kind: 'immediate' } })).toMatchObject({ status: 401, json: invalid });
  });

  test('a request for fields the resource does not have', async () => {
    const answer = await api('POST', `/identities/${identity}/profile/access-requests`, {
      key: analyticsKey,
      body: { kind: 'immediate', fields: ['phone_number'] },
    });
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'field_unknown' } });
    const badKind = await api('POST', `/identities/${identity}/profile/access-requests`, { key: analyticsKey, body: { kind: 'forever' } });
    expect(badKind).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'invalid_body' } });
  });

  test('a signature by a wallet not linked to the identity', async () => {
    const request = await requestGrant(identity, 'immediate');
    const stranger = h.chain.accounts[8]!;
    const answer = await api('POST', `/access-grants/${request.json.id}/validations`, {
      body: { signature: await stranger.signMessage({ message: request.json.challenge }) },
    });
    expect(answer).toMatchObject({
      status: 403,
      json: { error: 'access_denied', reason: 'wallet_not_linked' },
    });
  });

  test('an expired pending request', async () => {
    const request = await requestGrant(identity, 'persistent');
    const signature = await owner.signMessage({ message: request.json.challenge });
    h.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    try {
      const answer = await api('POST', `/access-grants/${request.json.id}/validations`, { body: { signature } });
      expect(answer).toMatchObject({ status: 410, json: { error: 'expired', reason: 'grant_expired' } });
      expect((await api('GET', `/access-grants/${request.json.id}`, { key: analyticsKey })).json.status).toBe('expired');
    } finally {
      h.clock.advance(-(7 * 24 * 3600 * 1000 + 1000));
    }
  });

  test('a validation replayed', async () => {
    const request = await requestGrant(identity, 'immediate');
    const body = { signature: await owner.signMessage({ message: request.json.challenge }) };
    expect((await api('POST', `/access-grants/${request.json.id}/validations`, { body })).status).toBe(200);
    expect(await api('POST', `/access-grants/${request.json.id}/validations`, { body })).toMatchObject({
      status: 409,
      json: { error: 'conflict', reason: 'grant_not_pending' },
    });
  });

  test("a grant of another service read with this service's key", async () => {
    const request = await requestGrant(identity, 'persistent', undefined, otherKey);
    await api('POST', `/access-grants/${request.json.id}/validations`, { body: { signature: await owner.signMessage({ message: request.json.challenge }) } });
    expect(await api('GET', `/access-grants/${request.json.id}`, { key: analyticsKey })).toMatchObject({
      status: 404,
      json: { error: 'not_found', reason: 'grant_not_found' },
    });
    expect((await api('GET', `/identities/${identity}/profile`, { key: otherKey })).status).toBe(200);
    expect(await api('GET', `/identities/${identity}/profile`, { key: analyticsKey })).toMatchObject({ status: 403, json: { error: 'access_denied' } });
  });
});

test('/openapi.json is served and is the document the tests check against', async () => {
  const response = await fetch(`${h.issuer}/openapi.json`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual(JSON.parse(JSON.stringify(h.signet.openApi)));
});

test('listing: the owner sees logins and access grants page by page; a service only its own', async () => {
  const { owner, identity } = await ownerWithProfile(7);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  await logIn(login, owner);
  const first = await requestGrant(identity, 'immediate');
  const second = await requestGrant(identity, 'persistent', undefined, otherKey);
  const agent = await signIn(owner);

  const seen: { id: string; kind: string; service: string }[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=1&cursor=${cursor}` : '?limit=1';
    const page = await api('GET', `/access-grants${query}`, { agent });
    expect(page.status).toBe(200);
    expect(page.json.items).toHaveLength(1);
    seen.push(...page.json.items);
    cursor = page.json.next_cursor;
  } while (cursor);
  expect(seen.map((grant) => [grant.kind, grant.service]).sort()).toEqual([
    ['immediate', 'analytics'],
    ['login', 'website'],
    ['persistent', 'other'],
  ]);
  expect(seen.map((grant) => grant.id)).toEqual(expect.arrayContaining([first.json.id, second.json.id]));

  const mine = await api('GET', `/access-grants?identity=${identity}`, { key: otherKey });
  expect(mine.json.items.map((grant: { id: string }) => grant.id)).toEqual([second.json.id]);
  // The identity filter is honoured for a service: its own grants of that identity only.
  const elsewhere = await h.chain.createIdentityFor(privateKeyToAccount(generatePrivateKey()).address);
  await h.signet.profiles.set(elsewhere, { email: 'grace@example.org' });
  const elsewhereGrant = await requestGrant(elsewhere, 'persistent', undefined, otherKey);
  const ofElsewhere = await api('GET', `/access-grants?identity=${elsewhere.toLowerCase()}`, { key: otherKey });
  expect(ofElsewhere.json.items.map((grant: { id: string }) => grant.id)).toEqual([elsewhereGrant.json.id]);
  const all = await api('GET', '/access-grants', { key: otherKey });
  // Without the filter: its grants of every identity (earlier tests' included), and only its own.
  expect(all.json.items.map((grant: { id: string }) => grant.id)).toEqual(expect.arrayContaining([second.json.id, elsewhereGrant.json.id]));
  expect(all.json.items.every((grant: { service: string }) => grant.service === 'other')).toBe(true);
  expect(await api('GET', '/access-grants?cursor=zzz', { agent })).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'invalid_query' } });
  expect(await api('GET', '/access-grants?limit=101', { agent })).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'invalid_query' } });
  expect(await api('GET', `/access-grants?identity=${elsewhere}`, { agent })).toMatchObject({ status: 403, json: { reason: 'identity_not_yours' } });
  expect(await api('GET', '/access-grants')).toMatchObject({ status: 401, json: { error: 'invalid_client', reason: 'caller_missing' } });
});
