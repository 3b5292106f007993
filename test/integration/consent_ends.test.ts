// When the chain says a wallet may no longer sign for an identity, what that wallet signed
// ends: a website's refresh reads the key live and fails at once (the safety net behind the
// chain watcher), and the watcher's handler ends every login grant and access grant the wallet
// signed, while grants signed by the identity's other wallets stand. Real Redis and anvil; the
// key is removed by a transaction from the management wallet, not by calling Signet.
import * as oidc from 'openid-client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { KeyPurpose, keyOf } from '../../src/infra/chain/contracts.js';
import { addKey, removeKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { jsonApi } from '../support/json_api.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;
/** Where a log would be in the chain: the handlers do not depend on it. */
const PLACE = { blockNumber: 1n, transactionHash: `0x${'00'.repeat(32)}` as const, logIndex: 0 };
let analyticsKey: string;
const api = jsonApi(() => h.issuer);

beforeAll(async () => {
  h = await startSignet({ clients: [WEBSITE, ANALYTICS] });
  analyticsKey = (await h.signet.apiKeys.create('analytics', 'consent ends')).key;
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** An identity whose owner (MANAGEMENT) added a second wallet with an ACTION key, funded to sign nothing on chain. */
async function identityWithSecondWallet(index: number) {
  const owner = h.chain.accounts[index]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const phone = privateKeyToAccount(generatePrivateKey());
  await addKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  return { owner, identity, phone };
}

async function lastingGrant(identity: `0x${string}`, signer: { signMessage(args: { message: string }): Promise<`0x${string}`> }) {
  const request = await api('POST', `/identities/${identity}/profile/access-requests`, { key: analyticsKey, body: { kind: 'persistent', fields: ['email'] } });
  const signature = await signer.signMessage({ message: request.json.challenge as string });
  expect((await api('POST', `/access-grants/${request.json.id}/validations`, { body: { signature } })).status).toBe(200);
  return request.json.id as string;
}

test("a refresh reads the signing wallet's key live: removed on chain, the refresh fails and the grant is gone; the other wallet's login stands", async () => {
  const { owner, identity, phone } = await identityWithSecondWallet(0);
  const byPhone = await startLogin(h.issuer, WEBSITE, { scope: 'openid email offline_access' });
  const phoneLogin = await logIn(byPhone, phone, { identity });
  const byOwner = await startLogin(h.issuer, WEBSITE, { scope: 'openid email offline_access' });
  const ownerLogin = await logIn(byOwner, owner);
  // Both refresh while both keys stand.
  const refreshed = await oidc.refreshTokenGrant(byPhone.config, phoneLogin.tokens.refresh_token!);

  await removeKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  await expect(oidc.refreshTokenGrant(byPhone.config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  // The grant went with the refusal: its access token stops too.
  await expect(oidc.fetchUserInfo(byPhone.config, refreshed.access_token, oidc.skipSubjectCheck)).rejects.toMatchObject({ status: 401 });
  const stillOwner = await oidc.refreshTokenGrant(byOwner.config, ownerLogin.tokens.refresh_token!);
  expect(stillOwner.access_token).toEqual(expect.any(String));
});

test('the key-removed event ends every grant the wallet signed, login and access grant alike, with the reason; the others stand', async () => {
  const { owner, identity, phone } = await identityWithSecondWallet(1);
  const byPhone = await startLogin(h.issuer, WEBSITE, { scope: 'openid email' });
  const phoneLogin = await logIn(byPhone, phone, { identity });
  const phoneGrant = await lastingGrant(identity, phone);
  const ownerGrant = await lastingGrant(identity, owner);
  await removeKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);

  // What the chain watcher calls on the KeyRemoved log; twice, as a watcher that re-reads its range would.
  const event = { identity, key: keyOf(phone.address), purpose: KeyPurpose.ACTION, keyType: 1n, ...PLACE };
  await h.signet.chainConsentEnds.onKeyRemoved(event);
  await h.signet.chainConsentEnds.onKeyRemoved(event);

  await expect(oidc.fetchUserInfo(byPhone.config, phoneLogin.tokens.access_token, oidc.skipSubjectCheck)).rejects.toMatchObject({ status: 401 });
  const ended = await api('GET', `/access-grants/${phoneGrant}`, { key: analyticsKey });
  expect(ended.json).toMatchObject({ status: 'revoked', revoked_reason: 'key_removed', revoked_at: expect.any(String) });
  expect((await api('GET', `/access-grants/${ownerGrant}`, { key: analyticsKey })).json.status).toBe('active');
  expect((await api('GET', `/identities/${identity}/profile`, { key: analyticsKey })).status).toBe(200);
});

test('a purpose removed while another stays ends nothing', async () => {
  const { owner, identity, phone } = await identityWithSecondWallet(2);
  await addKey(h.chain.as(owner), identity, phone.address, KeyPurpose.MANAGEMENT);
  const byPhone = await startLogin(h.issuer, WEBSITE, { scope: 'openid email offline_access' });
  const phoneLogin = await logIn(byPhone, phone, { identity });
  await removeKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  await h.signet.chainConsentEnds.onKeyRemoved({ identity, key: keyOf(phone.address), purpose: KeyPurpose.ACTION, keyType: 1n, ...PLACE });
  const refreshed = await oidc.refreshTokenGrant(byPhone.config, phoneLogin.tokens.refresh_token!);
  expect(refreshed.access_token).toEqual(expect.any(String));
});
