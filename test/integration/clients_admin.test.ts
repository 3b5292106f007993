// Clients at run time, on two Signet processes sharing one Redis and one chain: the admin API
// (/admin/clients) with its exact refusals; a client created through one process logs in through
// the other at once, a change of its redirect URIs is in force in the other within a second, and
// its deletion makes every token it held fail; run-time clients get webhooks, back-channel logout
// and names exactly as CLIENTS' do; CLIENTS is written at start by processes starting together.
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { createApp } from '../../src/app/app.js';
import { validateConfig } from '../../src/config/config.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type Json, jsonApi } from '../support/json_api.js';
import { discover, type LoginStart, signChallenge, submitSignature } from '../support/login_driver.js';
import { type SignalReceiver, startSignalReceiver } from '../support/signal_receiver.js';
import { ANALYTICS, basicAuth, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook_receiver.js';

const ADMIN_TOKEN = 'admin-token-for-the-run-time-client-tests';
const NOWHERE = 'nowhere.invalid';

let h: Harness;
let webhooks: WebhookReceiver;
let logouts: SignalReceiver;
let owner: LocalAccount;
let identity: Address;

beforeAll(async () => {
  webhooks = await startWebhookReceiver('run-time-webhook-secret');
  logouts = await startSignalReceiver(200);
  h = await startSignet({
    peers: 1,
    clients: [WEBSITE, ANALYTICS],
    // The receivers are on loopback: private targets allowed, as in development. NOWHERE resolves to nothing.
    configure: () => ({ adminToken: ADMIN_TOKEN, webhooks: { allowPrivate: true } }),
    resolveHost: async (host) => {
      if (host === NOWHERE) throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
  owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
}, 60_000);

afterAll(async () => {
  await h.close();
  await webhooks.close();
  await logouts.close();
});

const api = jsonApi(() => h.issuer);
const admin = (method: string, path: string, body?: unknown, base = h.issuer) =>
  jsonApi(() => base)(method, path, { token: ADMIN_TOKEN, ...(body === undefined ? {} : { body }) });
const refusal = (error: string, reason: string) => ({ error, error_description: expect.any(String), reason });

/** A website's metadata as in CLIENTS. */
const website = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_secret: `${clientId}-secret-value`,
  client_name: `Site ${clientId}`,
  redirect_uris: [`https://${clientId}.example/callback`],
  ...extra,
});

type Client = { client_id: string; client_secret?: string; redirect_uris: string[] };

/** The same URL on another process (a load balancer sending the request elsewhere). */
const on = (base: string, url: string) => {
  const moved = new URL(url);
  moved.host = new URL(base).host;
  return moved.href;
};

/** openid-client configured as a website would be, with every endpoint on process `base` (behind the one issuer). */
async function clientOn(base: string, client: Client): Promise<oidc.Configuration> {
  const metadata = (await discover(h.issuer, { ...ANALYTICS, ...client })).serverMetadata();
  const moved = Object.fromEntries(
    Object.entries(metadata).map(([name, value]) => [name, typeof value === 'string' && name !== 'issuer' ? value.replace(h.issuer, base) : value]),
  );
  const configuration = new oidc.Configuration(moved as oidc.ServerMetadata, client.client_id, client.client_secret);
  oidc.allowInsecureRequests(configuration);
  return configuration;
}

/** The authorization request a website sends, answered by process `base`; the login when it lands on the interaction. */
async function startLoginOn(base: string, client: Client, redirectUri = client.redirect_uris[0]!): Promise<{ status: number; login?: LoginStart }> {
  const config = await clientOn(base, client);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const agent = new UserAgent();
  const response = await agent.fetch(url);
  await response.arrayBuffer();
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) return { status: response.status };
  const interactionUrl = new URL(location, base).href;
  return { status: 303, login: { agent, config, uid: interactionUrl.split('/').pop()!, interactionUrl, verifier, state, nonce } };
}

/** A whole login through process `base`: every step, the code exchange included, answered there. */
async function logInOn(base: string, client: Client) {
  const { login } = await startLoginOn(base, client);
  if (!login) throw new Error(`the login of ${client.client_id} did not start on ${base}`);
  const signed = await signChallenge(login, owner);
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  expect(answer.status).toBe(200);
  let next = new URL(on(base, new URL(answer.json.redirect_to as string, base).href));
  for (;;) {
    const response = await login.agent.fetch(next);
    await response.arrayBuffer();
    const target = new URL(response.headers.get('location')!, next);
    if (!target.href.startsWith(base) && !target.href.startsWith(h.issuer)) {
      return oidc.authorizationCodeGrant(login.config, target, { pkceCodeVerifier: login.verifier, expectedState: login.state, expectedNonce: login.nonce });
    }
    next = new URL(on(base, target.href));
  }
}

describe('the admin API refuses, each refusal with its status and reason', () => {
  test('without the admin token, or with a wrong one: 401 admin_token_invalid', async () => {
    for (const [method, path] of [
      ['GET', '/admin/clients'],
      ['POST', '/admin/clients'],
      ['GET', '/admin/clients/website'],
      ['PUT', '/admin/clients/website'],
      ['DELETE', '/admin/clients/website'],
    ] as const) {
      const body = method === 'POST' || method === 'PUT' ? website('x') : undefined;
      expect(await api(method, path, { body })).toMatchObject({ status: 401, json: refusal('invalid_token', 'admin_token_invalid') });
      expect(await api(method, path, { body, token: `${ADMIN_TOKEN}-wrong` })).toMatchObject({
        status: 401,
        json: refusal('invalid_token', 'admin_token_invalid'),
      });
    }
  });

  test('metadata the engine or Signet refuses: 400 client_metadata_invalid, naming the rule; nothing stored', async () => {
    const cases: [Record<string, unknown>, string][] = [
      // The engine's own rules.
      [website('bad-scope', { scope: 'openid payroll' }), 'scope must only contain Authorization Server supported scope values'],
      [website('bad-fragment', { redirect_uris: ['https://bad.example/callback#part'] }), 'redirect_uris must not contain fragments'],
      [website('no-redirect', { redirect_uris: [] }), 'redirect_uris must contain members'],
      [
        website('ciba-no-mode', { grant_types: ['urn:openid:params:grant-type:ciba'], redirect_uris: [] }),
        'backchannel_token_delivery_mode is mandatory property',
      ],
      // Signet's rules, the same as CLIENTS'.
      [website('no-webhook-secret', { webhook_url: 'https://hooks.example/signet' }), 'webhook_secret is required with webhook_url'],
      [website('sid-no-uri', { backchannel_logout_session_required: true }), 'backchannel_logout_session_required needs backchannel_logout_uri'],
      // A URL Signet would call must resolve (to a public address outside development).
      [
        website('nowhere', { webhook_url: `https://${NOWHERE}/hook`, webhook_secret: 'run-time-webhook-secret' }),
        `webhook_url is refused: the webhook host ${NOWHERE} does not resolve`,
      ],
    ];
    for (const [body, description] of cases) {
      expect(await admin('POST', '/admin/clients', body)).toMatchObject({
        status: 400,
        json: { ...refusal('invalid_request', 'client_metadata_invalid'), error_description: description },
      });
      expect(await admin('GET', `/admin/clients/${body.client_id}`)).toMatchObject({ status: 404, json: refusal('not_found', 'client_not_found') });
    }
    // The body's own form (the schema CLIENTS is read with) comes first.
    expect(await admin('POST', '/admin/clients', { client_name: 'No URL', redirect_uris: ['not a url'] })).toMatchObject({
      status: 400,
      json: refusal('invalid_request', 'invalid_body'),
    });
    expect(await admin('POST', '/admin/clients', website('has/slash'))).toMatchObject({ status: 400, json: refusal('invalid_request', 'invalid_body') });
  });

  test('an unknown client: 404 client_not_found on read, replace and delete', async () => {
    expect(await admin('GET', '/admin/clients/nobody')).toMatchObject({ status: 404, json: refusal('not_found', 'client_not_found') });
    expect(await admin('PUT', '/admin/clients/nobody', website('nobody'))).toMatchObject({ status: 404, json: refusal('not_found', 'client_not_found') });
    expect(await admin('DELETE', '/admin/clients/nobody')).toMatchObject({ status: 404, json: refusal('not_found', 'client_not_found') });
  });

  test('a CLIENTS client is read-only: 409 client_configured on replace and delete, 409 client_id_taken on create', async () => {
    const configured = await admin('GET', '/admin/clients/website');
    expect(configured).toMatchObject({ status: 200, json: { client_id: 'website', client_name: 'Test Website', configured: true } });
    const changed = await admin('PUT', '/admin/clients/website', { ...WEBSITE, client_name: 'Renamed' });
    expect(changed).toMatchObject({ status: 409, json: refusal('conflict', 'client_configured') });
    expect(changed.json.error_description).toContain('edit CLIENTS');
    expect(await admin('DELETE', '/admin/clients/website')).toMatchObject({ status: 409, json: refusal('conflict', 'client_configured') });
    expect(await admin('POST', '/admin/clients', WEBSITE)).toMatchObject({ status: 409, json: refusal('conflict', 'client_id_taken') });
    expect((await admin('GET', '/admin/clients/website')).json).toEqual(configured.json);
  });

  test('a replacement may not change the id', async () => {
    expect((await admin('POST', '/admin/clients', website('fixed-id'))).status).toBe(201);
    expect(await admin('PUT', '/admin/clients/fixed-id', website('other-id'))).toMatchObject({
      status: 400,
      json: refusal('invalid_request', 'client_metadata_invalid'),
    });
  });
});

test('created through one process, a client logs in through the other at once; the list and a read show it as stored', async () => {
  const [a, b] = [h.issuer, h.peers[0]!.url];
  const created = await admin('POST', '/admin/clients', { client_name: 'Shop', redirect_uris: ['https://shop.example/callback'] }, a);
  expect(created.status).toBe(201);
  const client = created.json as Client & Json;
  // The id and the secret are made when left out; the defaults are CLIENTS'.
  expect(client).toMatchObject({
    client_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    client_name: 'Shop',
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'client_secret_basic',
    response_types: ['code'],
    configured: false,
  });
  expect(created.location).toBe(`${h.issuer}/admin/clients/${client.client_id}`);

  const tokens = await logInOn(b, client);
  expect(tokens.claims()).toMatchObject({ aud: client.client_id, given_name: 'Ada' });
  expect(await admin('GET', `/admin/clients/${client.client_id}`, undefined, b)).toEqual(expect.objectContaining({ status: 200, json: client }));
  const listed = (await admin('GET', '/admin/clients', undefined, b)).json.clients as Json[];
  expect(listed.map((each) => each.client_id)).toEqual(expect.arrayContaining(['website', 'analytics', client.client_id]));
  expect(listed.find((each) => each.client_id === 'analytics')).toMatchObject({ configured: true });
});

test('a replacement of its redirect URIs through one process is in force in the other within a second', async () => {
  const [a, b] = [h.issuer, h.peers[0]!.url];
  const client = website('moving');
  expect((await admin('POST', '/admin/clients', client, a)).status).toBe(201);
  // Process B has the client now (and keeps it in its cache for up to a second).
  expect((await startLoginOn(b, client)).status).toBe(303);
  const moved = { ...client, redirect_uris: ['https://moving.example/new-callback'] };
  const replaced = await admin('PUT', '/admin/clients/moving', { ...moved, client_secret: undefined }, a);
  // A client_secret left out is kept.
  expect(replaced).toMatchObject({ status: 200, json: { redirect_uris: moved.redirect_uris, client_secret: client.client_secret } });
  const changedAt = Date.now();
  await waitUntil(
    'process B takes the new redirect URI and refuses the old one',
    async () => (await startLoginOn(b, moved)).status === 303 && (await startLoginOn(b, client)).status === 400,
    3000,
  );
  expect(Date.now() - changedAt).toBeLessThan(1500);
});

test('deleted through one process: its refresh, userinfo and resource reads fail at once, its API keys, name and webhook go', async () => {
  const [a, b] = [h.issuer, h.peers[0]!.url];
  const client = website('leaving', {
    grant_types: ['authorization_code', 'refresh_token'],
    webhook_url: `${webhooks.url}/leaving`,
    webhook_secret: 'run-time-webhook-secret',
  });
  expect((await admin('POST', '/admin/clients', client, a)).status).toBe(201);
  const key = (await admin('POST', '/admin/services/leaving/api-keys', {}, a)).json.key as string;
  const tokens = await logInOn(b, client);
  const config = await clientOn(b, client);
  expect((await api('GET', `/identities/${identity}/profile`, { token: tokens.access_token })).status).toBe(200);
  // As a service: a lasting access grant the owner signs (its webhook hears of it), and a request left pending.
  const request = await api('POST', `/identities/${identity}/profile/access-requests`, { key, body: { kind: 'persistent', fields: ['given_name'] } });
  const signature = await owner.signMessage({ message: request.json.challenge as string });
  const grantToken = (await api('POST', `/access-grants/${request.json.id}/validations`, { body: { signature } })).json.access_token as string;
  await webhooks.waitFor((events) => events.some((event) => event.service === 'leaving' && event.type === 'access_grant.granted'));
  expect((await api('GET', `/identities/${identity}/profile`, { key })).status).toBe(200);
  expect((await api('POST', `/identities/${identity}/profile/access-requests`, { key, body: { kind: 'persistent', fields: ['email'] } })).status).toBe(201);

  expect(await admin('DELETE', '/admin/clients/leaving', undefined, a)).toMatchObject({ status: 204 });

  // Refused at once, on either process.
  await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
    code: 'OAUTH_RESPONSE_BODY_ERROR',
    error: 'invalid_client',
    status: 401,
  });
  for (const base of [a, b]) {
    const userinfo = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect({ status: userinfo.status, body: await userinfo.json() }).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect(await jsonApi(() => base)('GET', `/identities/${identity}/profile`, { token: tokens.access_token })).toMatchObject({
      status: 401,
      json: refusal('invalid_token', 'token_invalid'),
    });
    expect(await jsonApi(() => base)('GET', `/identities/${identity}/profile`, { key })).toMatchObject({
      status: 401,
      json: refusal('invalid_client', 'api_key_invalid'),
    });
    expect(await jsonApi(() => base)('GET', `/identities/${identity}/profile`, { token: grantToken })).toMatchObject({
      status: 401,
      json: { ...refusal('invalid_token', 'token_revoked'), previous_reason: 'grant_revoked' },
    });
  }
  expect(await admin('GET', '/admin/clients/leaving', undefined, b)).toMatchObject({ status: 404, json: refusal('not_found', 'client_not_found') });
  expect(await admin('GET', '/admin/services/leaving/api-keys')).toMatchObject({
    status: 404,
    json: { ...refusal('not_found', 'client_not_found'), previous_reason: 'service_not_found' },
  });
  // Nothing of it is left: its record, its index of logins, its API keys; its pending request was denied.
  expect(await h.store.get(keys.client('leaving'))).toBeUndefined();
  expect(await h.store.indexMembers(keys.clientLogins('leaving'))).toEqual([]);
  expect(await h.store.indexMembers(keys.apiKeysOf('leaving'))).toEqual([]);
  const { agent } = await signInToAccount(h.issuer, owner);
  const grants = (await agent.getJson(`${h.issuer}/access-grants?limit=100`)).json.items as Json[];
  const left = grants.filter((grant) => grant.service === 'leaving');
  expect(left.map((grant) => `${grant.kind} ${grant.status} ${grant.revoked_reason ?? ''}`).sort()).toEqual([
    'login revoked ',
    'persistent denied ',
    'persistent revoked client_deleted',
  ]);
});

