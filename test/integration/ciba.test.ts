// OpenID CIBA in poll mode with openid-client: a standard client asks for a login by the
// identity's address, the owner approves (signs) or denies it from the Signet inbox.
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { discover } from '../support/login_driver.js';
import { basicAuth, type Harness, KIOSK, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';

let h: Harness;
let owner: LocalAccount;
let identity: Address;

beforeAll(async () => {
  h = await startSignet({ clients: [WEBSITE, KIOSK] });
  owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
}, 60_000);

afterAll(async () => {
  await h.close();
});

const signIn = async () => (await signInToAccount(h.issuer, owner)).agent;

// The engine asks clients to wait `interval` seconds between polls; the tests poll at once.
const noWait = (response: oidc.BackchannelAuthenticationResponse) => ({ ...response, interval: 0 });

test('the owner approves from the inbox: the client polls and gets tokens for exactly the fields asked', async () => {
  const config = await discover(h.issuer, KIOSK);
  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid profile email', login_hint: identity, binding_message: 'W4SCT' });
  expect(started.auth_req_id).toEqual(expect.any(String));

  const agent = await signIn();
  const inbox = await agent.getJson(`${h.issuer}/account/inbox`);
  const [request] = inbox.json.backchannel as { id: string; client_name: string; fields: string[]; challenge: string; binding_message: string }[];
  expect(request).toMatchObject({
    id: started.auth_req_id,
    client_name: 'Bank Kiosk',
    fields: ['given_name', 'family_name', 'website', 'email'],
    binding_message: 'W4SCT',
  });
  expect(request!.challenge).toContain('Bank Kiosk asks you to sign in with your identity and share: first name, last name, website, email address.');
  expect(request!.challenge).toContain('Binding message: W4SCT');

  const approved = await agent.postJson(`${h.issuer}/account/backchannel/${request!.id}/approvals`, {
    signature: await owner.signMessage({ message: request!.challenge }),
  });
  expect(approved.status).toBe(200);
  expect(approved.json).toMatchObject({ id: request!.id, status: 'approved' });

  const tokens = await oidc.pollBackchannelAuthenticationGrant(config, noWait(started));
  const sub = `eip155:31337:${identity}`;
  expect(tokens.claims()!.sub).toBe(sub);
  expect(await oidc.fetchUserInfo(config, tokens.access_token, sub)).toEqual({ sub, given_name: 'Ada', email: 'ada@example.org' });

  const twice = await agent.postJson(`${h.issuer}/account/backchannel/${request!.id}/approvals`, { signature: '0x00' });
  expect(twice).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'backchannel_request_not_found' } });
});

test('the owner denies: the client gets access_denied', async () => {
  const config = await discover(h.issuer, KIOSK);
  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid email', login_hint: `eip155:31337:${identity}` });
  const agent = await signIn();
  const denied = await agent.postJson(`${h.issuer}/account/backchannel/${started.auth_req_id}/denials`, {});
  expect(denied.json).toEqual({ id: started.auth_req_id, status: 'denied' });
  await expect(oidc.pollBackchannelAuthenticationGrant(config, noWait(started))).rejects.toMatchObject({ error: 'access_denied' });
});

test('refusals: an unknown identity, a signature by an unlinked wallet', async () => {
  const config = await discover(h.issuer, KIOSK);
  await expect(oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: h.chain.accounts[5]!.address })).rejects.toMatchObject({
    error: 'unknown_user_id',
    error_description: 'the identity is not registered with the IdFactory',
  });

  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: identity });
  const agent = await signIn();
  const inbox = await agent.getJson(`${h.issuer}/account/inbox`);
  const request = (inbox.json.backchannel as { id: string; challenge: string }[]).find((r) => r.id === started.auth_req_id)!;
  const stranger = h.chain.accounts[5]!;
  const refused = await agent.postJson(`${h.issuer}/account/backchannel/${request.id}/approvals`, {
    signature: await stranger.signMessage({ message: request.challenge }),
  });
  expect(refused).toMatchObject({ status: 403, json: { error: 'access_denied', reason: 'wallet_not_linked' } });
});

