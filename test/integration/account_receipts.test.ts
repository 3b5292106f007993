// The owner reads the consent receipts of their identity after signing in with the same
// wallet challenge; nobody else can.
import type { Address, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';

let h: Harness;
let identity: Address;
let otherIdentity: Address;

const owner = () => h.chain.accounts[0]!;
const otherOwner = () => h.chain.accounts[1]!;

beforeAll(async () => {
  h = await startSignet();
  identity = await h.chain.createIdentityFor(owner().address);
  otherIdentity = await h.chain.createIdentityFor(otherOwner().address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
});

afterAll(async () => {
  await h.close();
});

async function signIn(wallet: LocalAccount) {
  const { agent, challenge, session } = await signInToAccount(h.issuer, wallet);
  expect(challenge.challenge).toContain('Sign in to your Signet account');
  return { agent, session };
}

test('the owner signs in and reads the exact text signed for each login', async () => {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const { signed } = await logIn(login, owner(), { fields: ['email'] });

  const { agent, session } = await signIn(owner());
  expect(session).toEqual({ identity, wallet: owner().address, created_at: expect.any(String), csrf_token: expect.any(String) });

  const list = await agent.getJson(`${h.issuer}/account/consents`);
  expect(list.status).toBe(200);
  const consents = list.json.consents as Record<string, unknown>[];
  expect(consents).toHaveLength(1);
  expect(consents[0]).toEqual({
    grant_id: expect.any(String),
    client_id: 'website',
    identity,
    wallet: owner().address,
    fields: ['email'],
    claims: [],
    message: signed.message,
    signature: signed.signature,
    signed_at: expect.any(String),
  });

  const one = await agent.getJson(`${h.issuer}/account/consents/${consents[0]!.grant_id}`);
  expect(one.status).toBe(200);
  expect(one.json).toEqual(consents[0]);

  // Another owner sees neither the list entry nor the receipt.
  const other = await signIn(otherOwner());
  expect((await other.agent.getJson(`${h.issuer}/account/consents`)).json).toEqual({ identity: otherIdentity, consents: [] });
  const foreign = await other.agent.getJson(`${h.issuer}/account/consents/${consents[0]!.grant_id}`);
  expect(foreign.status).toBe(404);
  expect(foreign.json).toMatchObject({ error: 'not_found', reason: 'consent_not_found' });

  // Logout ends the session.
  const out = await agent.fetch(`${h.issuer}/account/logout`, { method: 'POST' });
  expect(out.status).toBe(204);
  const after = await agent.getJson(`${h.issuer}/account/consents`);
  expect(after).toMatchObject({ status: 401, json: { error: 'invalid_token', reason: 'session_missing' } });
});

test('no session, no receipts', async () => {
  const answer = await new UserAgent().getJson(`${h.issuer}/account/consents`);
  expect(answer.status).toBe(401);
  expect(answer.json).toMatchObject({ error: 'invalid_token', reason: 'session_missing' });
});

test('a session needs the sign-in cookie of the browser that asked for the challenge', async () => {
  const asker = new UserAgent();
  const challenge = await asker.postJson(`${h.issuer}/account/challenge`, { address: owner().address });
  const message = challenge.json.challenge as string;
  const signature = await owner().signMessage({ message });
  const answer = await new UserAgent().postJson(`${h.issuer}/account/session`, { signature, message });
  expect(answer.status).toBe(400);
  expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'sign_in_missing' });
});

test('a login challenge cannot open an account session', async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  const agent = new UserAgent();
  await agent.postJson(`${h.issuer}/account/challenge`, { address: owner().address });
  const loginChallenge = await login.agent.postJson(`${login.interactionUrl}/challenge`, { address: owner().address });
  const message = loginChallenge.json.challenge as string;
  const answer = await agent.postJson(`${h.issuer}/account/session`, { signature: await owner().signMessage({ message }), message });
  expect(answer.status).toBe(400);
  expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'nonce_other_binding' });
});

test('without a deployer key, a fresh wallet has no identity to read (404 wallet_without_identity) nor to create (404 identity_deployment_off)', async () => {
  expect(h.config.identityDeployerKey).toBeUndefined();
  const fresh = privateKeyToAccount(generatePrivateKey());
  const { agent, challenge } = await signInToAccount(h.issuer, fresh);
  expect(challenge.identity).toBeNull();
  expect(await agent.getJson(`${h.issuer}/account/identity`)).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'wallet_without_identity' } });
  expect(await agent.postJson(`${h.issuer}/account/identity`, {})).toMatchObject({
    status: 404,
    json: { error: 'not_found', reason: 'identity_deployment_off' },
  });
  expect(await h.chain.factoryIdentityOf(fresh.address)).toBe('0x0000000000000000000000000000000000000000');
});

test('the claim request form for a topic Signet does not issue is 400 claim_topic_unknown, and nothing is recorded', async () => {
  expect(h.config.claimIssuer).toBeUndefined();
  const { agent } = await signIn(owner());
  const response = await agent.fetch(`${h.issuer}/account/claims/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'topic=kyc',
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: 'invalid_request', reason: 'claim_topic_unknown', previous_reason: 'claim_topic_not_issued' });
  expect(await h.store.indexMembers(keys.claimRequests())).toEqual([]);
});
