// One address check for every URL given at run time that Signet connects to or the engine
// fetches (src/infra/outbound/), on a whole Signet (real Redis and anvil) with private addresses NOT
// allowed, as in production. A listener on loopback records every TCP connection made to it:
// no refused URL is ever connected to, whether it is refused when given (a registration's
// sector_identifier_uri, which the engine fetches then, its jwks_uri, request_uris,
// backchannel_logout_uri, webhook_url; the admin API; an owner's webhook; an SSF endpoint) or
// when Signet connects (a name that answered a public address when given and loopback later).
// The engine's redirects are followed hop by hop, each hop checked: a test DNS names "public"
// hosts whose connections a local server takes (the test's stand-in for the internet), and a
// redirect from there to loopback reaches nothing. A header value with a control character is
// refused when given, and nothing is stored.
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import type { Address } from 'viem';
import type { ClientConfig } from '../../src/config/config.js';
import type { ResolvedAddress, ResolveHost } from '../../src/infra/outbound/url_guard.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type ConnectionRecorder, startConnectionRecorder } from '../support/connection_recorder.js';
import { type Json, jsonApi } from '../support/json_api.js';
import { continueLink } from '../support/leaving_page.js';
import { discover } from '../support/login_driver.js';
import { type Harness, RISK, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitFor } from '../support/wait_until.js';

const PUSH = 'urn:ietf:rfc:8935';
const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';
const ADMIN_TOKEN = 'admin-token-for-the-outbound-tests';

/** Public addresses (example.com's documentation) that no test connects to as such. */
const PUBLIC_A = '93.184.215.14';
const PUBLIC_B = '93.184.215.15';
/** The test's internet: connections to these public addresses are taken by a server on 127.0.0.1. */
const STAND_INS = new Set([PUBLIC_A, PUBLIC_B]);