test('the account page names a run-time client from the registry, links to no logo, and names a deleted one as such', async () => {
  const client = website('pictured', { client_name: 'Pictured Ltd', logo_uri: 'https://pictured.example/logo.png' });
  expect((await admin('POST', '/admin/clients', client)).status).toBe(201);
  await logInOn(h.issuer, client);
  const { agent } = await signInToAccount(h.issuer, owner);
  const page = async () => {
    const response = await agent.fetch(`${h.issuer}/account/accesses`);
    expect(response.status).toBe(200);
    return response.text();
  };
  const before = await page();
  expect(before).toContain('<td>Pictured Ltd</td>');
  // The signed text names the host its answers went to; the logo is neither linked nor shown.
  expect(before).not.toContain('https://pictured.example/logo.png');
  expect(before).not.toMatch(/<img\b/);
  expect((await admin('DELETE', '/admin/clients/pictured')).status).toBe(204);
  // The consent receipt keeps the text the owner signed, name included; the page names the client as deleted.
  const after = await page();
  expect(after).not.toContain('<td>Pictured Ltd</td>');
  expect(after).toContain('<td>a deleted service</td>');
});

test('a run-time client with a backchannel_logout_uri hears of the end of its login grant, as a configured one does', async () => {
  const client = website('listening', { backchannel_logout_uri: `${logouts.url}/logout`, backchannel_logout_session_required: true });
  expect((await admin('POST', '/admin/clients', client)).status).toBe(201);
  const tokens = await logInOn(h.peers[0]!.url, client);
  const { agent } = await signInToAccount(h.issuer, owner);
  const grants = (await agent.getJson(`${h.issuer}/access-grants?limit=100`)).json.items as Json[];
  const grant = grants.find((each) => each.service === 'listening' && each.status === 'active')!;
  expect((await agent.postJson(`${h.issuer}/access-grants/${grant.id}/revocations`, {})).status).toBe(200);
  const [request] = await logouts.waitFor('the logout token', (requests) => requests.some((each) => each.path.endsWith('/logout')));
  const token = new URLSearchParams(request!.body).get('logout_token')!;
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Json;
  expect(claims).toMatchObject({ iss: h.issuer, aud: 'listening', sub: tokens.claims()!.sub, sid: expect.any(String) });
});