test('a request waits in the inbox as long as the engine keeps it (600 s), not a second', async () => {
  const config = await discover(h.issuer, KIOSK);
  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: identity });
  const left = await h.store.ttl(keys.backchannelRequest(started.auth_req_id));
  expect(left).toBeGreaterThanOrEqual(590);
  expect(left).toBeLessThanOrEqual(600);
});

/** The kiosk's own form posts to the engine (/backchannel, /token), with the JSON answer. */
async function kioskPost(path: string, form: Record<string, string>) {
  const response = await fetch(`${h.issuer}${path}`, {
    method: 'POST',
    headers: { authorization: basicAuth(KIOSK), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

test("the engine's own error answers carry a reason: the OAuth error code", async () => {
  const unknown = await kioskPost('/backchannel', { scope: 'openid', login_hint: h.chain.accounts[5]!.address });
  expect(unknown).toMatchObject({ status: 400, json: { error: 'unknown_user_id', reason: 'unknown_user_id' } });
  const started = await kioskPost('/backchannel', { scope: 'openid', login_hint: identity });
  expect(started.status).toBe(200);
  const pending = await kioskPost('/token', { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: started.json.auth_req_id as string });
  expect(pending).toMatchObject({ status: 400, json: { error: 'authorization_pending', reason: 'authorization_pending' } });
});

test('concurrent decisions on one request: exactly one wins, the others are told it was decided or is gone', async () => {
  const config = await discover(h.issuer, KIOSK);
  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid email', login_hint: identity });
  const agent = await signIn();
  const inbox = await agent.getJson(`${h.issuer}/account/inbox`);
  const request = (inbox.json.backchannel as { id: string; challenge: string }[]).find((r) => r.id === started.auth_req_id)!;
  const signature = await owner.signMessage({ message: request.challenge });
  const url = (decision: string) => `${h.issuer}/account/backchannel/${request.id}/${decision}`;
  const answers = await Promise.all([
    ...Array.from({ length: 10 }, () => agent.postJson(url('approvals'), { signature })),
    ...Array.from({ length: 10 }, () => agent.postJson(url('denials'), {})),
  ]);
  const winners = answers.filter((answer) => answer.status === 200);
  expect(winners).toHaveLength(1);
  const losers = answers.filter((answer) => answer.status !== 200);
  // Those that found the request before the winner took it are told it was decided.
  expect(losers.some((loser) => loser.json.reason === 'backchannel_request_decided')).toBe(true);
  for (const loser of losers) {
    expect([
      { status: 409, reason: 'backchannel_request_decided' },
      { status: 404, reason: 'backchannel_request_not_found' },
    ]).toContainEqual({ status: loser.status, reason: loser.json.reason });
  }
  // The client gets exactly what the winner decided.
  const poll = oidc.pollBackchannelAuthenticationGrant(config, noWait(started));
  if (winners[0]!.json.status === 'approved') await expect(poll).resolves.toMatchObject({ access_token: expect.any(String) });
  else await expect(poll).rejects.toMatchObject({ error: 'access_denied' });
});

test("denials: only the signed-in owner's own requests; another owner's is answered as if it did not exist", async () => {
  const config = await discover(h.issuer, KIOSK);
  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: identity });
  const url = `${h.issuer}/account/backchannel/${started.auth_req_id}/denials`;

  const anonymous = await new UserAgent().postJson(url, {});
  expect(anonymous).toMatchObject({ status: 401, json: { error: 'invalid_token', reason: 'session_missing' } });

  const other = h.chain.accounts[3]!;
  await h.chain.createIdentityFor(other.address);
  const stranger = (await signInToAccount(h.issuer, other)).agent;
  const refused = await stranger.postJson(url, {});
  expect(refused).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'backchannel_request_not_found' } });

  // Still waiting for its owner.
  const denied = await (await signIn()).postJson(url, {});
  expect(denied).toMatchObject({ status: 200, json: { id: started.auth_req_id, status: 'denied' } });
});
