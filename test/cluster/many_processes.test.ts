// Three Signet processes (three apps on three ports, each with its own Redis client and webhook
// worker) behind one issuer, sharing one real three-master Redis Cluster, as several machines
// behind a load balancer: any step of a login, a revocation or a grant read may land on any of
// them, every single-use decision still happens once, and rate limits and a challenge's attempts
// count across them.
import type { Address, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type LoginStart, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { ANALYTICS, basicAuth, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;
let owner: LocalAccount;
let identity: Address;
/** The three processes' base URLs: the first is the issuer's own address. */
let processes: [string, string, string];

async function post(base: string, path: string, fields: Record<string, string>) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: basicAuth(WEBSITE), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields),
  });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

async function userinfoStatus(base: string, accessToken: string): Promise<number> {
  const response = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  await response.arrayBuffer();
  return response.status;
}

/** The same URL on another process (a load balancer sending the next request elsewhere). */
const on = (base: string, url: string) => {
  const moved = new URL(url);
  const target = new URL(base);
  moved.host = target.host;
  return moved.href;
};

/** Follows the engine's redirects, each sent to `base`, until one leaves Signet (the callback). */
async function followOn(base: string, login: LoginStart, redirectTo: string): Promise<URL> {
  let next = new URL(on(base, new URL(redirectTo, base).href));
  for (let hops = 0; hops < 5; hops++) {
    const response = await login.agent.fetch(next);
    const location = response.headers.get('location');
    if (!location) throw new Error(`expected a redirect from ${next.href}, got ${response.status}: ${await response.text()}`);
    const target = new URL(location, next);
    if (!processes.some((process) => target.href.startsWith(process)) && !target.href.startsWith(h.issuer)) return target;
    next = new URL(on(base, target.href));
  }
  throw new Error('too many redirects');
}

beforeAll(async () => {
  h = await startSignet({
    store: 'cluster',
    peers: 2,
    clients: [WEBSITE, ANALYTICS],
    trustProxy: 1,
    rateLimits: { tokenFailuresPerClient: { points: 5, seconds: 60 } },
  });
  processes = [h.issuer, h.peers[0]!.url, h.peers[1]!.url];
  owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
}, 60_000);

afterAll(async () => {
  await h.close();
});

test('a login started on one process completes on another; its code is redeemed on the third, once', async () => {
  const [a, b, c] = processes;
  const started = await startLogin(a, WEBSITE, { scope: 'openid profile email offline_access' });
  const login: LoginStart = { ...started, interactionUrl: on(b, started.interactionUrl) };
  const signed = await signChallenge(login, owner);
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  expect(answer.status).toBe(200);
  const callback = await followOn(b, login, answer.json.redirect_to as string);
  const code = callback.searchParams.get('code')!;
  expect(code).toEqual(expect.any(String));

  const form = { grant_type: 'authorization_code', code, redirect_uri: WEBSITE.redirect_uris[0]!, code_verifier: login.verifier };
  const redeemed = await post(c, '/token', form);
  expect(redeemed).toMatchObject({ status: 200, json: { access_token: expect.any(String), refresh_token: expect.any(String) } });
  // Spent for every process: the first process refuses it too.
  expect(await post(a, '/token', form)).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
});

test('a token issued by one process is revoked through the third and refused by all', async () => {
  const [a, b, c] = processes;
  const started = await startLogin(a, WEBSITE, { scope: 'openid profile email offline_access' });
  const signed = await signChallenge(started, owner);
  const answer = await submitSignature(started, { signature: signed.signature, message: signed.message });
  const callback = await followOn(a, started, answer.json.redirect_to as string);
  const form = {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code')!,
    redirect_uri: WEBSITE.redirect_uris[0]!,
    code_verifier: started.verifier,
  };
  // Issued by the second process.
  const tokens = (await post(b, '/token', form)).json as { access_token: string; refresh_token: string };
  for (const process of processes) expect(await userinfoStatus(process, tokens.access_token)).toBe(200);

  // Revoked through the third: the access token, then the refresh token.
  expect((await post(c, '/token/revocation', { token: tokens.access_token, token_type_hint: 'access_token' })).status).toBe(200);
  for (const process of processes) {
    expect(await userinfoStatus(process, tokens.access_token)).toBe(401);
    expect(await post(process, '/token/introspection', { token: tokens.access_token })).toEqual({ status: 200, json: { active: false } });
  }
  expect((await post(c, '/token/revocation', { token: tokens.refresh_token, token_type_hint: 'refresh_token' })).status).toBe(200);
  for (const process of processes) {
    expect(await post(process, '/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).toMatchObject({
      status: 400,
      json: { error: 'invalid_grant' },
    });
  }
});