/** A DNS the test writes: each name answers its list for the nth call of that name. */
function fakeDns() {
  const answers = new Map<string, (call: number) => ResolvedAddress[]>();
  const calls: string[] = [];
  const resolveHost: ResolveHost = async (hostname) => {
    calls.push(hostname);
    const answer = answers.get(hostname)?.(calls.filter((name) => name === hostname).length);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
  const callsOf = (hostname: string) => calls.filter((name) => name === hostname).length;
  return { answers, resolveHost, callsOf };
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** The services' key for private_key_jwt, and the JWKS that holds its public half. */
const key = await generateKeyPair('ES256', { extractable: true });
const KID = 'outbound-1';
const JWKS = { keys: [{ ...(await exportJWK(key.publicKey)), kid: KID, use: 'sig', alg: 'ES256' }] };

const dns = fakeDns();
let h: Harness;
let inner: ConnectionRecorder;
/** The "public" server: every request it got, as "GET host path". */
let publicSite: { server: Server; port: number; requests: string[] };
const api = jsonApi(() => h.issuer);

beforeAll(async () => {
  inner = await startConnectionRecorder();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.headers.host} ${request.url}`);
    const to = (location: string) => response.writeHead(302, { location }).end();
    if (request.url === '/to-loopback') return to(`http://127.0.0.1:${inner.port}/jwks`);
    if (request.url === '/to-mapped') return to(`http://[::ffff:127.0.0.1]:${inner.port}/jwks`);
    if (request.url === '/to-metadata') return to('http://169.254.169.254/latest/meta-data/');
    if (request.url === '/to-inner-name') return to(`http://loopback.example:${inner.port}/jwks`);
    if (request.url === '/to-public') return to(`http://more-keys.example:${port}/jwks`);
    if (request.url === '/jwks') return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(JWKS));
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  publicSite = { server, port, requests };

  dns.answers.set('loopback.example', () => [v4('127.0.0.1')]);
  dns.answers.set('v6-loopback.example', () => [v6('::1')]);
  dns.answers.set('mapped.example', () => [v6('::ffff:127.0.0.1')]);
  dns.answers.set('metadata.example', () => [v4('169.254.169.254')]);
  dns.answers.set('keys.example', () => [v4(PUBLIC_A)]);
  dns.answers.set('more-keys.example', () => [v4(PUBLIC_B)]);
  // An operator's service whose keys live on an internal host: CLIENTS is trusted.
  const { client_secret: _secret, ...service } = RISK;
  const internal: ClientConfig = {
    ...service,
    client_id: 'internal',
    client_name: 'Internal Service',
    token_endpoint_auth_method: 'private_key_jwt',
    jwks_uri: `http://127.0.0.1:${port}/jwks`,
  };
  h = await startSignet({
    clients: [WEBSITE, RISK, internal],
    // Every registration here comes from one address: the bounds per address are not the subject.
    configure: () => ({ clientRegistration: 'open', clientRegistrationLimits: { perAddress: 1000, perNetwork: 1000 }, adminToken: ADMIN_TOKEN }),
    resolveHost: dns.resolveHost,
    dialAddress: (approved) => (STAND_INS.has(approved.address) ? v4('127.0.0.1') : approved),
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await inner?.close();
  publicSite?.server.closeAllConnections();
  await new Promise<void>((resolve) => publicSite?.server.close(() => resolve()));
});

/** Hosts the guard refuses ({port}: the recorder's), each with the address and range its refusal names. */
const REFUSED_HOSTS: [string, string, string][] = [
  ['127.0.0.1:{port}', '127.0.0.1', 'loopback'],
  ['[::1]:{port}', '::1', 'loopback'],
  ['[::ffff:127.0.0.1]:{port}', '::ffff:7f00:1', 'loopback'],
  ['loopback.example:{port}', '127.0.0.1', 'loopback'],
  ['v6-loopback.example:{port}', '::1', 'loopback'],
  ['mapped.example:{port}', '::ffff:127.0.0.1', 'loopback'],
  ['169.254.169.254', '169.254.169.254', 'cloud metadata'],
  ['metadata.example', '169.254.169.254', 'cloud metadata'],
  ['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe', 'cloud metadata'],
  ['10.1.2.3', '10.1.2.3', 'private'],
  ['100.64.0.1', '100.64.0.1', 'carrierGradeNat'],
  ['[fe80::1]', 'fe80::1', 'linkLocal'],
];

/** The host with the recorder's port in place. */
const onRecorder = (host: string) => host.replace('{port}', String(inner.port));

const notPublic = (_address: string, range: string) => `resolves to a non-public address (${range}): only public addresses are called`;

const register = (body: Json) =>
  oidc.dynamicClientRegistration(new URL(h.issuer), body as Partial<oidc.ClientMetadata>, undefined, { execute: [oidc.allowInsecureRequests] });

/** A registration as sent on the wire. */
async function post(path: string, body: Json, token?: string, method = 'POST') {
  const response = await fetch(`${h.issuer}${path}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

const website = (name: string, extra: Json = {}) => ({
  client_name: name,
  redirect_uris: ['https://shop.example/callback'],
  grant_types: ['authorization_code'],
  response_types: ['code'],
  ...extra,
});

/** A service that authenticates with private_key_jwt, its keys at `jwksUri`. */
const keyedService = (name: string, jwksUri: string) => ({
  client_name: name,
  redirect_uris: [],
  grant_types: ['client_credentials'],
  response_types: [],
  token_endpoint_auth_method: 'private_key_jwt',
  token_endpoint_auth_signing_alg: 'ES256',
  jwks_uri: jwksUri,
});

/** A client credentials grant with a client assertion: the engine fetches the client's jwks_uri first. */
async function tokenWithAssertion(clientId: string) {
  const config = await oidc.discovery(new URL(h.issuer), clientId, undefined, oidc.PrivateKeyJwt({ key: key.privateKey, kid: KID }), {
    execute: [oidc.allowInsecureRequests],
  });
  return oidc.clientCredentialsGrant(config);
}

describe('refused when given, before anything connects', () => {
  test.each(REFUSED_HOSTS)(
    'a registration whose sector_identifier_uri is at %s: 400 invalid_client_metadata, nothing connected',
    async (host, address, range) => {
      const url = `https://${onRecorder(host)}/sector`;
      await expect(register(website('Sector', { sector_identifier_uri: url }))).rejects.toMatchObject({
        status: 400,
        error: 'invalid_client_metadata',
        error_description: `could not load sector_identifier_uri response: the URL ${notPublic(address, range)}`,
      });
      expect(inner.connections).toEqual([]);
    },
  );

  test.each(REFUSED_HOSTS)('a registration whose jwks_uri is at %s: 400 invalid_client_metadata, nothing connected', async (host, address, range) => {
    const url = `http://${onRecorder(host)}/jwks`;
    await expect(register(keyedService('Keys', url))).rejects.toMatchObject({
      status: 400,
      error: 'invalid_client_metadata',
      error_description: `jwks_uri is refused: the URL ${notPublic(address, range)}`,
    });
    expect(inner.connections).toEqual([]);
  });

  test('backchannel_logout_uri and webhook_url on loopback: 400 invalid_client_metadata naming each; nothing connected', async () => {
    const at = `127.0.0.1:${inner.port}`;
    await expect(register(website('Logout', { backchannel_logout_uri: `http://${at}/logout` }))).rejects.toMatchObject({
      status: 400,
      error: 'invalid_client_metadata',
      error_description: `backchannel_logout_uri is refused: the URL ${notPublic('127.0.0.1', 'loopback')}`,
    });
    await expect(
      register(website('Hooked', { webhook_url: `http://loopback.example:${inner.port}/hook`, webhook_secret: 'a-webhook-secret-long-enough' })),
    ).rejects.toMatchObject({
      status: 400,
      error: 'invalid_client_metadata',
      error_description: `webhook_url is refused: the webhook URL ${notPublic('127.0.0.1', 'loopback')}`,
    });
    expect(inner.connections).toEqual([]);
  });

  test('an RFC 7592 update to a sector_identifier_uri on loopback: 400 invalid_client_metadata, the record unchanged', async () => {
    const created = await post('/reg', website('Updated'));
    expect(created.status).toBe(201);
    const { client_id, registration_access_token } = created.json as { client_id: string; registration_access_token: string };
    const sector = `https://127.0.0.1:${inner.port}/sector`;
    expect(await post(`/reg/${client_id}`, { ...website('Updated'), client_id, sector_identifier_uri: sector }, registration_access_token, 'PUT')).toEqual({
      status: 400,
      json: {
        error: 'invalid_client_metadata',
        error_description: `could not load sector_identifier_uri response: the URL ${notPublic('127.0.0.1', 'loopback')}`,
        reason: 'invalid_client_metadata',
      },
    });
    expect((await h.signet.clients.find(client_id))?.sector_identifier_uri).toBeUndefined();
    expect(inner.connections).toEqual([]);
  });

  test('request_uris: the engine fetches no request_uri (none by reference is supported), keeps none, and connects nowhere', async () => {
    const requestUri = `https://127.0.0.1:${inner.port}/request`;
    const created = await post('/reg', website('By Reference', { request_uris: [requestUri] }));
    expect(created.status).toBe(201);
    expect(created.json.request_uris).toBeUndefined();
    const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Json;
    expect(discovery.request_uri_parameter_supported).toBe(false);
    const auth = new URL(`${h.issuer}/auth`);
    auth.search = new URLSearchParams({ client_id: created.json.client_id as string, request_uri: requestUri }).toString();
    const answer = await fetch(auth, { redirect: 'manual', headers: { accept: 'application/json' } });
    // Refused as the engine refuses any error of a known client: back to its redirect_uri, through
    // the page that names its host, since the client was registered at run time (decision 74).
    expect(answer.status).toBe(200);
    expect(new URL(continueLink(await answer.text())).searchParams.get('error')).toBe('request_uri_not_supported');
    expect(inner.connections).toEqual([]);
  });

  test("the admin API: a client's jwks_uri on loopback is 400 client_metadata_invalid, nothing stored or connected", async () => {
    const response = await fetch(`${h.issuer}/admin/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'admin-keyed',
        client_name: 'Admin Keyed',
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks_uri: `http://[::1]:${inner.port}/jwks`,
      }),
    });
    expect({ status: response.status, json: await response.json() }).toEqual({
      status: 400,
      json: {
        error: 'invalid_request',
        error_description: `jwks_uri is refused: the URL ${notPublic('::1', 'loopback')}`,
        reason: 'client_metadata_invalid',
      },
    });
    expect(await h.signet.clients.find('admin-keyed')).toBeUndefined();
    expect(inner.connections).toEqual([]);
  });

  test("an owner's webhook and an SSF endpoint on loopback: 400 webhook_url_not_public, nothing stored or connected", async () => {
    const owner = h.chain.accounts[3]!;
    const identity: Address = await h.chain.createIdentityFor(owner.address);
    const { agent } = await signInToAccount(h.issuer, owner);
    const saved = await agent.fetch(`${h.issuer}/account/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ url: `http://mapped.example:${inner.port}/hook`, secret: 'owner-webhook-secret-value' }),
    });
    expect({ status: saved.status, json: await saved.json() }).toEqual({
      status: 400,
      json: { error: 'invalid_request', error_description: `the webhook URL ${notPublic('::ffff:127.0.0.1', 'loopback')}`, reason: 'webhook_url_not_public' },
    });
    expect(await h.store.get(keys.ownerWebhook(identity))).toBeUndefined();

    const token = (await oidc.clientCredentialsGrant(await discover(h.issuer, RISK), { scope: 'ssf' })).access_token;
    const stream = await api('POST', '/ssf/streams', {
      token,
      body: { delivery: { method: PUSH, endpoint_url: `http://[::1]:${inner.port}/ssf` }, events_requested: [VERIFICATION] },
    });
    expect(stream).toMatchObject({
      status: 400,
      json: { error: 'invalid_request', error_description: `the webhook URL ${notPublic('::1', 'loopback')}`, reason: 'webhook_url_not_public' },
    });
    expect((await api('GET', '/ssf/streams', { token })).json).toEqual([]);
    expect(inner.connections).toEqual([]);
  });
});

