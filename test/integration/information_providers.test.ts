// Data held elsewhere: two Signet processes, each with its own Redis, on one anvil with the real
// ONCHAINID contracts. B is a KYC issuer's Information Provider (Signet as claim issuer, keeping
// the claim's data); A is the website's Signet, which lists B in INFORMATION_PROVIDERS with the
// API key B issued it. An openid-client website logs in at A over the interaction's JSON routes
// with a test wallet, which signs A's text and, the first time, B's challenge. A proxy in front
// of B counts every request A makes there, and the tests cut, slow and tamper with it.
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Address, Hex, LocalAccount } from 'viem';
import { revocationText } from '../../src/features/grants/grant_challenge.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { systemResolveHost } from '../../src/infra/outbound/url_guard.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { PROVIDER_REQUESTS } from '../support/path_budgets.js';
import { startHttpProxy } from '../support/http_proxy.js';
import { jsonApi } from '../support/json_api.js';
import { captureLogs } from '../support/log_capture.js';
import { followToCallback, requestChallenge, startLogin } from '../support/login_driver.js';
import {
  kycLoginAtA,
  onchainClaimsOf,
  ownerWithKyc as ownerOfPair,
  PROVIDER_NAME,
  type ProviderPair,
  startProviderPair,
  stepsAt,
} from '../support/provider_pair.js';
import { type Harness, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const PROVIDER = PROVIDER_NAME;
const ELSEWHERE_HOST = 'elsewhere.example';
/** A public address (the guard approves it); the test's dial sends its sockets to a local listener. */
const ELSEWHERE_ADDRESS = '93.184.215.14';
const RECHECK_SECONDS = 30;
const logs = captureLogs<Record<string, unknown>>();
const metrics = createMetrics({ processMetrics: false });

let pair: ProviderPair;
let a: Harness;
let b: Harness;
let apiKeyOfA: string;

beforeAll(async () => {
  pair = await startProviderPair({
    recheckSeconds: RECHECK_SECONDS,
    logger: createLogger({ level: 'debug', destination: logs.destination }),
    metrics,
    // A second process of A on A's Redis: a login's steps may reach either.
    peersOfA: 1,
    // A public host of the test's own: elsewhere.example is a public address, served by a local listener.
    resolveHost: async (host) => (host === ELSEWHERE_HOST ? [{ address: ELSEWHERE_ADDRESS, family: 4 }] : systemResolveHost(host)),
    dialAddress: (approved) => (approved.address === ELSEWHERE_ADDRESS ? { address: '127.0.0.1', family: 4 } : approved),
  });
  ({ a, b, apiKey: apiKeyOfA } = pair);
}, 120_000);

afterAll(async () => {
  await pair?.close();
});

afterEach(() => {
  pair.proxy.down = false;
  pair.proxy.delayMs = 0;
  pair.proxy.answer = undefined;
  pair.proxy.tamper = undefined;
});

/** The default deadline: the slow provider is slower than this. */
const TIMEOUT_MS = 3000;
const KYC_DATA = { level: 'enhanced', checked_by: 'Acme KYC', checked_on: '2026-11-20' };
const ownerWithKyc = (data: Record<string, unknown> = KYC_DATA) => ownerOfPair(pair, data);
const stepsAtB = () => stepsAt(pair.proxy);
const kycLogin = (owner: LocalAccount, options: Parameters<typeof kycLoginAtA>[2] = {}) => kycLoginAtA(pair, owner, options);
const onchainClaims = onchainClaimsOf;

describe('a website receives the data B holds, after one consent page at A', () => {
  test('the first login: A says who holds it, the wallet signs A and B, three requests at B, the data in the ID token, userinfo and the resource', async () => {
    const { owner, identity, claimId } = await ownerWithKyc();
    const { login, asked, message, held, providerChallenges, tokens } = await kycLogin(owner);
    expect(held).toEqual([{ claim_id: claimId, provider: PROVIDER, fetched: ['data'], second_signature: true }]);
    expect(message).toContain(`kyc claim by ${a.chain.suite.claimIssuer} with its data, fetched from ${PROVIDER}`);
    expect((asked.claims as { uri: string }[])[0]!.uri).toBe(`${b.issuer}/identities/${identity}/claims/${claimId}`);
    // B's own text, naming A as the service and the claim's resource at B.
    expect(providerChallenges).toEqual([{ claim_id: claimId, challenge: expect.stringContaining('Signet A asks for lasting access') }]);
    expect(providerChallenges[0]!.challenge).toContain(`Resource: ${b.issuer}/identities/${identity}/claims/${claimId}`);
    expect(stepsAtB()).toEqual(['POST access_request', 'POST validation', 'GET read']);

    const shared = onchainClaims(tokens.claims()!)[0]!;
    expect(shared).toMatchObject({ claim_id: claimId, valid: true, status: 'valid', data: KYC_DATA });
    expect(shared.data_status).toBeUndefined();
    const sub = tokens.claims()!.sub;
    const userinfo = await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
    expect(onchainClaims(userinfo)[0]).toEqual(shared);
    const resource = await fetch(`${a.issuer}/identities/${identity}/claims/${claimId}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(resource.status).toBe(200);
    expect(await resource.json()).toEqual({ identity, ...shared });
    // What A keeps, and for how long (docs/data.md): the login's requests for the challenge's life,
    // the copy for the grant's, the grant at B until it ends there or an erasure.
    const subject = `eip155:${a.chain.anvil.chainId}:${identity}`;
    const loginGrantId = (await a.signet.provider.AccessToken.find(tokens.access_token))!.grantId!;
    expect(await a.store.ttl(keys.providerLogin(login.uid))).toBeLessThanOrEqual(a.config.challengeTtlSeconds);
    expect(await a.store.ttl(keys.providerData(loginGrantId))).toBeLessThanOrEqual(a.config.ttl.grant);
    expect(await a.store.ttl(keys.providerData(loginGrantId))).toBeGreaterThan(a.config.ttl.grant - 60);
    expect(await a.store.ttl(keys.providerGrant(subject, claimId))).toBe(Number.POSITIVE_INFINITY);
    // Sealed: the data is not in Redis as written.
    expect(await a.store.get(keys.providerData(loginGrantId))).not.toContain('Acme KYC');
    // The code exchange, userinfo and the resource read the copy kept for the grant: nothing more at B.
    expect(stepsAtB()).toEqual(['POST access_request', 'POST validation', 'GET read']);

    // A's access history names the provider; B's names A as the service that read.
    const aHistory = await a.signet.history.page(identity, { limit: 10 });
    expect(aHistory.entries.map((entry) => [entry.door, entry.providers])).toEqual([
      ['claim_resource', { [claimId]: PROVIDER }],
      ['userinfo', { [claimId]: PROVIDER }],
      ['id_token', { [claimId]: PROVIDER }],
    ]);
    const bHistory = await b.signet.history.page(identity, { limit: 10 });
    expect(bHistory.entries.map((entry) => [entry.client_id, entry.door, entry.claims])).toEqual([['signet-a', 'access_grant', [claimId]]]);
    // A's logs carry none of the owner, the data, the key or B's challenge.
    const text = logs.written.join('');
    for (const secret of [identity, identity.toLowerCase(), apiKeyOfA, KYC_DATA.checked_by, providerChallenges[0]!.challenge!.split('\n')[0]!]) {
      expect(text).not.toContain(secret);
    }
  });

  test('requests at B per login step, exactly as PROVIDER_REQUESTS says: three the first time, one afterwards, none after the signature', async () => {
    const { owner } = await ownerWithKyc();
    const counted = async () => {
      const at: Record<string, number> = {};
      const { login, tokens } = await kycLogin(owner, { timed: (step) => (at[step] = pair.proxy.requests.length) });
      at.signature ??= 0;
      const beforeAfter = pair.proxy.requests.length;
      await oidc.fetchUserInfo(login.config, tokens.access_token, tokens.claims()!.sub);
      const page = at['provider-challenges'] ?? at.challenge!;
      const counts = { page, signature: at.signature - page, after: pair.proxy.requests.length - at.signature };
      // The code exchange came between the signature and the userinfo: both read the copy.
      expect(pair.proxy.requests.length).toBe(beforeAfter);
      pair.proxy.requests.length = 0;
      return counts;
    };
    expect(await counted()).toEqual(PROVIDER_REQUESTS.firstLogin);
    expect(await counted()).toEqual(PROVIDER_REQUESTS.laterLogin);
  });

  test('the page asking for the text again sends no second access request to B', async () => {
    const { owner, claimId } = await ownerWithKyc();
    const login = await startLogin(a.issuer, WEBSITE, { scope: 'openid claim:kyc' });
    for (let i = 0; i < 3; i++) expect((await requestChallenge(login, { address: owner.address })).status).toBe(200);
    const answer = await login.agent.postJson(`${login.interactionUrl}/provider-challenges`, {});
    expect(answer.json.challenges).toEqual([{ claim_id: claimId, challenge: expect.any(String) }]);
    expect(stepsAtB()).toEqual(['POST access_request']);
  });

  test("a login's steps on two processes of A: the other process finds B's challenge in Redis and fetches the data", async () => {
    const { owner, claimId } = await ownerWithKyc();
    const login = await startLogin(a.issuer, WEBSITE, { scope: 'openid claim:kyc' });
    const asked = await requestChallenge(login, { address: owner.address });
    expect(asked.status).toBe(200);
    // The rest of the login at the other process (its cookie holds for the same host).
    const other = `${a.peers[0]!.url}/interaction/${login.uid}`;
    const challenges = await login.agent.postJson(`${other}/provider-challenges`, {});
    expect(challenges.json.challenges).toEqual([{ claim_id: claimId, challenge: expect.stringContaining('Signet A asks for lasting access') }]);
    const providerText = (challenges.json.challenges as { challenge: string }[])[0]!.challenge;
    const message = asked.json.challenge as string;
    const signed = await login.agent.postJson(`${other}/signature`, {
      signature: await owner.signMessage({ message }),
      message,
      provider_signatures: [{ claim_id: claimId, signature: await owner.signMessage({ message: providerText }) }],
    });
    expect(signed.status).toBe(200);
    const callback = await followToCallback(login, signed.json.redirect_to as string);
    const tokens = await oidc.authorizationCodeGrant(login.config, callback, {
      pkceCodeVerifier: login.verifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
    });
    expect(onchainClaims(tokens.claims()!)[0]).toMatchObject({ claim_id: claimId, data: KYC_DATA });
    expect(stepsAtB()).toEqual(['POST access_request', 'POST validation', 'GET read']);
  });

  test('a later login: one signature, one request at B, with the grant A keeps there', async () => {
    const { owner, claimId } = await ownerWithKyc();
    await kycLogin(owner);
    pair.proxy.requests.length = 0;
    const { held, tokens } = await kycLogin(owner);
    expect(held).toEqual([{ claim_id: claimId, provider: PROVIDER, fetched: ['data'], second_signature: false }]);
    expect(stepsAtB()).toEqual(['GET read']);
    expect(onchainClaims(tokens.claims()!)[0]).toMatchObject({ claim_id: claimId, data: KYC_DATA });
  });

  test("an owner who does not sign B's challenge: the login completes, the claim without data, provider_grant_missing", async () => {
    const { owner, claimId } = await ownerWithKyc();
    const { tokens } = await kycLogin(owner, { signProvider: false });
    const shared = onchainClaims(tokens.claims()!)[0]!;
    expect(shared).toMatchObject({ claim_id: claimId, valid: true, data_status: 'provider_grant_missing' });
    expect(shared.data).toBeUndefined();
    expect(stepsAtB()).toEqual(['POST access_request']);
  });
});

describe('after the login', () => {
  test("the owner revokes A's grant at B: after the recheck bound, a refresh and userinfo no longer carry the data", async () => {
    const { owner, identity, claimId } = await ownerWithKyc();
    const { login, tokens } = await kycLogin(owner);
    const sub = tokens.claims()!.sub;
    // Within the bound: the copy serves, nothing is asked of B.
    pair.proxy.requests.length = 0;
    a.clock.advance((RECHECK_SECONDS - 1) * 1000);
    const refreshed = await oidc.refreshTokenGrant(login.config, tokens.refresh_token!);
    expect(onchainClaims(await oidc.fetchUserInfo(login.config, refreshed.access_token, sub))[0]).toMatchObject({ data: KYC_DATA });
    expect(stepsAtB()).toEqual([]);

    // The owner revokes at B with a signature of B's revocation text.
    const { items } = (await jsonApi(() => b.issuer)('GET', `/access-grants?identity=${identity}`, { key: (await b.signet.apiKeys.create('signet-a')).key }))
      .json as {
      items: { id: string; status: string }[];
    };
    const grantId = items.find((grant) => grant.status === 'active')!.id;
    const revoked = await jsonApi(() => b.issuer)('POST', `/access-grants/${grantId}/revocations`, {
      body: { signature: await owner.signMessage({ message: revocationText(b.issuer, grantId, identity) }) },
    });
    expect(revoked.status).toBe(200);

    // Past the bound, the next refresh and userinfo read B again, and B refuses.
    a.clock.advance(2000);
    const again = await oidc.refreshTokenGrant(login.config, refreshed.refresh_token!);
    const released = onchainClaims(await oidc.fetchUserInfo(login.config, again.access_token, sub))[0]!;
    expect(released).toMatchObject({ claim_id: claimId, valid: true, data_status: 'provider_grant_missing' });
    expect(released.data).toBeUndefined();
    // A forgot the grant: the next login asks B again (two signatures).
    const next = await kycLogin(owner);
    expect(next.held[0]!.second_signature).toBe(true);
    expect(onchainClaims(next.tokens.claims()!)[0]).toMatchObject({ data: KYC_DATA });
  });
});

test("B answers a claim's resource as a JWT it signs when asked with Accept: application/jwt", async () => {
  const { owner, identity, claimId } = await ownerWithKyc();
  await kycLogin(owner);
  const resource = `${b.issuer}/identities/${identity}/claims/${claimId}`;
  const answer = await fetch(resource, { headers: { accept: 'application/jwt', 'x-api-key': apiKeyOfA } });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/jwt/);
  const { payload, protectedHeader } = await jwtVerify(await answer.text(), createRemoteJWKSet(new URL(`${b.issuer}/jwks`)), { issuer: b.issuer });
  expect(protectedHeader.typ).toBe('JWT');
  expect(payload).toMatchObject({
    sub: `eip155:${a.chain.anvil.chainId}:${identity}`,
    identity,
    claim_id: claimId,
    data: KYC_DATA,
    salt: expect.stringMatching(/^0x/),
  });
  expect(payload.exp! - payload.iat!).toBe(300);
  // The public part is anyone's: never signed; JSON stays the default.
  const open = await fetch(resource, { headers: { accept: 'application/jwt' } });
  expect(open.headers.get('content-type')).toMatch(/^application\/json/);
  expect(((await open.json()) as Record<string, unknown>).data).toBeUndefined();
  expect((await fetch(resource, { headers: { 'x-api-key': apiKeyOfA } })).headers.get('content-type')).toMatch(/^application\/json/);
});

describe("the owner's data at A", () => {
  test('the export lists the grants A holds at B; an erasure at A revokes them at B and forgets the data A kept', async () => {
    const { owner, identity, claimId } = await ownerWithKyc();
    const { login, tokens } = await kycLogin(owner);
    const loginGrantId = (await a.signet.provider.AccessToken.find(tokens.access_token))!.grantId!;
    expect(await a.store.get(keys.providerData(loginGrantId))).toEqual(expect.any(String));
    const { agent } = await signInToAccount(a.issuer, owner);
    const api = jsonApi(() => a.issuer);
    const exported = (await api('GET', '/account/export', { agent })).json as { provider_grants: Record<string, unknown>[] };
    expect(exported.provider_grants).toEqual([
      {
        provider: PROVIDER,
        claim_id: claimId,
        grant_id: expect.any(String),
        resource: `${b.issuer}/identities/${identity}/claims/${claimId}`,
        granted_at: expect.any(String),
      },
    ]);
    const grantId = exported.provider_grants[0]!.grant_id as string;
    const grantKey = (await b.signet.apiKeys.create('signet-a')).key;
    expect((await jsonApi(() => b.issuer)('GET', `/access-grants/${grantId}`, { key: grantKey })).json.status).toBe('active');

    const challenge = await api('POST', '/account/erasure/challenge', { agent });
    const signature = await owner.signMessage({ message: challenge.json.challenge as string });
    const accepted = await api('POST', '/account/erasure', { agent, body: { signature, message: challenge.json.challenge } });
    expect(accepted.status).toBe(202);
    await waitUntil(
      'the erasure is done',
      async () => (await (await fetch(accepted.location!, { headers: { accept: 'application/json' } })).json()).status === 'done',
      10_000,
    );

    // At B, A's grant is revoked, as A gave it up; at A, nothing of it is left.
    const atB = (await jsonApi(() => b.issuer)('GET', `/access-grants/${grantId}`, { key: grantKey })).json;
    expect(atB).toMatchObject({ status: 'revoked', revoked_reason: 'service_released', service: 'signet-a' });
    expect(await a.signet.heldElsewhere.grantsOf(`eip155:${a.chain.anvil.chainId}:${identity}`)).toEqual([]);
    expect(await a.store.get(keys.providerData(loginGrantId))).toBeUndefined();
    // The website's tokens ended with the erasure.
    await expect(oidc.fetchUserInfo(login.config, tokens.access_token, tokens.claims()!.sub)).rejects.toThrow();
  });
});

describe('faults: the login completes, the claim is released without data and says why', () => {
  let lastLogin: { tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers; identity: Address; claimId: Hex } | undefined;
  /** A login of an owner who already granted A at B (the read alone), under the fault `arrange` sets. */
  async function laterLoginUnder(arrange: (claimId: Hex, identity: Address) => void) {
    const { owner, identity, claimId } = await ownerWithKyc();
    await kycLogin(owner);
    arrange(claimId, identity);
    pair.proxy.requests.length = 0;
    const { tokens } = await kycLogin(owner);
    lastLogin = { tokens, identity, claimId };
    const shared = onchainClaims(tokens.claims()!)[0]!;
    expect(shared).toMatchObject({ claim_id: claimId, valid: true, status: 'valid' });
    expect(shared.data).toBeUndefined();
    return shared.data_status;
  }

  test('B down', async () => {
    logs.written.length = 0;
    let owner: Address | undefined;
    expect(
      await laterLoginUnder((_claimId, identity) => {
        owner = identity;
        pair.proxy.down = true;
      }),
    ).toBe('provider_unavailable');
    // The claim's resource at A answers the same: the claim, no data, the status; not a 5xx.
    const { tokens, identity, claimId } = lastLogin!;
    const resource = await fetch(`${a.issuer}/identities/${identity}/claims/${claimId}`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(resource.status).toBe(200);
    const body = (await resource.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ claim_id: claimId, valid: true, data_status: 'provider_unavailable' });
    expect(body.data).toBeUndefined();
    // One warning naming the provider and the status; nothing of the owner, the data or the key.
    const warnings = logs.lines().filter((line) => line.msg === 'claim data held elsewhere was not fetched');
    expect(warnings).toEqual([expect.objectContaining({ provider: PROVIDER, data_status: 'provider_unavailable' })]);
    const text = logs.written.join('');
    for (const secret of [owner!, owner!.toLowerCase(), apiKeyOfA, KYC_DATA.checked_by]) expect(text).not.toContain(secret);
    expect(await metrics.registry.getSingleMetricAsString('signet_provider_requests_total')).toMatch(
      /signet_provider_requests_total\{provider="KYC Provider B",step="read",outcome="failed"\} [1-9]/,
    );
  });

  test('B slower than PROVIDER_TIMEOUT_MS', async () => {
    expect(
      await laterLoginUnder(() => {
        pair.proxy.delayMs = TIMEOUT_MS + 500;
      }),
    ).toBe('provider_unavailable');
  });

  test('B answers garbage', async () => {
    expect(
      await laterLoginUnder(() => {
        pair.proxy.answer = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '<html>not json' });
      }),
    ).toBe('provider_answer_invalid');
  });

  test('B answers a huge body', async () => {
    expect(
      await laterLoginUnder(() => {
        pair.proxy.answer = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: `{"data":"${'x'.repeat(512 * 1024)}"}` });
      }),
    ).toBe('provider_answer_invalid');
  });

  test('B redirects outside its own origin: not followed, the API key stays with B', async () => {
    // Where B sends A: a listener that records every request it gets.
    const elsewhere = await startHttpProxy();
    elsewhere.answer = () => ({ status: 200, body: '{}' });
    try {
      expect(
        await laterLoginUnder((claimId, identity) => {
          // A public origin, which the guard's address check approves: only the origin rule keeps the API key from it.
          const location = `http://${ELSEWHERE_HOST}:${new URL(elsewhere.url).port}/identities/${identity}/claims/${claimId}`;
          pair.proxy.answer = (request) => (request.method === 'GET' ? { status: 302, headers: { location } } : undefined);
        }),
      ).toBe('provider_unavailable');
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  test("B's data does not match the onchain hash", async () => {
    expect(
      await laterLoginUnder(() => {
        pair.proxy.tamper = (_request, json) => ({ ...(json as object), data: { ...KYC_DATA, level: 'basic' } });
      }),
    ).toBe('data_mismatch');
  });

  test("B answers another identity's claim", async () => {
    const other = await ownerWithKyc();
    expect(
      await laterLoginUnder(() => {
        pair.proxy.tamper = (_request, json) => ({ ...(json as object), identity: other.identity });
      }),
    ).toBe('provider_answer_invalid');
  });

  test('B down at the first login: the access request fails, the page says so, the login completes', async () => {
    const { owner, claimId } = await ownerWithKyc();
    pair.proxy.down = true;
    const { providerChallenges, tokens } = await kycLogin(owner);
    expect(providerChallenges).toEqual([{ claim_id: claimId, data_status: 'provider_unavailable' }]);
    expect(onchainClaims(tokens.claims()!)[0]).toMatchObject({ claim_id: claimId, data_status: 'provider_unavailable' });
  });
});

test('10 logins at once sharing one provider: each gets its own data, three requests each at B', async () => {
  const owners = [];
  for (let i = 0; i < 10; i++) owners.push(await ownerWithKyc({ ...KYC_DATA, reference: `case-${i}` }));
  pair.proxy.requests.length = 0;
  const logins = await Promise.all(owners.map(({ owner }) => kycLogin(owner)));
  expect(logins.map(({ tokens }) => onchainClaims(tokens.claims()!)[0]!.data_status)).toEqual(logins.map(() => undefined));
  for (const [i, { tokens }] of logins.entries()) {
    expect(onchainClaims(tokens.claims()!)[0]).toMatchObject({ claim_id: owners[i]!.claimId, data: { ...KYC_DATA, reference: `case-${i}` } });
  }
  const steps = stepsAtB();
  expect(steps.filter((step) => step === 'POST access_request')).toHaveLength(10);
  expect(steps.filter((step) => step === 'POST validation')).toHaveLength(10);
  expect(steps.filter((step) => step === 'GET read')).toHaveLength(10);
  expect(steps).toHaveLength(30);
});