test('CLIENTS is written at start by processes starting together; a client no longer listed leaves; run-time ones stay', async () => {
  const runTime = website('kept-at-start');
  expect((await admin('POST', '/admin/clients', runTime)).status).toBe(201);
  // Three processes start at once, on the same Redis.
  const restarted = { ...ANALYTICS, client_name: 'Analytics Renamed' };
  const appWith = (clients: (typeof WEBSITE)[]) =>
    createApp({
      config: validateConfig({ ...h.config, clients }),
      store: h.store,
      chain: { settings: h.config.chains[0]!, client: h.chain.client },
      webhooks: h.webhooks,
    });
  await Promise.all([appWith([WEBSITE, restarted]), appWith([WEBSITE, restarted]), appWith([WEBSITE, restarted])].map((app) => app.seedClients()));
  expect((await admin('GET', '/admin/clients/analytics')).json).toMatchObject({ client_name: 'Analytics Renamed', configured: true });
  expect((await admin('GET', '/admin/clients/kept-at-start')).json).toMatchObject({ client_name: 'Site kept-at-start', configured: false });
  const ids = ((await admin('GET', '/admin/clients')).json.clients as Json[]).map((each) => each.client_id);
  expect(ids.filter((id) => id === 'analytics')).toHaveLength(1);

  // A start without ANALYTICS takes it out (its tokens stop as when it left the static configuration); the next start with it puts it back.
  await appWith([WEBSITE]).seedClients();
  for (const base of [h.issuer, h.peers[0]!.url]) {
    await waitUntil(`analytics is gone in ${base}`, async () => (await admin('GET', '/admin/clients/analytics', undefined, base)).status === 404, 3000);
  }
  expect((await admin('GET', '/admin/clients/kept-at-start')).status).toBe(200);
  const refused = await fetch(`${h.issuer}/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(ANALYTICS), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  expect(refused.status).toBe(401);
  await h.signet.seedClients();
  expect((await admin('GET', '/admin/clients/analytics')).json).toMatchObject({ client_name: 'Analytics Co', configured: true });
});