describe('refused when Signet connects: a name public when given, loopback later (DNS rebinding)', () => {
  test("a jwks_uri: registered (public then), the engine's fetch at the token request refused; nothing connected", async () => {
    dns.answers.set('rebind-keys.example', (call) => [v4(call === 1 ? PUBLIC_A : '127.0.0.1')]);
    const registered = await register(keyedService('Rebinding Keys', `http://rebind-keys.example:${inner.port}/jwks`));
    const clientId = registered.clientMetadata().client_id;
    await expect(tokenWithAssertion(clientId)).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
    // Resolved once when given and once when fetched: the fetch checked again, and stopped there.
    expect(dns.callsOf('rebind-keys.example')).toBe(2);
    expect(inner.connections).toEqual([]);
  });

  test('an SSF endpoint: created (public then), every delivery attempt refused; a dead letter, nothing connected', async () => {
    dns.answers.set('rebind-ssf.example', (call) => [v4(call === 1 ? PUBLIC_A : '127.0.0.1')]);
    const token = (await oidc.clientCredentialsGrant(await discover(h.issuer, RISK), { scope: 'ssf' })).access_token;
    const created = await api('POST', '/ssf/streams', {
      token,
      body: { delivery: { method: PUSH, endpoint_url: `http://rebind-ssf.example:${inner.port}/ssf` }, events_requested: [VERIFICATION] },
    });
    expect(created.status).toBe(201);
    const streamId = created.json.stream_id as string;
    expect((await api('POST', '/ssf/verify', { token, body: { stream_id: streamId } })).status).toBe(204);
    const letter = await waitFor('the verification is a dead letter', async () =>
      (await h.webhooks.deadLetters()).find((dead) => dead.event.service === `ssf:${streamId}`),
    );
    // The harness retries after 50, 100 and 200 ms: four attempts, each resolved and refused.
    expect(letter).toMatchObject({ attempts: 4, last_error: `the webhook URL ${notPublic('127.0.0.1', 'loopback')}` });
    expect(dns.callsOf('rebind-ssf.example')).toBe(5);
    expect(inner.connections).toEqual([]);
  });
});

