// OpenID CIBA in poll mode with openid-client: a standard client asks for a login by the
// identity's address, the owner approves (signs) or denies it from the Signet inbox.
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { keys } from '../../src/store/keys.js';
import { discover } from '../support/login_driver.js';
import { type Harness, KIOSK, startSignet, WEBSITE } from '../support/signet_harness.js';
import { signInToAccount } from '../support/account_sign_in.js';

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
  expect(request).toMatchObject({ id: started.auth_req_id, client_name: 'Bank Kiosk', fields: ['given_name', 'family_name', 'website', 'email'], binding_message: 'W4SCT' });
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
  expect(twice).toMatchObject({ status: 404, json: { error: 'not_found', error_description: `no backchannel login request ${request!.id} is waiting` } });
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
  await expect(
    oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: h.chain.accounts[5]!.address }),
  ).rejects.toMatchObject({ error: 'unknown_user_id', error_description: 'the identity is not registered with the IdFactory' });

  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: identity });
  const agent = await signIn();
  const inbox = await agent.getJson(`${h.issuer}/account/inbox`);
  const request = (inbox.json.backchannel as { id: string; challenge: string }[]).find((r) => r.id === started.auth_req_id)!;
  const stranger = h.chain.accounts[5]!;
  const refused = await agent.postJson(`${h.issuer}/account/backchannel/${request.id}/approvals`, {
    signature: await stranger.signMessage({ message: request.challenge }),
  });
  expect(refused).toMatchObject({
    status: 403,
    json: { error: 'access_denied', error_description: `wallet ${stranger.address} holds no MANAGEMENT or ACTION key on identity ${identity}` },
  });
});

test('a request waits in the inbox as long as the engine keeps it (600 s), not a second', async () => {
  const config = await discover(h.issuer, KIOSK);
  const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: identity });
  const left = await h.store.ttl(keys.backchannelRequest(started.auth_req_id));
  expect(left).toBeGreaterThanOrEqual(590);
  expect(left).toBeLessThanOrEqual(600);
});
