// Rate limits on real Redis: a burst of challenges stops at the limit without a chain call
// past it, a challenge burns after its wrong signatures, unused challenges leave nothing behind
// their TTL, and wrong client secrets at /token are cut off. Each test speaks from its own
// client address (TRUST_PROXY=1, one X-Forwarded-For entry) so their counters stay apart.

import { Redis } from 'ioredis';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { chainDefinition } from '../../src/infra/chain/chain_client.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type LoginStart, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';

let h: Harness;
let redis: Redis;
let chainCalls = 0;
let identity: Address;
const CHALLENGE_TTL = 30;

beforeAll(async () => {
  h = await startSignet({
    challengeTtlSeconds: CHALLENGE_TTL,
    trustProxy: 1,
    rateLimits: {
      challengesPerAddress: { points: 10, seconds: 60 },
      accountSignInsPerAddress: { points: 3, seconds: 60 },
      tokenFailuresPerClient: { points: 5, seconds: 60 },
      accessRequestsPerService: { points: 3, seconds: 60 },
      challengesPerInteraction: { points: 15, seconds: 300 },
      identityCreationsPerWallet: { points: 2, seconds: 3600 },
    },
    configure: () => ({ identityDeployerKey: DEPLOYER_KEY }),
    // Signet's own chain client, with every JSON-RPC request counted.
    chainClient: (chain) =>
      createPublicClient({
        chain: chainDefinition(chain.anvil.chainId, chain.anvil.rpcUrl),
        transport: http(chain.anvil.rpcUrl, {
          onFetchRequest: () => {
            chainCalls++;
          },
        }),
        pollingInterval: 50,
      }) as PublicClient,
  });
  redis = new Redis(h.redis.url);
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.signet.profiles.set(identity, { email: 'ada@example.org' });
}, 60_000);

afterAll(async () => {
  redis.disconnect();
  await h.close();
});

const owner = () => h.chain.accounts[0]!;

/** POSTs JSON as the login's browser, from a client address the one trusted proxy reports. */
async function postFrom(agent: UserAgent, from: string, url: string, body: unknown) {
  const response = await agent.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as Record<string, unknown> };
}

const challengeFrom = (login: LoginStart, from: string) => postFrom(login.agent, from, `${login.interactionUrl}/challenge`, { address: owner().address });

test('a burst of challenges: 429 with Retry-After past the limit, and not one chain call past it', async () => {
  // What one challenge costs on the chain, measured from another address.
  const probe = await startLogin(h.issuer, WEBSITE);
  const before = chainCalls;
  expect((await challengeFrom(probe, '198.51.100.1')).status).toBe(200);
  const perChallenge = chainCalls - before;
  expect(perChallenge).toBeGreaterThan(0);

  const login = await startLogin(h.issuer, WEBSITE);
  const start = chainCalls;
  const answers = await Promise.all(Array.from({ length: 40 }, () => challengeFrom(login, '198.51.100.2')));
  const ok = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status === 429);
  expect(ok).toHaveLength(10);
  expect(refused).toHaveLength(30);
  for (const answer of refused) {
    expect(answer.json).toEqual({
      error: 'rate_limited',
      error_description: expect.stringMatching(/^at most 10 challenges requested from one address every 60 s; try again in \d+ s$/),
      reason: 'rate_limited',
    });
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
  }
  // Only the ten allowed challenges reached the chain.
  expect(chainCalls - start).toBe(10 * perChallenge);
  // Another address is not affected.
  expect((await challengeFrom(login, '198.51.100.3')).status).toBe(200);
});