describe("the engine's redirects, followed hop by hop", () => {
  test.each([['/to-loopback'], ['/to-mapped'], ['/to-metadata'], ['/to-inner-name']])(
    'a public jwks_uri that redirects inward (%s): the hop is refused, the client is not authenticated, nothing inner connected',
    async (path) => {
      const before = publicSite.requests.length;
      const registered = await register(keyedService('Redirected Keys', `http://keys.example:${publicSite.port}${path}`));
      await expect(tokenWithAssertion(registered.clientMetadata().client_id)).rejects.toMatchObject({ status: 401, error: 'invalid_client' });
      // The public host was asked once; the hop it named was never reached.
      expect(publicSite.requests.slice(before)).toEqual([`GET keys.example:${publicSite.port} ${path}`]);
      expect(inner.connections).toEqual([]);
    },
  );

  test('a public jwks_uri that redirects to another public host: followed, checked, and the client authenticates', async () => {
    const before = publicSite.requests.length;
    const registered = await register(keyedService('Moved Keys', `http://keys.example:${publicSite.port}/to-public`));
    const tokens = await tokenWithAssertion(registered.clientMetadata().client_id);
    expect(tokens.access_token).toEqual(expect.any(String));
    // Each hop with its own Host: the socket was pinned, the name kept.
    expect(publicSite.requests.slice(before)).toEqual([`GET keys.example:${publicSite.port} /to-public`, `GET more-keys.example:${publicSite.port} /jwks`]);
    expect(inner.connections).toEqual([]);
  });
});

