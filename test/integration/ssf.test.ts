// Signet as an OpenID Shared Signals (SSF 1.0) transmitter, as a receiver sees it: discovery,
// a client credentials token with scope ssf (openid-client), stream management, and Security
// Event Tokens pushed to real receivers on loopback, verified with jose against Signet's JWKS and
// checked against schemas written from the SSF 1.0 and CAEP 1.0 texts.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Address } from 'viem';
import type { ClientConfig } from '../../src/config/config.js';
import { subjectOf } from '../../src/domain/identity/subject.js';
import { ISOLATED_DELIVERY_MS } from '../support/bounds.js';
import { type Json, jsonApi } from '../support/json_api.js';
import { discover, logIn, startLogin } from '../support/login_driver.js';
import { type ReceivedRequest, type SignalReceiver, startSignalReceiver } from '../support/signal_receiver.js';
import { type Harness, RISK, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const PUSH = 'urn:ietf:rfc:8935';
const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';

/** A website that also manages SSF streams about its own users. */
const SHOP: ClientConfig = { ...WEBSITE, client_id: 'shop', client_name: 'Shop', grant_types: ['authorization_code', 'refresh_token', 'client_credentials'] };

// Schemas written from the SSF 1.0 text: the required members and the type of each member.
const uri = { type: 'string', format: 'uri' };
const strings = { type: 'array', items: { type: 'string' } };
const TRANSMITTER_CONFIGURATION = {
  type: 'object',
  required: ['issuer'],
  properties: {
    spec_version: { type: 'string' },
    issuer: uri,
    jwks_uri: uri,
    // "Claims with zero elements MUST be omitted from the response."
    delivery_methods_supported: { type: 'array', items: uri, minItems: 1 },
    configuration_endpoint: uri,
    status_endpoint: uri,
    add_subject_endpoint: uri,
    remove_subject_endpoint: uri,
    verification_endpoint: uri,
    critical_subject_members: { ...strings, minItems: 1 },
    authorization_schemes: { type: 'array', minItems: 1, items: { type: 'object', required: ['spec_urn'], properties: { spec_urn: { type: 'string' } } } },
    default_subjects: { enum: ['ALL', 'NONE'] },
  },
};
const STREAM_CONFIGURATION = {
  type: 'object',
  required: ['stream_id', 'iss', 'aud', 'events_delivered', 'delivery'],
  properties: {
    // RFC 3986 §2.3 unreserved characters.
    stream_id: { type: 'string', pattern: '^[A-Za-z0-9._~-]+$' },
    iss: uri,
    aud: { oneOf: [{ type: 'string' }, strings] },
    events_supported: strings,
    events_requested: strings,
    events_delivered: strings,
    delivery: {
      type: 'object',
      required: ['method'],
      properties: { method: { type: 'string' }, endpoint_url: uri },
      // Push: the receiver supplies the endpoint_url.
      anyOf: [{ properties: { method: { not: { const: PUSH } } } }, { required: ['endpoint_url'] }],
    },
    min_verification_interval: { type: 'integer', minimum: 0 },
    description: { type: 'string' },
    inactivity_timeout: { type: 'integer', minimum: 0 },
  },
};
const STREAM_STATUS = {
  type: 'object',
  required: ['stream_id', 'status'],
  properties: { stream_id: { type: 'string' }, status: { enum: ['enabled', 'paused', 'disabled'] }, reason: { type: 'string' } },
};
// A SET as SSF profiles RFC 8417: sub_id, no sub, no exp, one event.
const SECURITY_EVENT = {
  type: 'object',
  required: ['iss', 'jti', 'iat', 'aud', 'sub_id', 'events'],
  not: { anyOf: [{ required: ['sub'] }, { required: ['exp'] }] },
  properties: {
    iss: uri,
    jti: { type: 'string', minLength: 1 },
    iat: { type: 'integer' },
    aud: { oneOf: [{ type: 'string' }, strings] },
    txn: { type: 'string' },
    sub_id: { type: 'object', required: ['format'], properties: { format: { type: 'string' } } },
    events: { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: { type: 'object' } },
  },
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
function expectValid(schema: object, value: unknown) {
  const validate = ajv.compile(schema);
  const valid = validate(value);
  expect(valid ? [] : validate.errors).toEqual([]);
}

let h: Harness;
let fast: SignalReceiver;
let other: SignalReceiver;
let shopToken: string;
let riskToken: string;
let jwks: ReturnType<typeof createRemoteJWKSet>;
const api = jsonApi(() => h.issuer);

beforeAll(async () => {
  [fast, other] = await Promise.all([startSignalReceiver(202), startSignalReceiver(202)]);
  // Receivers on loopback: private addresses allowed, as in development (metadata never is).
  h = await startSignet({ clients: [WEBSITE, SHOP, RISK], configure: () => ({ webhooks: { allowPrivate: true } }) });
  jwks = createRemoteJWKSet(new URL(`${h.issuer}/jwks`));
  shopToken = await tokenOf(SHOP, 'ssf');
  riskToken = await tokenOf(RISK, 'ssf');
}, 60_000);

afterAll(async () => {
  await h.close();
  await Promise.all([fast.close(), other.close()]);
});

/** An access token of the client credentials grant, through openid-client. */
async function tokenOf(client: ClientConfig, scope?: string): Promise<string> {
  const config = await discover(h.issuer, client);
  const tokens = await oidc.clientCredentialsGrant(config, scope ? { scope } : {});
  return tokens.access_token;
}

async function createStream(token: string, body: Json) {
  const answer = await api('POST', '/ssf/streams', { token, body });
  expect(answer.status).toBe(201);
  return answer.json;
}

const pushTo = (receiver: SignalReceiver, extra: Json = {}) => ({ method: PUSH, endpoint_url: receiver.url, ...extra });

/** Verifies a pushed SET: its header, its signature by Signet, and the SSF profile. */
async function setOf(request: ReceivedRequest, audience: string): Promise<JWTPayload> {
  expect(request.headers['content-type']).toBe('application/secevent+jwt');
  expect(request.headers.accept).toBe('application/json');
  expect(decodeProtectedHeader(request.body)).toEqual({ alg: 'RS256', typ: 'secevent+jwt', kid: 'test-key' });
  const { payload } = await jwtVerify(request.body, jwks, { issuer: h.issuer, audience, typ: 'secevent+jwt' });
  expectValid(SECURITY_EVENT, payload);
  return payload;
}

const queueEmpty = () => waitUntil('the queue is empty', async () => (await h.webhooks.depth()) === 0);

async function identityOf(index: number): Promise<Address> {
  const wallet = h.chain.accounts[index]!;
  const identity = await h.chain.createIdentityFor(wallet.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  return identity;
}

test('the transmitter configuration, as SSF 1.0 describes it', async () => {
  const response = await fetch(`${h.issuer}/.well-known/ssf-configuration`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await response.json();
  expectValid(TRANSMITTER_CONFIGURATION, body);
  expect(body).toEqual({
    spec_version: '1_0',
    issuer: h.issuer,
    jwks_uri: `${h.issuer}/jwks`,
    delivery_methods_supported: [PUSH],
    configuration_endpoint: `${h.issuer}/ssf/streams`,
    status_endpoint: `${h.issuer}/ssf/status`,
    verification_endpoint: `${h.issuer}/ssf/verify`,
    authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
    default_subjects: 'ALL',
  });
  // The jwks_uri is the engine's: the keys that verify ID tokens verify SETs.
  const keys = (await (await fetch(body.jwks_uri)).json()) as { keys: { kid: string }[] };
  expect(keys.keys.map((key) => key.kid)).toEqual(['test-key']);
});

describe('who may manage streams', () => {
  test('no token: 401 with the scheme and scope to use', async () => {
    const answer = await api('GET', '/ssf/streams');
    expect(answer).toMatchObject({ status: 401, json: { error: 'invalid_token', reason: 'authorization_malformed' } });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer scope="ssf"');
  });

  test('a token Signet did not issue, or a login access token: 401 invalid_token', async () => {
    const unknown = await api('GET', '/ssf/streams', { token: 'not-a-token-signet-issued' });
    expect(unknown).toMatchObject({ status: 401, json: { error: 'invalid_token', reason: 'token_invalid' } });
    expect(unknown.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    // An owner's login gives the shop an access token, which is no client credentials token.
    const identity = await identityOf(0);
    const { tokens } = await logIn(await startLogin(h.issuer, SHOP, { scope: 'openid email' }), h.chain.accounts[0]!);
    expect(identity).toBeDefined();
    expect(await api('GET', '/ssf/streams', { token: tokens.access_token })).toMatchObject({ status: 401, json: { reason: 'token_invalid' } });
  });

  test('a client credentials token without scope ssf: 403 insufficient_scope', async () => {
    const answer = await api('GET', '/ssf/streams', { token: await tokenOf(RISK) });
    expect(answer).toMatchObject({
      status: 403,
      json: { error: 'insufficient_scope', reason: 'token_scope_insufficient', previous_reason: 'ssf_scope_missing' },
    });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="ssf"');
  });

  test('a client not allowed the client credentials grant gets no token', async () => {
    await expect(tokenOf(WEBSITE, 'ssf')).rejects.toMatchObject({
      error: 'invalid_request',
      error_description: 'requested grant type is not allowed for this client',
    });
  });
});

describe('stream management', () => {
  test('create, read, update, replace, status, delete', async () => {
    const created = await createStream(riskToken, {
      delivery: pushTo(other, { authorization_header: 'Bearer receiver-secret' }),
      events_requested: [CREDENTIAL_CHANGE, 'urn:example:not-offered'],
      description: 'risk signals',
    });
    expectValid(STREAM_CONFIGURATION, created);
    const streamId = created.stream_id as string;
    const configuration = {
      stream_id: streamId,
      iss: h.issuer,
      aud: 'risk',
      // The authorization header is used, never shown back.
      delivery: { method: PUSH, endpoint_url: other.url },
      events_supported: [SESSION_REVOKED, CREDENTIAL_CHANGE, `${h.issuer}/event-types/claim-ended`],
      events_requested: [CREDENTIAL_CHANGE, 'urn:example:not-offered'],
      events_delivered: [CREDENTIAL_CHANGE],
      description: 'risk signals',
      min_verification_interval: 10,
    };
    expect(created).toEqual(configuration);
    expect(streamId).toMatch(/^[0-9a-f]{32}$/);

    const one = await api('GET', `/ssf/streams?stream_id=${streamId}`, { token: riskToken });
    expect(one).toMatchObject({ status: 200, json: configuration });
    const all = await api('GET', '/ssf/streams', { token: riskToken });
    expect(all.status).toBe(200);
    expect(all.json).toEqual([configuration]);
    for (const each of all.json as unknown as Json[]) expectValid(STREAM_CONFIGURATION, each);
    expect(all.headers.get('cache-control')).toBe('no-store');
    // Another client's stream is as unknown as a missing one.
    expect(await api('GET', `/ssf/streams?stream_id=${streamId}`, { token: shopToken })).toMatchObject({
      status: 404,
      json: { error: 'not_found', reason: 'ssf_stream_not_found' },
    });

    const patched = await api('PATCH', '/ssf/streams', {
      token: riskToken,
      body: { stream_id: streamId, iss: h.issuer, events_delivered: [CREDENTIAL_CHANGE], events_requested: [CREDENTIAL_CHANGE, SESSION_REVOKED] },
    });
    expect(patched).toMatchObject({
      status: 200,
      json: { ...configuration, events_requested: [CREDENTIAL_CHANGE, SESSION_REVOKED], events_delivered: [SESSION_REVOKED, CREDENTIAL_CHANGE] },
    });
    expectValid(STREAM_CONFIGURATION, patched.json);
    const mismatch = await api('PATCH', '/ssf/streams', { token: riskToken, body: { stream_id: streamId, iss: 'https://elsewhere.example' } });
    expect(mismatch).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'ssf_property_mismatch' } });
    expect(await api('PATCH', '/ssf/streams', { token: riskToken, body: { stream_id: streamId, aud: 'shop' } })).toMatchObject({
      status: 400,
      json: { reason: 'ssf_property_mismatch' },
    });

    // PUT: what the body leaves out (the description) is removed.
    const replaced = await api('PUT', '/ssf/streams', {
      token: riskToken,
      body: { stream_id: streamId, delivery: pushTo(other), events_requested: [CREDENTIAL_CHANGE] },
    });
    const { description: _removed, ...withoutDescription } = configuration;
    expect(replaced).toMatchObject({ status: 200 });
    expect(replaced.json).toEqual({ ...withoutDescription, events_requested: [CREDENTIAL_CHANGE] });

    const status = await api('GET', `/ssf/status?stream_id=${streamId}`, { token: riskToken });
    expect(status).toMatchObject({ status: 200, json: { stream_id: streamId, status: 'enabled' } });
    expectValid(STREAM_STATUS, status.json);
    const paused = await api('POST', '/ssf/status', { token: riskToken, body: { stream_id: streamId, status: 'paused', reason: 'maintenance' } });
    expect(paused).toMatchObject({ status: 200, json: { stream_id: streamId, status: 'paused', reason: 'maintenance' } });
    expectValid(STREAM_STATUS, paused.json);
    expect((await api('GET', `/ssf/status?stream_id=${streamId}`, { token: riskToken })).json).toEqual({
      stream_id: streamId,
      status: 'paused',
      reason: 'maintenance',
    });
    expect(await api('POST', '/ssf/status', { token: riskToken, body: { stream_id: streamId, status: 'asleep' } })).toMatchObject({
      status: 400,
      json: { reason: 'invalid_body' },
    });

    const deleted = await api('DELETE', `/ssf/streams?stream_id=${streamId}`, { token: riskToken });
    expect(deleted.status).toBe(204);
    expect(await api('GET', `/ssf/streams?stream_id=${streamId}`, { token: riskToken })).toMatchObject({
      status: 404,
      json: { reason: 'ssf_stream_not_found' },
    });
    expect(await api('DELETE', `/ssf/streams?stream_id=${streamId}`, { token: riskToken })).toMatchObject({
      status: 404,
      json: { reason: 'ssf_stream_not_found' },
    });
    expect((await api('GET', '/ssf/streams', { token: riskToken })).json).toEqual([]);
  });

  test('an endpoint that is not public (the cloud metadata address) is refused, and no stream is made', async () => {
    const answer = await api('POST', '/ssf/streams', {
      token: riskToken,
      body: { delivery: { method: PUSH, endpoint_url: 'http://169.254.169.254/latest/meta-data' }, events_requested: [SESSION_REVOKED] },
    });
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'webhook_url_not_public' } });
    expect(answer.json.error_description).toBe('the webhook URL resolves to a non-public address (cloud metadata): only public addresses are called');
    expect((await api('GET', '/ssf/streams', { token: riskToken })).json).toEqual([]);
  });

  test('poll delivery (no delivery, or the poll method) is not offered', async () => {
    expect(await api('POST', '/ssf/streams', { token: riskToken, body: { events_requested: [SESSION_REVOKED] } })).toMatchObject({
      status: 400,
      json: { reason: 'ssf_delivery_unsupported' },
    });
    expect(
      await api('POST', '/ssf/streams', { token: riskToken, body: { delivery: { method: 'urn:ietf:rfc:8936' }, events_requested: [SESSION_REVOKED] } }),
    ).toMatchObject({ status: 400, json: { reason: 'ssf_delivery_unsupported' } });
    expect(await api('POST', '/ssf/streams', { token: riskToken, body: { delivery: { method: PUSH } } })).toMatchObject({
      status: 400,
      json: { reason: 'invalid_body' },
    });
  });

  test('a client holds at most 10 streams', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await createStream(riskToken, { delivery: pushTo(other), events_requested: [] })).stream_id as string);
    expect(await api('POST', '/ssf/streams', { token: riskToken, body: { delivery: pushTo(other) } })).toMatchObject({
      status: 409,
      json: { error: 'conflict', reason: 'ssf_stream_limit' },
    });
    for (const id of ids) expect((await api('DELETE', `/ssf/streams?stream_id=${id}`, { token: riskToken })).status).toBe(204);
  });
});