test('wrong signatures: 5 cost one check each (recovered locally, one getCode to rule out a contract wallet), the 6th is refused as burnt with no call, and the challenge is dead', async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  const from = '198.51.100.10';
  const answer = await challengeFrom(login, from);
  const message = answer.json.challenge as string;
  const nonce = /Nonce: (\w+)/.exec(message)![1]!;
  const forger = privateKeyToAccount(generatePrivateKey());
  const forged = await forger.signMessage({ message });
  const signature = (body: Record<string, unknown>) => postFrom(login.agent, from, `${login.interactionUrl}/signature`, body);

  for (let i = 1; i <= 5; i++) {
    const before = chainCalls;
    const refused = await signature({ signature: forged, message });
    expect(refused).toMatchObject({
      status: 422,
      json: {
        error: 'invalid_signature',
        error_description: `the signature was not made by wallet ${owner().address} over the challenge`,
        reason: 'signature_invalid',
      },
    });
    expect(chainCalls - before).toBe(1);
  }
  expect(await redis.get(keys.usedChallenge(nonce))).toBe('burnt');
  const burntAnswer = {
    status: 409,
    json: { error: 'conflict', error_description: 'the challenge was refused after too many wrong signatures; request a new one', reason: 'challenge_burnt' },
  };
  const before = chainCalls;
  expect(await signature({ signature: forged, message })).toMatchObject(burntAnswer);
  // The owner's own signature no longer opens it either.
  expect(await signature({ signature: await owner().signMessage({ message }), message })).toMatchObject(burntAnswer);
  expect(chainCalls).toBe(before);
  // The marker dies with the challenge.
  const left = await redis.pttl(keys.usedChallenge(nonce));
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThanOrEqual(CHALLENGE_TTL * 1000);
});

test('30 wrong signatures at once on one challenge reach the chain for at most 5 checks', async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  const from = '198.51.100.11';
  const message = (await challengeFrom(login, from)).json.challenge as string;
  const forged = await privateKeyToAccount(generatePrivateKey()).signMessage({ message });
  const before = chainCalls;
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => postFrom(login.agent, from, `${login.interactionUrl}/signature`, { signature: forged, message })),
  );
  expect(chainCalls - before).toBeLessThanOrEqual(5);
  expect(answers.filter((answer) => answer.status === 422)).toHaveLength(5);
  expect(answers.filter((answer) => answer.json.reason === 'challenge_burnt')).toHaveLength(25);
});

test('unused challenges leave nothing in Redis once their TTL passes', async () => {
  const logins = await Promise.all(Array.from({ length: 5 }, () => startLogin(h.issuer, WEBSITE)));
  const challengeKeys = async () => [...(await redis.keys('signet:{challenge:*')), ...(await redis.keys('signet:challenge-latest:*'))].sort();
  const earlier = new Set(await challengeKeys());
  // 50 challenges, 10 per login, each from its own address.
  let n = 0;
  for (const login of logins) {
    for (let i = 0; i < 10; i++) expect((await challengeFrom(login, `203.0.113.${++n}`)).status).toBe(200);
  }
  const fresh = (await challengeKeys()).filter((key) => !earlier.has(key));
  // One record per challenge and one "latest" pointer per login, each expiring with the challenge.
  expect(fresh.filter((key) => key.startsWith('signet:{challenge:'))).toHaveLength(50);
  expect(fresh.filter((key) => key.startsWith('signet:challenge-latest:'))).toHaveLength(5);
  expect(fresh).toHaveLength(55);
  for (const key of fresh) {
    const left = await redis.pttl(key);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(CHALLENGE_TTL * 1000);
  }
  // Rate counters grow with addresses and logins, not with challenges, and expire with their window.
  for (const key of await redis.keys('signet:rate:*')) expect(await redis.pttl(key)).toBeGreaterThan(0);
  // The TTL is the subject: Redis expires the keys on its own clock, so this waits for real, for
  // what is left of a challenge's life, at its shortest (CHALLENGE_TTL: the least the settings allow).
  await waitUntil('every challenge key has expired', async () => (await redis.exists(...fresh)) === 0, (CHALLENGE_TTL + 5) * 1000);
}, 60_000);

