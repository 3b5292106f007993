// The whole of "the chain ends consent", as a website sees it, with the default watcher settings
// (a poll a second, no confirmations): the owner removes a wallet's key by a transaction of their
// management wallet, and within 5 s the website that wallet logged in to gets a back-channel
// logout token and a CAEP session-revoked event (and credential-change), both verified with jose
// against Signet's JWKS, and its refresh fails; the login of the owner's other wallet stands.
// An owner's revocation and erasure are told the same way. Real Redis, anvil, openid-client.
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ClientConfig } from '../../src/config/config.js';
import { subjectOf } from '../../src/domain/identity/subject.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey, removeKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { CHAIN_END_MS } from '../support/bounds.js';
import { type Json, jsonApi } from '../support/json_api.js';
import { kycIssuedBySignet } from '../support/kyc_claims.js';
import { discover, logIn, startLogin } from '../support/login_driver.js';
import { type ReceivedRequest, type SignalReceiver, startSignalReceiver } from '../support/signal_receiver.js';
import { type Harness, startSignet } from '../support/signet_harness.js';
import { waitFor } from '../support/wait_until.js';

const BACKCHANNEL_LOGOUT = 'http://schemas.openid.net/event/backchannel-logout';
const SESSION_REVOKED = 'https://schemas.openid.net/secevent/caep/event-type/session-revoked';
const CREDENTIAL_CHANGE = 'https://schemas.openid.net/secevent/caep/event-type/credential-change';
const BOUND_MS = CHAIN_END_MS;
const KYC = 1;
const ADMIN_TOKEN = 'admin-token-for-the-chain-ends-consent-tests';

let h: Harness;
let logouts: SignalReceiver;
let events: SignalReceiver;
const api = jsonApi(() => h.issuer);
let jwks: ReturnType<typeof createRemoteJWKSet>;

/** A website that wants logout tokens with `sid`, and SSF events about its users. */
const SHOP = (logoutUri: string): ClientConfig => ({
  client_id: 'shop',
  client_secret: 'shop-secret-value',
  client_name: 'Shop',
  redirect_uris: ['https://shop.example/callback'],
  post_logout_redirect_uris: [],
  grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
  token_endpoint_auth_method: 'client_secret_basic',
  backchannel_logout_uri: logoutUri,
  backchannel_logout_session_required: true,
});

