// A login grant holds at most ACCESS_TOKENS_PER_GRANT live access tokens (3 by default), and a
// client at most CLIENT_CREDENTIALS_TOKENS_PER_CLIENT client credentials tokens: an issuance past
// the bound ends the oldest, which introspection and userinfo then answer exactly as a revoked
// token. Two Signet processes on one real Redis (and on a real three-master Redis Cluster) issue
// at once; on one server an atomic count taken all along never sees more than the bound. However
// often a grant is refreshed, its keys in Redis stay the same ones, counted exactly.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { type Cluster, Redis } from 'ioredis';
import { exportJWK, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import type { LocalAccount } from 'viem';
import type { ClientConfig } from '../../src/config/config.js';
import { keys } from '../../src/infra/store/keys.js';
import { BANK, bankJwk, bankKey } from '../support/fapi_bank.js';
import { followToCallback, type LoginStart, logIn, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { basicAuth, type Harness, startSignet, testJwks, WEBSITE } from '../support/signet_harness.js';
import { clusterAdmin } from '../support/store_backends.js';
import { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';

const PER_GRANT = 3;
const PER_CLIENT = 4;

/** A service's machine that asks for client credentials tokens (for its Shared Signals streams). */
const MACHINE: ClientConfig = {
  client_id: 'machine',
  client_secret: 'machine-secret-value',
  client_name: 'Machine',
  redirect_uris: [],
  post_logout_redirect_uris: [],
  grant_types: ['client_credentials'],
  token_endpoint_auth_method: 'client_secret_basic',
};

type Answer = { status: number; json: Record<string, unknown>; headers: Headers };

async function post(base: string, path: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown>, headers: response.headers };
}

async function userinfo(base: string, accessToken: string) {
  const response = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, challenge: response.headers.get('www-authenticate') };
}

/** Atomically on one server: how many records matching `pattern` hold `needle` (a script runs alone). */
const COUNT_RECORDS = `
local n = 0
for _, key in ipairs(redis.call('KEYS', ARGV[1])) do
  local value = redis.call('GET', key)
  if value and string.find(value, ARGV[2], 1, true) then n = n + 1 end
end
return n`;

describe.each(['redis', 'cluster'] as const)('token bounds (%s store, two processes)', (store) => {
  let h: Harness;
  let owner: LocalAccount;
  /** The two processes: the issuer's own address, then the peer's. */
  let processes: [string, string];
  /** A client for inspection: the redis-server, or the cluster (scanned master by master). */
  let redis: Redis | undefined;
  let cluster: Cluster | undefined;

  beforeAll(async () => {
    const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    h = await startSignet({
      store,
      peers: 1,
      trustProxy: 1,
      clients: [WEBSITE, BANK, MACHINE],
      configure: () => ({
        // The grant's bound is the default; the client's is set.
        tokenLimits: { clientCredentialsPerClient: PER_CLIENT },
        jwks: { keys: [...testJwks().keys, { ...signing, kid: 'signet-es256', use: 'sig', alg: 'ES256' }] },
      }),
    });
    processes = [h.issuer, h.peers[0]!.url];
    owner = h.chain.accounts[0]!;
    const identity = await h.chain.createIdentityFor(owner.address);
    await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
    if (h.cluster) cluster = clusterAdmin(h.cluster);
    else redis = new Redis(h.redis.url);
  }, 90_000);

  afterAll(async () => {
    await redis?.quit();
    await cluster?.quit();
    await h.close();
  });

  /** Every key in the store (on a cluster, of every master). */
  async function everyKey(): Promise<string[]> {
    const nodes = cluster ? cluster.nodes('master') : [redis!];
    const found: string[] = [];
    for (const node of nodes) {
      let cursor = '0';
      do {
        const [next, batch] = await node.scan(cursor, 'COUNT', 1000);
        cursor = next;
        found.push(...batch);
      } while (cursor !== '0');
    }
    return found;
  }

  /** Of `tokens`, those introspection calls active (the issuing client asks; any process answers). */
  async function active(tokens: string[], auth: () => Promise<Record<string, string>>, form: () => Promise<Record<string, string>> = async () => ({})) {
    const answers = await Promise.all(
      tokens.map(async (token, i) => post(processes[i % 2]!, '/token/introspection', { token, ...(await form()) }, await auth())),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      // An ended token is answered exactly as a revoked one: nothing but `active: false`.
      if (!answer.json.active) expect(answer.json).toEqual({ active: false });
    }
    return tokens.filter((_token, i) => answers[i]!.json.active === true);
  }
  const websiteAuth = async () => ({ authorization: basicAuth(WEBSITE) });

  /** A website login with a refresh token, its tokens as the code exchange gave them. */
  async function websiteLogin() {
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid email offline_access' });
    const { tokens } = await logIn(login, owner);
    const grantId = (await h.signet.provider.AccessToken.find(tokens.access_token))!.grantId!;
    return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token!, grantId };
  }

  /** A refresh of the website's rotating refresh token at one process: its new access and refresh tokens. */
  async function refresh(base: string, refreshToken: string) {
    const answer = await post(base, '/token', { grant_type: 'refresh_token', refresh_token: refreshToken }, await websiteAuth());
    expect(answer.status).toBe(200);
    return { accessToken: answer.json.access_token as string, refreshToken: answer.json.refresh_token as string };
  }

  test('each refresh past the bound ends the oldest access token of the grant, which introspection and userinfo answer as revoked', async () => {
    const login = await websiteLogin();
    const issued = [login.accessToken];
    let refreshToken = login.refreshToken;
    expect(await active(issued, websiteAuth)).toEqual(issued);
    for (let i = 0; i < 6; i++) {
      // The refreshes alternate between the processes, as behind a load balancer.
      const next = await refresh(processes[i % 2]!, refreshToken);
      issued.push(next.accessToken);
      refreshToken = next.refreshToken;
      expect(await active(issued, websiteAuth)).toEqual(issued.slice(-PER_GRANT));
    }
    const live = issued.slice(-PER_GRANT);
    const ended = issued.slice(0, -PER_GRANT);
    for (const token of live) expect((await userinfo(processes[1], token)).status).toBe(200);
    expect((await h.store.indexMembers(keys.grantAccessTokens(login.grantId))).sort()).toEqual(live.map((token) => keys.model('AccessToken', token)).sort());

    // A token the client revoked itself, for comparison: the ended ones are answered the same, on both processes.
    const other = await websiteLogin();
    expect((await post(processes[0], '/token/revocation', { token: other.accessToken }, await websiteAuth())).status).toBe(200);
    const revoked = await userinfo(processes[0], other.accessToken);
    expect(revoked).toMatchObject({ status: 401, json: { error: 'invalid_token' } });
    expect(revoked.challenge).toMatch(/^Bearer .*error="invalid_token"/);
    for (const token of ended) {
      for (const process of processes) expect(await userinfo(process, token)).toEqual(revoked);
    }
    expect(await active([other.accessToken], websiteAuth)).toEqual([]);
  });

  test('however often a grant is refreshed, it holds the same keys in Redis: 17 after 3 refreshes, 17 after 300', async () => {
    const login = await websiteLogin();
    /** The grant's keys by pattern: named by it, or a record issued under it (or its mark). */
    const grantKeys = async () => {
      const all = await everyKey();
      const records = all.filter((key) => /^signet:oidc:\{(AccessToken|RefreshToken|AuthorizationCode):[^}]+\}$/.test(key));
      const values = await h.store.getMany(records);
      const ours = new Set(records.filter((_key, i) => (JSON.parse(values[i] ?? '{}') as { grantId?: string }).grantId === login.grantId));
      const counts: Record<string, number> = {};
      for (const key of all) {
        const record = key.replace(/:consumed$/, '');
        if (!(key.includes(login.grantId) || ours.has(record))) continue;
        const pattern = key.replace(login.grantId, '<grantId>').replace(/\{(AccessToken|RefreshToken|AuthorizationCode):[^}]+\}/, '{$1:<id>}');
        counts[pattern] = (counts[pattern] ?? 0) + 1;
      }
      return counts;
    };
    // The code (60 s) is still there, consumed: the refreshes below take seconds.
    const expected = {
      'signet:oidc:{Grant:<grantId>}': 1,
      'signet:oidc:{grant:<grantId>}:records': 1,
      'signet:oidc:{grant:<grantId>}:access-tokens': 1,
      'signet:oidc:{grant:<grantId>}:used-refresh-tokens': 1,
      'signet:consent:<grantId>': 1,
      'signet:oidc:{AuthorizationCode:<id>}': 1,
      'signet:oidc:{AuthorizationCode:<id>}:consumed': 1,
      'signet:oidc:{AccessToken:<id>}': PER_GRANT,
      'signet:oidc:{RefreshToken:<id>}': 1 + PER_GRANT,
      'signet:oidc:{RefreshToken:<id>}:consumed': PER_GRANT,
    };
    let refreshToken = login.refreshToken;
    for (let i = 0; i < 3; i++) refreshToken = (await refresh(processes[i % 2]!, refreshToken)).refreshToken;
    const total = Object.values(expected).reduce((sum, count) => sum + count, 0);
    expect(total).toBe(17);
    // A cluster drops a grant's oldest consumed refresh token just after the refresh answered.
    const same = (counts: Record<string, number>) => JSON.stringify(Object.entries(counts).sort()) === JSON.stringify(Object.entries(expected).sort());
    const settled = async () => {
      await waitUntil('the grant holds the keys of its bound', async () => same(await grantKeys())).catch(() => {});
      return grantKeys();
    };
    expect(await settled()).toEqual(expected);
    for (let i = 3; i < 300; i++) refreshToken = (await refresh(processes[i % 2]!, refreshToken)).refreshToken;
    expect(await settled()).toEqual(expected);
    // The index of the grant's records lists exactly its refresh tokens, live and consumed; its
    // access tokens are listed in their bounded index alone; a code, redeemed through its Grant, in none.
    expect(await h.store.indexMembers(keys.grantIndex(login.grantId))).toHaveLength(1 + PER_GRANT);
    expect(await h.store.indexMembers(keys.grantAccessTokens(login.grantId))).toHaveLength(PER_GRANT);
  }, 120_000);

  describe('a FAPI 2.0 grant refreshed from both processes at once (its refresh token is not rotated)', () => {
    const publicHost = () => new URL(h.issuer).host;
    const proxied = () => ({ 'x-forwarded-host': publicHost(), 'x-forwarded-proto': 'http' });

    /** A client assertion of the bank (private_key_jwt), fresh for each request. */
    const assertion = async () => ({
      client_id: BANK.client_id,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: bankJwk.kid })
        .setIssuer(BANK.client_id)
        .setSubject(BANK.client_id)
        .setAudience(h.issuer)
        .setIssuedAt()
        .setExpirationTime('60s')
        .sign(bankKey.privateKey),
    });

    /** A DPoP proof for the token endpoint with the server's nonce. */
    const proof = async (key: CryptoKeyPair, nonce: string | undefined) =>
      new SignJWT({ jti: randomUUID(), htm: 'POST', htu: `${h.issuer}/token`, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}) })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: await exportJWK(key.publicKey) })
        .sign(key.privateKey);

    /** A whole FAPI 2.0 login: PAR with a DPoP key, the owner's signature, the code exchanged with DPoP. */
    async function fapiLogin() {
      const config = await oidc.discovery(new URL(h.issuer), BANK.client_id, undefined, oidc.PrivateKeyJwt({ key: bankKey.privateKey, kid: bankJwk.kid }), {
        execute: [oidc.allowInsecureRequests],
      });
      const dpopKey = await oidc.randomDPoPKeyPair('ES256');
      const DPoP = oidc.getDPoPHandle(config, dpopKey);
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = await oidc.buildAuthorizationUrlWithPAR(
        config,
        {
          redirect_uri: BANK.redirect_uris[0]!,
          scope: 'openid email',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        },
        { DPoP },
      );
      const agent = new UserAgent();
      const response = await agent.fetch(url);
      expect(response.status).toBe(303);
      const interactionUrl = new URL(response.headers.get('location')!, h.issuer).href;
      const login: LoginStart = { agent, config, uid: interactionUrl.split('/').pop()!, interactionUrl, verifier, state, nonce: '' };
      const signed = await signChallenge(login, owner, { fields: ['email'] });
      const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
      expect(answer.status).toBe(200);
      const callback = await followToCallback(login, answer.json.redirect_to as string);
      const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
      return { dpopKey, tokens };
    }

    test('never more than the bound at any moment (counted atomically on one server), and exactly the bound lives on', async () => {
      const { dpopKey, tokens } = await fapiLogin();
      const grantId = (await h.signet.provider.AccessToken.find(tokens.access_token))!.grantId!;
      const form = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! };
      // The server's nonce, which both processes accept (one secret).
      const asked = await post(processes[0], '/token', { ...form, ...(await assertion()) }, { ...proxied(), dpop: await proof(dpopKey, undefined) });
      expect(asked).toMatchObject({ status: 400, json: { error: 'use_dpop_nonce' } });
      let nonce = asked.headers.get('dpop-nonce')!;
      const refreshAt = async (base: string): Promise<Answer> => {
        for (let attempt = 0; ; attempt++) {
          const answer = await post(base, '/token', { ...form, ...(await assertion()) }, { ...proxied(), dpop: await proof(dpopKey, nonce) });
          // A nonce that turned over meanwhile: once more with the new one.
          if (answer.json.error !== 'use_dpop_nonce' || attempt > 0) return answer;
          nonce = answer.headers.get('dpop-nonce')!;
        }
      };

      // On one server, an atomic count of the grant's access token records, taken over and over while the refreshes run.
      let running = true;
      const counts: number[] = [];
      const sampler = (async () => {
        while (running && redis) counts.push(Number(await redis.eval(COUNT_RECORDS, 0, 'signet:oidc:{AccessToken:*}', `"grantId":"${grantId}"`)));
      })();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => refreshAt(processes[i % 2]!)));
      running = false;
      await sampler;

      for (const answer of answers) expect(answer).toMatchObject({ status: 200, json: { token_type: 'DPoP', refresh_token: tokens.refresh_token } });
      const issued = [tokens.access_token, ...answers.map((answer) => answer.json.access_token as string)];
      expect(new Set(issued).size).toBe(21);
      if (redis) {
        expect(counts.length).toBeGreaterThan(0);
        expect(Math.max(...counts)).toBeLessThanOrEqual(PER_GRANT);
      }
      const live = await active(issued, async () => ({}), assertion);
      expect(live).toHaveLength(PER_GRANT);
      expect((await h.store.indexMembers(keys.grantAccessTokens(grantId))).sort()).toEqual(live.map((token) => keys.model('AccessToken', token)).sort());
      // The one refresh token of the grant, never rotated, still refreshes.
      const records = (await h.store.indexMembers(keys.grantIndex(grantId))).filter((key) => key.startsWith('signet:oidc:{RefreshToken:'));
      expect(records).toEqual([keys.model('RefreshToken', tokens.refresh_token!)]);
      expect((await refreshAt(processes[1])).status).toBe(200);
    });
  });

  test("a client's client credentials tokens: asked for at once on both processes, exactly its bound lives on, the oldest ended", async () => {
    const auth = async () => ({ authorization: basicAuth(MACHINE) });
    const mint = async (base: string) => {
      const answer = await post(base, '/token', { grant_type: 'client_credentials', scope: 'ssf' }, await auth());
      expect(answer.status).toBe(200);
      return answer.json.access_token as string;
    };
    let running = true;
    const counts: number[] = [];
    const sampler = (async () => {
      while (running && redis)
        counts.push(Number(await redis.eval(COUNT_RECORDS, 0, 'signet:oidc:{ClientCredentials:*}', `"clientId":"${MACHINE.client_id}"`)));
    })();
    const issued = await Promise.all(Array.from({ length: 12 }, (_, i) => mint(processes[i % 2]!)));
    running = false;
    await sampler;
    if (redis) expect(Math.max(...counts)).toBeLessThanOrEqual(PER_CLIENT);
    const live = await active(issued, auth);
    expect(live).toHaveLength(PER_CLIENT);
    expect((await h.store.indexMembers(keys.clientCredentialsOf(MACHINE.client_id))).sort()).toEqual(
      live.map((token) => keys.model('ClientCredentials', token)).sort(),
    );
    // One more: it lives, with the three latest of those, and the oldest of them ends.
    const next = await mint(processes[1]);
    expect(await active([...live, next], auth)).toHaveLength(PER_CLIENT);
    expect(await active([next], auth)).toEqual([next]);
  });
});
