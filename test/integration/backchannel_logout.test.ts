// OpenID Connect Back-Channel Logout 1.0 as a website sees it: a client with a
// backchannel_logout_uri logs in (openid-client), its login grant ends, and a real receiver on
// loopback gets a logout token it verifies with jose against Signet's JWKS; retried through the
// webhook queue, kept across a restart, and sent for the engine's own (RP-initiated) logout too.
import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { createWebhookQueueFor } from '../../src/app/webhook_queue_for.js';
import type { ClientConfig } from '../../src/config/config.js';
import { subjectOf } from '../../src/domain/identity/subject.js';
import { discover, followToCallback, logIn, startLogin } from '../support/login_driver.js';
import { type ReceivedRequest, type SignalReceiver, startSignalReceiver } from '../support/signal_receiver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const BACKCHANNEL_LOGOUT = 'http://schemas.openid.net/event/backchannel-logout';

let h: Harness;
let withSid: SignalReceiver;
let withoutSid: SignalReceiver;
let verify: (token: string, audience: string) => Promise<{ payload: JWTPayload; header: ReturnType<typeof decodeProtectedHeader> }>;

/** A website that wants `sid` in its ID and logout tokens. */
const SHOP = (uri: string): ClientConfig => ({
  ...WEBSITE,
  client_id: 'shop',
  client_name: 'Shop',
  backchannel_logout_uri: uri,
  backchannel_logout_session_required: true,
});
/** A website told by `sub` alone. */
const NEWS = (uri: string): ClientConfig => ({ ...WEBSITE, client_id: 'news', client_name: 'News', backchannel_logout_uri: uri });

beforeAll(async () => {
  [withSid, withoutSid] = await Promise.all([startSignalReceiver(200), startSignalReceiver(204)]);
  h = await startSignet({ clients: [WEBSITE, SHOP(withSid.url), NEWS(withoutSid.url)] });
  const jwks = createRemoteJWKSet(new URL(`${h.issuer}/jwks`));
  verify = async (token, audience) => {
    const { payload } = await jwtVerify(token, jwks, { issuer: h.issuer, audience, typ: 'logout+jwt', maxTokenAge: 130 });
    return { payload, header: decodeProtectedHeader(token) };
  };
}, 60_000);

afterAll(async () => {
  await h.close();
  await Promise.all([withSid.close(), withoutSid.close()]);
});

