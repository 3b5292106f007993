// No personal data in the logs: a whole Signet (real Redis, anvil, ONCHAINID) logging every
// line at debug runs the main flows (an OIDC login with a profile, userinfo, a refresh, an
// account sign-in, an owner's webhook that fails to a dead letter, an access grant requested,
// validated and read, public reads, a chain outage answered 503), and no line may hold the
// identity or wallet address (in any case), the e-mail, the names, a token, a signature, a
// signed text or its nonce. Where an owner must be told apart (the dead webhook), the line
// carries the keyed hash of the identity under LOG_HASH_KEY.
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createLogHash } from '../../src/infra/observability/log_hash.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { freePort } from '../support/free_port.js';
import { captureLogs } from '../support/log_capture.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

type Line = Record<string, unknown> & { level: string; msg: string; route?: string; method?: string; status?: number };

const LOG_HASH_KEY = 'the-log-hash-key-of-the-privacy-test';
const PROFILE = { given_name: 'Quillonia', family_name: 'Vexmoreland', email: 'quillonia.vexmoreland@example.org' };

let h: Harness;
let owner: LocalAccount;
let identity: Address;
let apiKey: string;
const { written, destination, lines } = captureLogs<Line>();
/** Every value a flow handled that no log line may hold, by name. */
const personal = new Map<string, string>();
const requests = () =>
  lines()
    .filter((line) => line.msg === 'request')
    .map((line) => `${line.method} ${line.route} ${line.status}`);
const nonceOf = (text: string) => /Nonce: (\S+)/.exec(text)?.[1] ?? '';

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    logger: createLogger({ level: 'debug', destination }),
    chainProxy: true,
    // The owner's webhook is on loopback: private targets allowed, as in development.
    configure: () => ({ webhooks: { allowPrivate: true }, logHashKey: LOG_HASH_KEY }),
  });
  // A wallet of its own: its address is in no fixture and no configuration.
  owner = privateKeyToAccount(generatePrivateKey());
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, PROFILE);
  apiKey = (await h.signet.apiKeys.create('analytics', 'log privacy')).key;
  personal.set('identity', identity);
  personal.set('wallet', owner.address);
  personal.set('API key', apiKey);
  for (const [name, value] of Object.entries(PROFILE)) personal.set(name, value);
}, 60_000);

afterAll(async () => {
  await h.close();
});

test('an OIDC login, userinfo and a refresh', async () => {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const { tokens, callback, signed } = await logIn(login, owner);
  expect(tokens.claims()).toMatchObject({ given_name: PROFILE.given_name, email: PROFILE.email });
  const sub = tokens.claims()!.sub;
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toMatchObject({ family_name: PROFILE.family_name });
  const refreshed = await oidc.refreshTokenGrant(login.config, tokens.refresh_token!);
  expect(refreshed.access_token).not.toBe(tokens.access_token);
  const loginValues = {
    'login code': callback.searchParams.get('code')!,
    'login access token': tokens.access_token,
    'login ID token': tokens.id_token!,
    'login refresh token': tokens.refresh_token!,
    'refreshed access token': refreshed.access_token,
    'refreshed refresh token': refreshed.refresh_token!,
    'refreshed ID token': refreshed.id_token!,
    'login signature': signed.signature,
    'login challenge': signed.message,
    'login nonce': nonceOf(signed.message),
    subject: sub,
  };
  for (const [name, value] of Object.entries(loginValues)) personal.set(name, value);
  expect(requests()).toEqual(
    expect.arrayContaining(['GET /auth 303', 'POST /interaction/:uid/challenge 200', 'POST /interaction/:uid/signature 200', 'POST /token 200', 'GET /me 200']),
  );
});