describe('security events', () => {
  test('verification: the receiver gets a SET echoing its state; a second request within the interval is refused', async () => {
    const stream = await createStream(riskToken, {
      delivery: pushTo(other, { authorization_header: 'Bearer receiver-secret' }),
      events_requested: [SESSION_REVOKED],
    });
    const before = other.requests.length;
    expect((await api('POST', '/ssf/verify', { token: riskToken, body: { stream_id: stream.stream_id, state: 'state-123' } })).status).toBe(204);
    const [request] = (await other.waitFor('the verification arrives', (all) => all.length > before)).slice(before);
    expect(request!.headers.authorization).toBe('Bearer receiver-secret');
    const set = await setOf(request!, 'risk');
    expect(set).toEqual({
      iss: h.issuer,
      jti: expect.any(String),
      iat: expect.any(Number),
      aud: 'risk',
      sub_id: { format: 'opaque', id: stream.stream_id },
      events: { [VERIFICATION]: { state: 'state-123' } },
    });
    const again = await api('POST', '/ssf/verify', { token: riskToken, body: { stream_id: stream.stream_id } });
    expect(again).toMatchObject({ status: 429, json: { reason: 'rate_limited' } });
    expect(again.headers.get('retry-after')).toBe('10');
    expect((await api('DELETE', `/ssf/streams?stream_id=${stream.stream_id}`, { token: riskToken })).status).toBe(204);
  });

  test('a grant that ends: session-revoked to the streams of its client that asked for it, and only those', async () => {
    const identity = await identityOf(1);
    const wants = await createStream(shopToken, { delivery: pushTo(fast), events_requested: [SESSION_REVOKED, CREDENTIAL_CHANGE] });
    const doesNot = await createStream(shopToken, { delivery: pushTo(other), events_requested: [CREDENTIAL_CHANGE] });
    const elsewhere = await createStream(riskToken, { delivery: pushTo(other), events_requested: [SESSION_REVOKED] });
    await queueEmpty();
    const [fastBefore, otherBefore] = [fast.requests.length, other.requests.length];
    const at = Date.now();
    await h.signet.signals.emit({ type: 'grant_ended', identity, client_id: 'shop', grant_id: 'grant-1', kind: 'persistent', reason: 'key_removed', at });
    const [request] = (await fast.waitFor('the SET arrives', (all) => all.length > fastBefore)).slice(fastBefore);
    expect(request!.headers).not.toHaveProperty('authorization');
    const set = await setOf(request!, 'shop');
    expect(set).toEqual({
      iss: h.issuer,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      iat: expect.any(Number),
      aud: 'shop',
      txn: expect.any(String),
      sub_id: { format: 'iss_sub', iss: h.issuer, sub: subjectOf(h.chain.anvil.chainId, identity) },
      events: {
        [SESSION_REVOKED]: {
          event_timestamp: Math.floor(at / 1000),
          initiating_entity: 'policy',
          reason_admin: { en: 'The wallet that signed the consent no longer holds a key on the identity.' },
          grant_id: 'grant-1',
          grant_kind: 'persistent',
          reason: 'key_removed',
        },
      },
    });
    await queueEmpty();
    // The shop's other stream did not ask for it, and the risk engine's is not the shop's.
    expect(other.requests.length).toBe(otherBefore);
    expect(fast.requests.length - fastBefore).toBe(1);
    for (const [token, stream] of [
      [shopToken, wants],
      [shopToken, doesNot],
      [riskToken, elsewhere],
    ] as const) {
      expect((await api('DELETE', `/ssf/streams?stream_id=${stream.stream_id}`, { token })).status).toBe(204);
    }
  });

  test("a wallet's key changes: credential-change to every client with a live grant of the identity", async () => {
    const identity = await identityOf(2);
    await logIn(await startLogin(h.issuer, SHOP, { scope: 'openid email' }), h.chain.accounts[2]!);
    const shopStream = await createStream(shopToken, { delivery: pushTo(fast), events_requested: [CREDENTIAL_CHANGE] });
    // The risk engine holds no grant of this identity.
    const riskStream = await createStream(riskToken, { delivery: pushTo(other), events_requested: [CREDENTIAL_CHANGE] });
    await queueEmpty();
    const [fastBefore, otherBefore] = [fast.requests.length, other.requests.length];
    const walletKey = `0x${'ab'.repeat(32)}` as const;
    const at = Date.now();
    await h.signet.signals.emit({ type: 'credential_changed', identity, wallet_key: walletKey, change: 'removed', at });
    const [request] = (await fast.waitFor('the SET arrives', (all) => all.length > fastBefore)).slice(fastBefore);
    const set = await setOf(request!, 'shop');
    expect(set.sub_id).toEqual({ format: 'iss_sub', iss: h.issuer, sub: subjectOf(h.chain.anvil.chainId, identity) });
    expect(set.events).toEqual({
      [CREDENTIAL_CHANGE]: {
        credential_type: 'app',
        change_type: 'delete',
        event_timestamp: Math.floor(at / 1000),
        initiating_entity: 'user',
        wallet_key: walletKey,
      },
    });
    await queueEmpty();
    expect(other.requests.length).toBe(otherBefore);
    await api('DELETE', `/ssf/streams?stream_id=${shopStream.stream_id}`, { token: shopToken });
    await api('DELETE', `/ssf/streams?stream_id=${riskStream.stream_id}`, { token: riskToken });
  });

  test("a claim that ends: Signet's claim-ended event to the clients that were given it", async () => {
    const identity = await identityOf(3);
    const claimEnded = `${h.issuer}/event-types/claim-ended`;
    const stream = await createStream(riskToken, { delivery: pushTo(other), events_requested: [claimEnded] });
    await queueEmpty();
    const before = other.requests.length;
    const at = Date.now();
    const claimId = `0x${'cd'.repeat(32)}` as const;
    const issuer = h.chain.suite.claimIssuer;
    await h.signet.signals.emit({ type: 'claim_ended', identity, claim_id: claimId, topic: 7, issuer, change: 'revoked', client_ids: ['risk', 'risk'], at });
    const [request] = (await other.waitFor('the SET arrives', (all) => all.length > before)).slice(before);
    const set = await setOf(request!, 'risk');
    expect(set.events).toEqual({
      [claimEnded]: { event_timestamp: Math.floor(at / 1000), claim_id: claimId, topic: 7, claim_issuer: issuer, change: 'revoked' },
    });
    await queueEmpty();
    // Listed twice, told once.
    expect(other.requests.length - before).toBe(1);
    await api('DELETE', `/ssf/streams?stream_id=${stream.stream_id}`, { token: riskToken });
  });

  test('a paused stream is sent nothing; enabled again, it is', async () => {
    const identity = await identityOf(4);
    const stream = await createStream(shopToken, { delivery: pushTo(fast), events_requested: [SESSION_REVOKED] });
    await api('POST', '/ssf/status', { token: shopToken, body: { stream_id: stream.stream_id, status: 'paused' } });
    await queueEmpty();
    const before = fast.requests.length;
    const ended = {
      type: 'grant_ended',
      identity,
      client_id: 'shop',
      grant_id: 'grant-4',
      kind: 'immediate',
      reason: 'owner_revoked',
      at: Date.now(),
    } as const;
    await h.signet.signals.emit(ended);
    // Nothing was queued for it.
    expect(await h.webhooks.depth()).toBe(0);
    await api('POST', '/ssf/status', { token: shopToken, body: { stream_id: stream.stream_id, status: 'enabled' } });
    await h.signet.signals.emit(ended);
    await fast.waitFor('the SET arrives', (all) => all.length > before);
    await queueEmpty();
    expect(fast.requests.length - before).toBe(1);
    await api('DELETE', `/ssf/streams?stream_id=${stream.stream_id}`, { token: shopToken });
  });

  test('a receiver that hangs delays only itself: another stream gets its SET while it still waits', async () => {
    const identity = await identityOf(5);
    const stalling = await startSignalReceiver(202);
    stalling.hang(true);
    const stalled = await createStream(shopToken, { delivery: pushTo(stalling), events_requested: [SESSION_REVOKED] });
    const prompt = await createStream(shopToken, { delivery: pushTo(fast), events_requested: [SESSION_REVOKED] });
    try {
      await queueEmpty();
      const before = fast.requests.length;
      const started = Date.now();
      await h.signet.signals.emit({
        type: 'grant_ended',
        identity,
        client_id: 'shop',
        grant_id: 'grant-5',
        kind: 'persistent',
        reason: 'owner_revoked',
        at: started,
      });
      await stalling.waitFor('the stalled receiver is called', (all) => all.length === 1);
      await fast.waitFor('the other receiver gets its SET', (all) => all.length > before, ISOLATED_DELIVERY_MS);
      // Within a fraction of the delivery timeout (5 s), while the stalled call is still open.
      expect(Date.now() - started).toBeLessThan(ISOLATED_DELIVERY_MS);
      expect(stalling.pending).toBe(1);
      expect((await setOf(fast.requests.at(-1)!, 'shop')).events).toHaveProperty([SESSION_REVOKED]);
    } finally {
      await api('DELETE', `/ssf/streams?stream_id=${stalled.stream_id}`, { token: shopToken });
      await api('DELETE', `/ssf/streams?stream_id=${prompt.stream_id}`, { token: shopToken });
      stalling.hang(false);
      stalling.release(202);
      await queueEmpty();
      await stalling.close();
    }
  });

  test('a receiver that answers 200 instead of 202 has not taken the SET: retried, then a dead letter', async () => {
    const identity = await identityOf(6);
    const wrong = await startSignalReceiver(200);
    const stream = await createStream(shopToken, { delivery: pushTo(wrong), events_requested: [SESSION_REVOKED] });
    try {
      await h.signet.signals.emit({
        type: 'grant_ended',
        identity,
        client_id: 'shop',
        grant_id: 'grant-6',
        kind: 'persistent',
        reason: 'owner_revoked',
        at: Date.now(),
      });
      const service = `ssf:${stream.stream_id}`;
      await waitUntil('the SET is a dead letter', async () => (await h.webhooks.deadLetters()).some((letter) => letter.event.service === service));
      const letter = (await h.webhooks.deadLetters()).find((each) => each.event.service === service)!;
      // One attempt and the harness's three retries, each the same SET (one jti).
      expect(letter).toMatchObject({ attempts: 4, last_error: 'HTTP 200 OK', event: { type: SESSION_REVOKED } });
      expect(wrong.requests).toHaveLength(4);
      const jtis = await Promise.all(wrong.requests.map(async (request) => (await setOf(request, 'shop')).jti));
      expect(new Set(jtis)).toEqual(new Set([letter.event.id]));
    } finally {
      await api('DELETE', `/ssf/streams?stream_id=${stream.stream_id}`, { token: shopToken });
      await wrong.close();
    }
  });
});