async function owner(index: number): Promise<{ wallet: LocalAccount; identity: Address }> {
  const wallet = h.chain.accounts[index]!;
  const identity = await h.chain.createIdentityFor(wallet.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  return { wallet, identity };
}

/** Logs the owner in to `client`: the tokens, and the login grant's id (its consent receipt's). */
async function loggedIn(client: ClientConfig, index: number) {
  const { wallet, identity } = await owner(index);
  const login = await startLogin(h.issuer, client, { scope: 'openid email' });
  const { tokens } = await logIn(login, wallet);
  const [receipt] = await h.signet.receipts.listFor(identity);
  return { identity, login, tokens, claims: tokens.claims()!, grantId: receipt!.grant_id };
}

const logoutTokenOf = (request: ReceivedRequest) => new URLSearchParams(request.body).get('logout_token')!;

test('discovery announces back-channel logout, with sessions', async () => {
  const metadata = (await discover(h.issuer, WEBSITE)).serverMetadata();
  expect(metadata.backchannel_logout_supported).toBe(true);
  expect(metadata.backchannel_logout_session_supported).toBe(true);
});

test('a login grant that ends: the website gets a logout token with its sub, sid and a fresh jti', async () => {
  const { identity, tokens, claims, grantId } = await loggedIn(SHOP(withSid.url), 0);
  // The ID token of a client that requires sessions carries the sid the logout token names.
  expect(claims.sid).toEqual(expect.any(String));
  expect(claims.sub).toBe(subjectOf(h.chain.anvil.chainId, identity));
  const before = withSid.requests.length;

  await h.signet.signals.emit({
    type: 'grant_ended',
    identity,
    client_id: 'shop',
    grant_id: grantId,
    kind: 'login',
    sid: claims.sid as string,
    reason: 'owner_revoked',
    at: Date.now(),
  });
  const [request] = (await withSid.waitFor('the logout token arrives', (all) => all.length > before)).slice(before);

  expect(request!.method).toBe('POST');
  expect(request!.path).toBe('/signals');
  expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect([...new URLSearchParams(request!.body).keys()]).toEqual(['logout_token']);
  const { payload, header } = await verify(logoutTokenOf(request!), 'shop');
  expect(header).toEqual({ alg: 'RS256', typ: 'logout+jwt', kid: 'test-key' });
  expect(payload).toEqual({
    iss: h.issuer,
    aud: 'shop',
    sub: claims.sub,
    sid: claims.sid,
    jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    iat: expect.any(Number),
    exp: payload.iat! + 120,
    events: { [BACKCHANNEL_LOGOUT]: {} },
  });
  expect(payload).not.toHaveProperty('nonce');
  expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(30);
  // The ID token was issued for the same session.
  expect(tokens.claims()!.sid).toBe(payload.sid);
});

test('a client that does not require sessions is told by sub alone; one without a logout URI is told nothing', async () => {
  const { identity, claims, grantId } = await loggedIn(NEWS(withoutSid.url), 1);
  expect(claims).not.toHaveProperty('sid');
  const before = withoutSid.requests.length;
  const ended = { type: 'grant_ended', identity, grant_id: grantId, kind: 'login', sid: 'a-session-id', reason: 'key_removed', at: Date.now() } as const;

  await waitUntil('the queue is empty', async () => (await h.webhooks.depth()) === 0);
  await h.signet.signals.emit({ ...ended, client_id: 'website' });
  // Nothing was queued for the website: the queue holds nothing.
  expect(await h.webhooks.depth()).toBe(0);

  await h.signet.signals.emit({ ...ended, client_id: 'news' });
  const [request] = (await withoutSid.waitFor('the logout token arrives', (all) => all.length > before)).slice(before);
  const { payload } = await verify(logoutTokenOf(request!), 'news');
  expect(payload).toEqual({
    iss: h.issuer,
    aud: 'news',
    sub: claims.sub,
    jti: expect.any(String),
    iat: expect.any(Number),
    exp: payload.iat! + 120,
    events: { [BACKCHANNEL_LOGOUT]: {} },
  });
  // 204 counts as taken: delivered once, nothing left to retry, no dead letter.
  await waitUntil('the queue is empty', async () => (await h.webhooks.depth()) === 0);
  expect(withoutSid.requests.length - before).toBe(1);
  expect(await h.webhooks.deadLetters()).toEqual([]);
});

test('a receiver that fails is retried with the same jti, each attempt signed afresh', async () => {
  const { identity, claims, grantId } = await loggedIn(SHOP(withSid.url), 2);
  const before = withSid.requests.length;
  withSid.failNext(2, 503);
  await h.signet.signals.emit({
    type: 'grant_ended',
    identity,
    client_id: 'shop',
    grant_id: grantId,
    kind: 'login',
    sid: claims.sid as string,
    reason: 'erasure',
    at: Date.now(),
  });
  await waitUntil('three attempts were made', () => withSid.requests.length - before === 3);
  await waitUntil('the queue is empty', async () => (await h.webhooks.depth()) === 0);
  const attempts = await Promise.all(withSid.requests.slice(before).map((request) => verify(logoutTokenOf(request), 'shop')));
  expect(new Set(attempts.map(({ payload }) => payload.jti)).size).toBe(1);
  expect(attempts.map(({ payload }) => payload.sid)).toEqual([claims.sid, claims.sid, claims.sid]);
  expect(withSid.requests.length - before).toBe(3);
});

test('Signet restarts between the end and the delivery: the logout token still arrives', async () => {
  const { identity, claims, grantId } = await loggedIn(SHOP(withSid.url), 3);
  const before = withSid.requests.length;
  await waitUntil('the queue is empty', async () => (await h.webhooks.depth()) === 0);
  await h.webhooks.stop();
  let restarted: ReturnType<typeof createWebhookQueueFor> | undefined;
  try {
    await h.signet.signals.emit({
      type: 'grant_ended',
      identity,
      client_id: 'shop',
      grant_id: grantId,
      kind: 'login',
      sid: claims.sid as string,
      reason: 'owner_revoked',
      at: Date.now(),
    });
    // Durable once emit resolves: it waits in Redis with no worker running.
    expect(await h.webhooks.depth()).toBe(1);
    expect(withSid.requests.length).toBe(before);
    // A new process: a new queue on the same Redis and the same configuration.
    restarted = createWebhookQueueFor(h.config, h.store, { retryDelaysMs: [50], pollMs: 20 });
    restarted.start();
    const [request] = (await withSid.waitFor('the logout token arrives', (all) => all.length > before)).slice(before);
    expect((await verify(logoutTokenOf(request!), 'shop')).payload).toMatchObject({ sub: claims.sub, sid: claims.sid });
  } finally {
    await restarted?.close();
    h.webhooks.start();
  }
});

test("the owner signs out of Signet (RP-initiated logout): the engine's logout token goes through the queue", async () => {
  const { login, tokens, claims } = await loggedIn(SHOP(withSid.url), 4);
  const before = withSid.requests.length;
  withSid.failNext(1, 500);
  const endSession = oidc.buildEndSessionUrl(login.config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://website.example/bye' });
  const page = await login.agent.fetch(endSession);
  const html = await page.text();
  const action = /action="([^"]+)"/.exec(html)![1]!;
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
  const confirmed = await login.agent.fetch(new URL(action, h.issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }),
  });
  expect(confirmed.status).toBe(303);
  const back = new URL(confirmed.headers.get('location')!, h.issuer);
  const landing = back.href.startsWith(h.issuer) ? await followToCallback(login, back.href) : back;
  expect(landing.origin + landing.pathname).toBe('https://website.example/bye');
  // The first attempt failed (500); the queue's retry delivered it.
  await withSid.waitFor('the retried logout token arrives', (all) => all.length - before === 2);
  const { payload } = await verify(logoutTokenOf(withSid.requests.at(-1)!), 'shop');
  expect(payload).toEqual({
    iss: h.issuer,
    aud: 'shop',
    sub: claims.sub,
    sid: claims.sid,
    jti: expect.any(String),
    iat: expect.any(Number),
    exp: payload.iat! + 120,
    events: { [BACKCHANNEL_LOGOUT]: {} },
  });
});