test('wrong client secrets at /token: 401 up to the limit, then 429 with Retry-After, for that client and address only', async () => {
  const token = (secret: string, from: string, path = '/token') =>
    fetch(`${h.issuer}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${WEBSITE.client_id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': from,
      },
      body: 'grant_type=authorization_code&code=nothing&redirect_uri=https%3A%2F%2Fwebsite.example%2Fcallback&code_verifier=nothing',
    });
  for (let i = 0; i < 5; i++) {
    const answer = await token('wrong-secret', '192.0.2.50');
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: string }).error).toBe('invalid_client');
  }
  const limited = await token('wrong-secret', '192.0.2.50');
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(await limited.json()).toEqual({
    error: 'rate_limited',
    error_description: expect.stringMatching(/^at most 5 failed client authentications of one client from one address every 60 s; try again in \d+ s$/),
    reason: 'rate_limited',
  });
  // Another spelling of the path is no way around it.
  expect((await token('wrong-secret', '192.0.2.50', '/TOKEN/')).status).toBe(429);
  // Even the right secret waits out the window from there: guessing stops paying.
  expect((await token(WEBSITE.client_secret!, '192.0.2.50')).status).toBe(429);
  // The client itself, from its own address, is not locked out by a stranger's guesses.
  const elsewhere = await token(WEBSITE.client_secret!, '192.0.2.51');
  expect(elsewhere.status).toBe(400);
  expect(((await elsewhere.json()) as { error: string }).error).toBe('invalid_grant');
});

test('account sign-ins per address: the 4th challenge within the window is refused', async () => {
  const agent = new UserAgent();
  const wallet = privateKeyToAccount(generatePrivateKey());
  for (let i = 0; i < 3; i++) {
    expect((await postFrom(agent, '192.0.2.60', `${h.issuer}/account/challenge`, { address: wallet.address })).status).toBe(200);
  }
  const refused = await postFrom(agent, '192.0.2.60', `${h.issuer}/account/challenge`, { address: wallet.address });
  expect(refused.status).toBe(429);
  expect(refused.json.error_description).toMatch(/^at most 3 account sign-ins started from one address every 60 s; try again in \d+ s$/);
});

test('access requests per service: the 4th within the window is refused before any chain read', async () => {
  const { key } = await h.signet.apiKeys.create(WEBSITE.client_id);
  const request = () =>
    fetch(`${h.issuer}/identities/${identity}/profile/access-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ kind: 'immediate', fields: ['email'] }),
    });
  for (let i = 0; i < 3; i++) expect((await request()).status).toBe(201);
  const before = chainCalls;
  const refused = await request();
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const body = await refused.json();
  expect(body).toEqual({
    error: 'rate_limited',
    error_description: expect.stringMatching(/^at most 3 access requests from one service every 60 s; try again in \d+ s$/),
    reason: 'rate_limited',
  });
  expect(chainCalls).toBe(before);
});

test('challenges per login: the 16th for one login is refused, whatever the address', async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  for (let i = 1; i <= 15; i++) expect((await challengeFrom(login, `198.51.100.${100 + i}`)).status).toBe(200);
  const refused = await challengeFrom(login, '198.51.100.200');
  expect(refused).toMatchObject({ status: 429, json: { error: 'rate_limited', reason: 'rate_limited' } });
  expect(refused.json.error_description).toMatch(/^at most 15 challenges requested for one login or sign-in every 300 s; try again in \d+ s$/);
});

test('identity deployments per wallet: a wallet whose deployments keep failing is cut off, whatever its address', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  // Another identity already took this wallet's salt, so every deployment for it is refused.
  await h.chain.createIdentityFor(privateKeyToAccount(generatePrivateKey()).address, wallet.address.toLowerCase());
  const { agent } = await signInToAccount(h.issuer, wallet);
  const create = (from: string) => postFrom(agent, from, `${h.issuer}/account/identity`, {});
  expect((await create('192.0.2.70')).status).toBe(409);
  expect((await create('192.0.2.71')).status).toBe(409);
  const refused = await create('192.0.2.72');
  expect(refused.status).toBe(429);
  expect(refused.json.error_description).toMatch(/^at most 2 identity deployments for one wallet every 3600 s; try again in \d+ s$/);
});

// Last: it stops this file's Redis.
test('Redis down: a limited route fails closed, 503 store_unavailable within 1 s, with no chain call', async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  await h.redis.stop();
  const before = chainCalls;
  const started = performance.now();
  const answer = await challengeFrom(login, '192.0.2.99');
  expect(performance.now() - started).toBeLessThan(1000);
  expect(answer).toMatchObject({ status: 503, json: { error: 'temporarily_unavailable', reason: 'store_unavailable' } });
  expect(chainCalls).toBe(before);
});