test("an account sign-in, the owner's webhook, an access grant requested, validated and read; the dead webhook logged by the identity's keyed hash", async () => {
  const { agent, challenge, session } = await signInToAccount(h.issuer, owner);
  expect(session).toMatchObject({ identity });
  personal.set('account challenge', challenge.challenge as string);
  personal.set('account nonce', nonceOf(challenge.challenge as string));
  // The owner's URL refuses connections: four attempts (the harness's 50, 100, 200 ms), then a dead letter.
  const hook = await agent.fetch(`${h.issuer}/account/webhook`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${await freePort()}/hooks/${owner.address}` }),
  });
  expect(hook.status).toBe(200);

  const api = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(`${h.issuer}${path}`, {
      method,
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const request = await api('POST', `/identities/${identity}/profile/access-requests`, { 'x-api-key': apiKey }, { kind: 'immediate', fields: ['email'] });
  expect(request.status).toBe(201);
  const grantChallenge = request.json.challenge as string;
  const grantSignature = await owner.signMessage({ message: grantChallenge });
  const validated = await api('POST', `/access-grants/${request.json.id}/validations`, {}, { signature: grantSignature });
  expect(validated.status).toBe(200);
  const grantToken = validated.json.access_token as string;
  const read = await api('GET', `/identities/${identity}/profile`, { authorization: `Bearer ${grantToken}` });
  expect(read).toMatchObject({ status: 200, json: { values: { email: PROFILE.email } } });
  // A lasting grant: the owner is told (the webhook), signs, and the service reads with its API key.
  const lasting = await api('POST', `/identities/${identity}/profile/access-requests`, { 'x-api-key': apiKey }, { kind: 'persistent', fields: ['given_name'] });
  expect(lasting.status).toBe(201);
  const lastingChallenge = lasting.json.challenge as string;
  const lastingSignature = await owner.signMessage({ message: lastingChallenge });
  expect((await api('POST', `/access-grants/${lasting.json.id}/validations`, {}, { signature: lastingSignature })).status).toBe(200);
  expect(await api('GET', `/identities/${identity}/profile`, { 'x-api-key': apiKey })).toMatchObject({
    status: 200,
    json: { values: { given_name: PROFILE.given_name } },
  });
  const grantValues = {
    'grant challenge': grantChallenge,
    'grant nonce': nonceOf(grantChallenge),
    'grant signature': grantSignature,
    'grant token': grantToken,
    'lasting grant challenge': lastingChallenge,
    'lasting grant nonce': nonceOf(lastingChallenge),
    'lasting grant signature': lastingSignature,
  };
  for (const [name, value] of Object.entries(grantValues)) personal.set(name, value);

  const deadLine = () => lines().find((line) => line.msg.includes('now a dead letter'));
  await waitUntil('the owner webhook is a dead letter, logged', () => deadLine() !== undefined);
  expect(deadLine()).toEqual(
    expect.objectContaining({
      level: 'error',
      msg: expect.stringMatching(/^webhook [\w-]+ to an owner: attempt 4 failed \(connection failed \(ECONNREFUSED\)\), now a dead letter$/),
      identity_hash: createLogHash(LOG_HASH_KEY)(identity),
    }),
  );
  expect(
    lines()
      .filter((line) => line.msg.includes('to an owner: attempt'))
      .map((line) => line.identity_hash),
  ).toEqual(Array(4).fill(createLogHash(LOG_HASH_KEY)(identity)));
  expect(requests()).toEqual(
    expect.arrayContaining([
      'POST /account/challenge 200',
      'POST /account/session 200',
      'PUT /account/webhook 200',
      'POST /identities/:identity/profile/access-requests 201',
      'POST /access-grants/:id/validations 200',
      'GET /identities/:identity/profile 200',
    ]),
  );
});

test('public reads, and a chain outage answered 503 and logged as an error', async () => {
  const claimId = `0x${randomBytes(32).toString('hex')}`;
  expect((await fetch(`${h.issuer}/identities/${identity}/profile`)).status).toBe(200);
  expect((await fetch(`${h.issuer}/identities/${identity.toLowerCase()}/claims/${claimId}`)).status).toBe(404);
  await h.chainProxy!.set('refuse');
  try {
    const outage = await fetch(`${h.issuer}/identities/${identity}/claims/${claimId}`, { headers: { accept: 'application/json' } });
    expect(outage.status).toBe(503);
  } finally {
    await h.chainProxy!.set('pass');
  }
  const errors = lines().filter((line) => line.level === 'error' && line.msg !== 'request');
  expect(errors.map((line) => line.msg)).toContain(
    'GET /identities/:identity/claims/:claimId: the chain could not be read (ClaimsReader.read); try again shortly',
  );
  expect(requests()).toEqual(
    expect.arrayContaining([
      'GET /identities/:identity/profile 200',
      'GET /identities/:identity/claims/:claimId 404',
      'GET /identities/:identity/claims/:claimId 503',
    ]),
  );
});

test('no log line holds any of it, in any case', () => {
  const log = written.join('');
  const lower = log.toLowerCase();
  expect(lines().length).toBeGreaterThan(25);
  expect(personal.size).toBeGreaterThan(25);
  for (const [name, value] of personal) {
    expect(value.length).toBeGreaterThanOrEqual(8);
    const found = log.includes(value) || lower.includes(value.toLowerCase());
    expect({ name, found }).toEqual({ name, found: false });
  }
  // Addresses also without their 0x, and the halves of tokens and signatures.
  for (const address of [identity, owner.address]) expect(lower).not.toContain(address.slice(2).toLowerCase());
  for (const name of ['login access token', 'refreshed refresh token', 'grant token', 'login signature', 'grant signature']) {
    const value = personal.get(name)!;
    expect({ name, found: log.includes(value.slice(0, 24)) || log.includes(value.slice(-24)) }).toEqual({ name, found: false });
  }
  // Nothing reached the last-resort filter either: no code path tried to log an address.
  expect(lines().filter((line) => JSON.stringify(line).includes('0x[address]'))).toEqual([]);
});