test("an operator's jwks_uri (CLIENTS) on loopback is the operator's: the engine fetches it, and the service authenticates", async () => {
  const before = publicSite.requests.length;
  expect((await tokenWithAssertion('internal')).access_token).toEqual(expect.any(String));
  expect(publicSite.requests.slice(before)).toEqual([`GET 127.0.0.1:${publicSite.port} /jwks`]);
});

describe('header values', () => {
  test.each([
    ['CR LF', 'Bearer abc\r\nX-Injected: yes'],
    ['LF', 'Bearer abc\nX-Injected: yes'],
    ['NUL', 'Bearer abc\u0000'],
    ['a tab', 'Bearer\tabc'],
    ['DEL', 'Bearer abc\u007f'],
  ])("an SSF stream's authorization_header with %s: 400 invalid_body, nothing stored or changed", async (_what, header) => {
    dns.answers.set('receiver.example', () => [v4(PUBLIC_B)]);
    const token = (await oidc.clientCredentialsGrant(await discover(h.issuer, RISK), { scope: 'ssf' })).access_token;
    const endpoint = 'https://receiver.example/ssf';
    const refusal = {
      status: 400,
      json: {
        error: 'invalid_request',
        error_description: '"delivery.authorization_header" must be printable ASCII: no control character (CR, LF, NUL, tab, DEL) and nothing beyond ASCII',
        reason: 'invalid_body',
      },
    };
    const before = (await api('GET', '/ssf/streams', { token })).json as Json[];
    const created = await api('POST', '/ssf/streams', { token, body: { delivery: { method: PUSH, endpoint_url: endpoint, authorization_header: header } } });
    expect({ status: created.status, json: created.json }).toEqual(refusal);
    expect((await api('GET', '/ssf/streams', { token })).json).toEqual(before);

    // A stream made with a good header keeps it through a refused update.
    const good = await api('POST', '/ssf/streams', {
      token,
      body: { delivery: { method: PUSH, endpoint_url: endpoint, authorization_header: 'Bearer good' } },
    });
    expect(good.status).toBe(201);
    const streamId = good.json.stream_id as string;
    const updated = await api('PATCH', '/ssf/streams', {
      token,
      body: { stream_id: streamId, delivery: { method: PUSH, endpoint_url: endpoint, authorization_header: header } },
    });
    expect({ status: updated.status, json: updated.json }).toEqual(refusal);
    expect(JSON.parse((await h.store.get(keys.ssfStream(streamId)))!).delivery).toEqual({
      method: PUSH,
      endpoint_url: endpoint,
      authorization_header: 'Bearer good',
    });
    expect((await api('DELETE', `/ssf/streams?stream_id=${streamId}`, { token })).status).toBe(204);
  });
});