beforeAll(async () => {
  [logouts, events] = await Promise.all([startSignalReceiver(200), startSignalReceiver(202)]);
  // The SSF receiver is on loopback: private endpoints allowed, as in development.
  h = await startSignet({
    clients: [SHOP(logouts.url)],
    watchChain: true,
    configure: (chain) => ({
      webhooks: { allowPrivate: true },
      ...kycIssuedBySignet(chain),
      adminToken: ADMIN_TOKEN,
    }),
  });
  jwks = createRemoteJWKSet(new URL(`${h.issuer}/jwks`));
  const config = await discover(h.issuer, SHOP(logouts.url));
  const token = (await oidc.clientCredentialsGrant(config, { scope: 'ssf' })).access_token;
  const stream = await api('POST', '/ssf/streams', {
    token,
    body: {
      delivery: { method: 'urn:ietf:rfc:8935', endpoint_url: events.url },
      events_requested: [SESSION_REVOKED, CREDENTIAL_CHANGE, `${h.issuer}/event-types/claim-ended`],
    },
  });
  expect(stream.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await h.close();
  await Promise.all([logouts.close(), events.close()]);
});

const logoutToken = (request: ReceivedRequest) => new URLSearchParams(request.body).get('logout_token')!;
const verifiedLogout = async (request: ReceivedRequest) =>
  (await jwtVerify(logoutToken(request), jwks, { issuer: h.issuer, audience: 'shop', typ: 'logout+jwt' })).payload;
const verifiedEvent = async (request: ReceivedRequest) =>
  (await jwtVerify(request.body, jwks, { issuer: h.issuer, audience: 'shop', typ: 'secevent+jwt' })).payload;

/** The first request after `from` (an index into the receiver's requests) that holds what `match` wants (`what`). */
function arrival(
  what: string,
  receiver: SignalReceiver,
  from: number,
  verify: (request: ReceivedRequest) => Promise<JWTPayload>,
  match: (payload: JWTPayload) => boolean,
) {
  return waitFor(
    `${what} arrives`,
    async () => {
      for (const request of receiver.requests.slice(from)) {
        const payload = await verify(request);
        if (match(payload)) return { payload, at: request.at };
      }
      return undefined;
    },
    { timeoutMs: BOUND_MS + 5000, everyMs: 20, detail: () => `${receiver.requests.length - from} requests came, none of them it` },
  );
}

test('a key removed on chain: within 5 s the website gets its logout token and session-revoked event, and its refresh fails', async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const phone = privateKeyToAccount(generatePrivateKey());
  await addKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  const sub = subjectOf(h.chain.anvil.chainId, identity);
  const byPhone = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid email offline_access' });
  const phoneLogin = await logIn(byPhone, phone, { identity });
  const sid = phoneLogin.tokens.claims()!.sid as string;
  expect(sid).toEqual(expect.any(String));
  const byOwner = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid email offline_access' });
  const ownerLogin = await logIn(byOwner, owner);
  const [logoutsBefore, eventsBefore] = [logouts.requests.length, events.requests.length];

  await removeKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  const mined = Date.now();
  const logout = await arrival("the logout token of the phone's session", logouts, logoutsBefore, verifiedLogout, (payload) => payload.sid === sid);
  const revoked = await arrival('the session-revoked event', events, eventsBefore, verifiedEvent, (payload) => SESSION_REVOKED in (payload.events as Json));
  const changed = await arrival('the credential-change event', events, eventsBefore, verifiedEvent, (payload) => CREDENTIAL_CHANGE in (payload.events as Json));
  console.info(
    `chain ends consent: key removed (transaction mined) → logout token ${logout.at - mined} ms, session-revoked ${revoked.at - mined} ms, credential-change ${changed.at - mined} ms (default watcher: poll 1 s, 0 confirmations)`,
  );
  expect(logout.payload).toMatchObject({ sub, sid, events: { [BACKCHANNEL_LOGOUT]: {} } });
  expect(logout.payload.nonce).toBeUndefined();
  expect(revoked.payload).toMatchObject({ sub_id: { format: 'iss_sub', iss: h.issuer, sub } });
  expect(changed.payload).toMatchObject({ sub_id: { format: 'iss_sub', iss: h.issuer, sub } });
  expect(Math.max(logout.at, revoked.at) - mined).toBeLessThanOrEqual(BOUND_MS);

  // The website's refresh is refused, its access token too; the owner's own login stands.
  await expect(oidc.refreshTokenGrant(byPhone.config, phoneLogin.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  await expect(oidc.fetchUserInfo(byPhone.config, phoneLogin.tokens.access_token, sub)).rejects.toMatchObject({ status: 401 });
  expect((await oidc.refreshTokenGrant(byOwner.config, ownerLogin.tokens.refresh_token!)).access_token).toEqual(expect.any(String));
  // Exactly one logout token for that login, whatever else re-read the chain.
  const forSid = await Promise.all(logouts.requests.slice(logoutsBefore).map(verifiedLogout));
  expect(forSid.filter((payload) => payload.sid === sid)).toHaveLength(1);
}, 30_000);

test('the owner revokes the login, then erases their data: the website is told each time', async () => {
  const owner = h.chain.accounts[1]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  const first = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid email' });
  const firstLogin = await logIn(first, owner);
  const second = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid email' });
  const secondLogin = await logIn(second, owner);
  const before = logouts.requests.length;
  const { agent } = await signInToAccount(h.issuer, owner);
  const firstReceipt = (await h.signet.receipts.listFor(identity)).find((receipt) => receipt.message === firstLogin.signed.message)!;
  expect((await api('POST', `/access-grants/${firstReceipt.grant_id}/revocations`, { agent })).status).toBe(200);
  const revoked = await arrival('the logout token of the revoked login', logouts, before, verifiedLogout, () => true);
  expect(revoked.payload).toMatchObject({ sub: subjectOf(h.chain.anvil.chainId, identity), sid: firstLogin.tokens.claims()!.sid });

  const challenge = await api('POST', '/account/erasure/challenge', { agent });
  const message = challenge.json.challenge as string;
  const erased = await api('POST', '/account/erasure', { agent, body: { signature: await owner.signMessage({ message }), message } });
  expect(erased.status).toBe(202);
  const sids = new Set([firstLogin.tokens.claims()!.sid, secondLogin.tokens.claims()!.sid]);
  await logouts.waitFor('a logout token for each login', (requests) => requests.length >= before + 2, BOUND_MS);
  const told = await Promise.all(logouts.requests.slice(before).map(verifiedLogout));
  expect(new Set(told.map((payload) => payload.sid))).toEqual(sids);
}, 30_000);

test('a claim the website was given is revoked by its issuer: the website gets a claim-ended event within 5 s', async () => {
  const owner = h.chain.accounts[2]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  // Signet's issuer key may add claims to the identity as a CLAIM key.
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const issued = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ identity, topic: 'kyc', data: { level: 'basic' } }),
  });
  expect(issued.status).toBe(201);
  const claimId = ((await issued.json()) as Json).claim_id as string;
  const login = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid claim:kyc' });
  await logIn(login, owner);
  const before = events.requests.length;

  const revoked = await fetch(`${h.issuer}/admin/claims/revocations`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ identity, claim_id: claimId }),
  });
  expect(revoked.status).toBe(200);
  const mined = Date.now();
  const ended = await arrival(
    'the claim-ended event',
    events,
    before,
    verifiedEvent,
    (payload) => `${h.issuer}/event-types/claim-ended` in (payload.events as Json),
  );
  console.info(`chain ends consent: claim revoked by its issuer (transaction mined) → claim-ended event ${ended.at - mined} ms`);
  expect(ended.at - mined).toBeLessThanOrEqual(BOUND_MS);
  expect(ended.payload).toMatchObject({ sub_id: { format: 'iss_sub', iss: h.issuer, sub: subjectOf(h.chain.anvil.chainId, identity) } });
  expect((ended.payload.events as Json)[`${h.issuer}/event-types/claim-ended`]).toMatchObject({ claim_id: claimId, topic: KYC, change: 'revoked' });
}, 30_000);