test('an immediate grant read by 51 requests spread over the three processes serves exactly once', async () => {
  const [a, b] = processes;
  const apiKey = (await h.signet.apiKeys.create('analytics', 'many processes')).key;
  const json = { accept: 'application/json', 'content-type': 'application/json' };
  const requested = await fetch(`${a}/identities/${identity}/profile/access-requests`, {
    method: 'POST',
    headers: { ...json, 'x-api-key': apiKey },
    body: JSON.stringify({ kind: 'immediate', fields: ['given_name'] }),
  });
  expect(requested.status).toBe(201);
  const grant = (await requested.json()) as { id: string; challenge: string };
  const validated = await fetch(`${b}/access-grants/${grant.id}/validations`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ signature: await owner.signMessage({ message: grant.challenge }) }),
  });
  expect(validated.status).toBe(200);
  const token = ((await validated.json()) as { access_token: string }).access_token;

  const reads = await Promise.all(
    Array.from({ length: 51 }, async (_, i) => {
      const process = processes[i % 3]!;
      const response = await fetch(`${process}/identities/${identity}/profile`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      return { process, status: response.status, json: (await response.json()) as Record<string, unknown> };
    }),
  );
  const served = reads.filter((read) => read.status === 200);
  expect(served).toHaveLength(1);
  expect(served[0]!.json).toMatchObject({ identity, values: { given_name: 'Ada' } });
  const refused = reads.filter((read) => read.status !== 200);
  expect(refused).toHaveLength(50);
  for (const read of refused)
    expect(read).toMatchObject({ status: 401, json: { error: 'invalid_token', reason: 'token_used', previous_reason: 'grant_used' } });
  // Each process took part.
  expect(new Set(reads.map((read) => read.process)).size).toBe(3);
});

test('rate limits count on the cluster across processes: the 6th wrong secret is refused on whichever process it lands', async () => {
  const token = (base: string, secret: string) =>
    fetch(`${base}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${WEBSITE.client_id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': '192.0.2.80',
      },
      body: 'grant_type=authorization_code&code=nothing&redirect_uri=https%3A%2F%2Fwebsite.example%2Fcallback&code_verifier=nothing',
    });
  for (let i = 0; i < 5; i++) {
    const answer = await token(processes[i % 3]!, 'wrong-secret');
    expect({ status: answer.status, error: ((await answer.json()) as { error: string }).error }).toEqual({ status: 401, error: 'invalid_client' });
  }
  for (const process of processes) {
    const limited = await token(process, 'wrong-secret');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: 'rate_limited', reason: 'rate_limited' });
  }
});

test("one challenge's attempts count on the cluster across processes: of 20 wrong signatures at once, 5 are checked and 15 find it burnt", async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  const { message } = await signChallenge(login, owner);
  const forged = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => login.agent.postJson(on(processes[i % 3]!, `${login.interactionUrl}/signature`), { signature: forged, message })),
  );
  const reasons = answers.map((answer) => `${answer.status} ${answer.json.reason}`);
  expect(reasons.filter((reason) => reason === '422 signature_invalid')).toHaveLength(5);
  expect(reasons.filter((reason) => reason === '409 challenge_burnt')).toHaveLength(15);
  // The owner's own signature no longer opens it, on any process.
  for (const process of processes) {
    const owned = await login.agent.postJson(on(process, `${login.interactionUrl}/signature`), { signature: await owner.signMessage({ message }), message });
    expect(`${owned.status} ${owned.json.reason}`).toBe('409 challenge_burnt');
  }
});
