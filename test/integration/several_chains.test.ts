// One Signet, three chains (CHAINS): three anvils with different chain ids, each with the real
// ONCHAINID contracts deployed the same way (so the IdFactory's CREATE2 gives one wallet's
// identity the same address on each), logins through openid-client on each chain, a wallet
// with identities on two chains choosing one, a Signet claim copied onto the same-address
// identity of another chain refused, and one chain's anvil stopped while the others go on.

import * as oidc from 'openid-client';
import type { Address, Hex, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Reason } from '../../src/base/reasons.js';
import { createProfileStore } from '../../src/domain/profile/profile.js';
import { READINESS_FRESH_MS } from '../../src/features/health/readiness_probe.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { send } from '../../src/infra/chain/chain_writes.js';
import { claimIssuerAbi, identityAbi, KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey, removeKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { keys } from '../../src/infra/store/keys.js';
import { chainRequestCounter } from '../support/chain_requests.js';
import { jsonApi } from '../support/json_api.js';
import { discover, logIn, requestChallenge, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { ANALYTICS, basicAuth, type Harness, KIOSK, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { TestChain } from '../support/test_chain.js';
import { UserAgent } from '../support/user_agent.js';
import { waitFor, waitUntil } from '../support/wait_until.js';
import { startWebhookReceiver } from '../support/webhook_receiver.js';

const ADMIN_TOKEN = 'admin-token-for-the-several-chains-tests';
const FIRST = 31337;
const SECOND = 31338;
const THIRD = 31339;
const KYC = 1;

let h: Harness;
const metrics = createMetrics({ processMetrics: false });
let second: TestChain;
let analyticsKey: string;
const chainRequests = chainRequestCounter([FIRST, SECOND, THIRD]);
/** The round trips `work` made on each chain. */
const roundTripsOf = async (work: () => Promise<unknown>) => (await chainRequests.during(work)).trips;
const api = jsonApi(() => h.issuer);

beforeAll(async () => {
  h = await startSignet({
    otherChains: [SECOND, THIRD],
    clients: [WEBSITE, ANALYTICS, KIOSK],
    metrics,
    chainClient: (chain, rpcUrl) =>
      createChainClient(rpcUrl, chain.anvil.chainId, { pollingInterval: 50, observe: chainRequests.observe(chain.anvil.chainId) }),
    configure: (chain) => ({
      claims: {
        topics: [{ name: 'kyc', topic: KYC, description: 'Your identity was checked (KYC)' }],
        // The same ClaimIssuer address on every chain (deployed alike): trusted on each, by name.
        trustedIssuers: [FIRST, SECOND, THIRD].map((chain_id) => ({ address: chain.suite.claimIssuer, topics: ['kyc'], chain_id })),
      },
      claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
      adminToken: ADMIN_TOKEN,
      // The owner's webhook receiver runs on this machine.
      webhooks: { allowPrivate: true },
      // Signet pays for owners' identities, on the chain the owner signs in on.
      identityDeployerKey: DEPLOYER_KEY,
      // The watchers' rounds are run by the tests (not started): every event counts at once.
      chainWatch: { confirmations: 0 },
    }),
  });
  second = h.otherChains[0]!;
  analyticsKey = (await h.signet.apiKeys.create('analytics', 'tests')).key;
}, 120_000);

afterAll(async () => {
  await h.close();
});

const refused = (status: number, reason: Reason) => ({ status, json: expect.objectContaining({ reason }) });

async function admin(path: string, body: unknown) {
  const response = await fetch(`${h.issuer}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, location: response.headers.get('location') };
}

/** An account session of `owner` on a chain. */
async function signInOn(owner: LocalAccount, chain_id: number): Promise<UserAgent> {
  const agent = new UserAgent();
  const challenge = await agent.postJson(`${h.issuer}/account/challenge`, { address: owner.address, chain_id });
  const message = challenge.json.challenge as string;
  await agent.postJson(`${h.issuer}/account/session`, { signature: await owner.signMessage({ message }), message });
  return agent;
}

/** A fresh wallet (anvil's accounts are all in use), funded on the first two chains. */
async function fundedWallet(): Promise<LocalAccount> {
  const owner = privateKeyToAccount(generatePrivateKey());
  await Promise.all(
    [h.chain, second].map((chain) => chain.client.request({ method: 'anvil_setBalance', params: [owner.address, '0x56BC75E2D63100000'] } as never)),
  );
  return owner;
}

/** The same wallet's identity on a chain, with the same salt everywhere: the same address. */
async function identityOn(chain: TestChain, owner: LocalAccount, salt: string): Promise<Address> {
  const identity = await chain.createIdentityFor(owner.address, salt);
  // Signet's key (the deployer's) may add claims there.
  await addKey(chain.as(owner), identity, chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  return identity;
}

test('the configured chains: one client each, the first the one a bare address means', () => {
  expect(h.config.chains?.map((chain) => chain.chain_id)).toEqual([FIRST, SECOND, THIRD]);
  expect(h.chain.suite.identityFactory).toBe(second.suite.identityFactory);
});

test('a wallet with an identity on the second chain only is found there: the challenge and the subject name that chain', async () => {
  const owner = h.chain.accounts[1]!;
  const identity = await identityOn(second, owner, 'only-second');
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { tokens, signed } = await logIn(login, owner);
  expect(signed.answer).toMatchObject({ identity, chain_id: SECOND, chain_name: `Test chain ${SECOND}` });
  expect(signed.message).toContain(`Chain ID: ${SECOND}`);
  expect(signed.message).toContain(`eip155:${SECOND}:${identity}`);
  const sub = `eip155:${SECOND}:${identity}`;
  expect(tokens.claims()!.sub).toBe(sub);
  // userinfo and a refresh (the signing wallet's key is read live on the second chain).
  const info = await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
  expect(info.sub).toBe(sub);
  const refreshed = await oidc.refreshTokenGrant(login.config, tokens.refresh_token!);
  expect(refreshed.claims()!.sub).toBe(sub);
});

test('a wallet with identities on two chains is answered the choice; it logs in on each, two subjects', async () => {
  const owner = h.chain.accounts[2]!;
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'both'), identityOn(second, owner, 'both')]);
  // CREATE2 through the IdFactory: the same address on both chains, not the same identity.
  expect(onSecond).toBe(onFirst);
  await h.signet.profiles.set(onFirst, { given_name: 'First-chain Ada' });

  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  const choice = await requestChallenge(login, { address: owner.address });
  expect(choice.status).toBe(200);
  expect(choice.json).toEqual({
    choose: [
      { chain_id: FIRST, chain_name: `Test chain ${FIRST}`, identity: onFirst },
      { chain_id: SECOND, chain_name: `Test chain ${SECOND}`, identity: onSecond },
    ],
  });
  const onSecondChain = await logIn(login, owner, { chain_id: SECOND });
  expect(onSecondChain.signed.message).toContain(`Chain ID: ${SECOND}`);
  expect(onSecondChain.tokens.claims()!.sub).toBe(`eip155:${SECOND}:${onSecond}`);
  // The first chain's identity's profile is not the second's, though the address is the same.
  expect(onSecondChain.tokens.claims()!.given_name).toBeUndefined();

  const again = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  const onFirstChain = await logIn(again, owner, { chain_id: FIRST });
  expect(onFirstChain.tokens.claims()!.sub).toBe(`eip155:${FIRST}:${onFirst}`);
  expect(onFirstChain.tokens.claims()!.given_name).toBe('First-chain Ada');
  // The second chain's receipt is indexed under its chain-qualified identity.
  expect(await h.store.indexMembers(keys.consentsOf(`eip155:${SECOND}:${onSecond}`))).toHaveLength(1);
});

test('a login naming its chain reads only that chain; one looked up on every chain costs one read on each other chain and nothing more on its own', async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await identityOn(h.chain, owner, 'round-trips');
  const named = await roundTripsOf(async () => logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid' }), owner, { chain_id: FIRST }));
  expect(named[FIRST]).toBeGreaterThan(0);
  expect(named).toEqual({ [FIRST]: named[FIRST], [SECOND]: 0, [THIRD]: 0 });
  const lookedUp = await roundTripsOf(async () => {
    const { signed } = await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid' }), owner);
    expect(signed.answer).toMatchObject({ identity, chain_id: FIRST });
  });
  // The first chain's IdFactory read replaces the one a one-chain login makes: the same count there.
  expect(lookedUp).toEqual({ [FIRST]: named[FIRST], [SECOND]: 1, [THIRD]: 1 });
});

test("a signature over the text with another chain's id is refused; an unknown chain id too", async () => {
  const owner = h.chain.accounts[3]!;
  const identity = await identityOn(second, owner, 'altered');
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { answer } = await signChallenge(login, owner, { chain_id: SECOND, identity });
  const altered = (answer.challenge as string).replace(`Chain ID: ${SECOND}`, `Chain ID: ${FIRST}`);
  const signature = await owner.signMessage({ message: altered });
  expect(await submitSignature(login, { signature, message: altered })).toMatchObject(refused(400, 'message_mismatch'));
  expect(await requestChallenge(login, { address: owner.address, chain_id: 999 })).toMatchObject(refused(400, 'chain_not_configured'));
});

test('a Signet claim copied onto the same-address identity of another chain is not confirmed; one issued there is', async () => {
  const owner = h.chain.accounts[4]!;
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'claims'), identityOn(second, owner, 'claims')]);
  const issued = await admin('/claims', { identity: onFirst, topic: 'kyc', data: { level: 'basic' }, chain_id: FIRST });
  expect(issued.status).toBe(201);
  const claim = issued.json.claim as { topic: number; scheme: number; issuer: Address; signature: Hex; data: Hex; uri: string };
  expect(issued.json.added).toBe(true);

  // The owner copies it, signature and all, onto the identity at the same address on the second chain.
  await send(second.as(owner), {
    address: onSecond,
    abi: identityAbi,
    functionName: 'addClaim',
    args: [BigInt(claim.topic), BigInt(claim.scheme), claim.issuer, claim.signature, claim.data, claim.uri],
  });
  const statusOn = async (chainId: number) => {
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
    const answer = await requestChallenge(login, { address: owner.address, chain_id: chainId });
    expect(answer.status).toBe(200);
    return (answer.json.claims as { status: string }[]).map((each) => each.status);
  };
  expect(await statusOn(FIRST)).toEqual(['valid']);
  expect(await statusOn(SECOND)).toEqual(['not_confirmed_by_issuer']);

  // Issued on the second chain by Signet (its document names that chain): valid there.
  const there = await admin('/claims', { identity: onSecond, topic: 'kyc', data: { level: 'basic' }, chain_id: SECOND });
  expect(there.status).toBe(201);
  expect(there.location).toBe(`${h.issuer}/identities/eip155:${SECOND}:${onSecond}/claims/${there.json.claim_id}`);
  expect(await statusOn(SECOND)).toEqual(['valid']);
  expect(await statusOn(FIRST)).toEqual(['valid']);
});

test("an access grant on the second chain: the path names the chain, the grant and its reads are that chain's identity's", async () => {
  const owner = h.chain.accounts[6]!;
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'grants'), identityOn(second, owner, 'grants')]);
  await h.signet.profiles.set(onFirst, { given_name: 'First-chain Al' });
  // The second chain's profile, under its CAIP-10 key (docs/data.md).
  await createProfileStore(h.store, (identity) => `eip155:${SECOND}:${identity}`).set(onSecond, { given_name: 'Second-chain Bo' });
  const path = `/identities/eip155:${SECOND}:${onSecond}/profile`;

  const request = await api('POST', `${path}/access-requests`, { key: analyticsKey, body: { kind: 'immediate', fields: ['given_name'] } });
  expect(request.status).toBe(201);
  const challenge = request.json.challenge as string;
  expect(challenge).toContain(`Identity: eip155:${SECOND}:${onSecond}`);
  expect(challenge).toContain(`Resource: ${h.issuer}${path}`);
  const validated = await api('POST', `/access-grants/${request.json.id}/validations`, {
    body: { signature: await owner.signMessage({ message: challenge }) },
  });
  expect(validated.status).toBe(200);
  const token = validated.json.access_token as string;

  // The bare address is the first chain's identity: another resource.
  expect(await api('GET', `/identities/${onFirst}/profile`, { token })).toMatchObject(refused(403, 'token_scope_insufficient'));
  expect(await api('GET', path, { token })).toMatchObject({ status: 200, json: { fields: ['given_name'], values: { given_name: 'Second-chain Bo' } } });
  // The first chain named is the bare address; a chain not served is refused.
  expect(await api('GET', `/identities/eip155:${FIRST}:${onFirst}/profile`)).toMatchObject({
    status: 200,
    json: { identity: onFirst, fields: ['given_name'] },
  });
  expect(await api('GET', `/identities/eip155:5:${onFirst}/profile`)).toMatchObject(refused(400, 'chain_not_configured'));
  // The grant is listed under the second chain's identity, not the first's.
  expect(await h.store.indexMembers(keys.accessGrantsOfIdentity(`eip155:${SECOND}:${onSecond}`))).toEqual([request.json.id]);
  expect(await h.store.indexMembers(keys.accessGrantsOfIdentity(onFirst))).toEqual([]);
});

test("a key removed on the second chain ends that chain's login, not the first chain's at the same address (one watcher per chain)", async () => {
  const owner = h.chain.accounts[7]!;
  const phone = h.chain.accounts[8]!;
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'watch'), identityOn(second, owner, 'watch')]);
  await Promise.all([
    addKey(h.chain.as(owner), onFirst, phone.address, KeyPurpose.ACTION),
    addKey(second.as(owner), onSecond, phone.address, KeyPurpose.ACTION),
  ]);
  const onA = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const loginA = await logIn(onA, phone, { chain_id: FIRST, identity: onFirst });
  const onB = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const loginB = await logIn(onB, phone, { chain_id: SECOND, identity: onSecond });
  // A first round on each chain starts its cursor at its head.
  await h.signet.watcher.round();
  expect(await h.store.get(keys.watchCursor(SECOND))).toBeDefined();

  await removeKey(second.as(owner), onSecond, phone.address, KeyPurpose.ACTION);
  await h.signet.watcher.round();

  // The second chain's login ended (its tokens stop); the first chain's, same address and wallet, stands.
  await expect(oidc.fetchUserInfo(onB.config, loginB.tokens.access_token, `eip155:${SECOND}:${onSecond}`)).rejects.toThrow();
  const info = await oidc.fetchUserInfo(onA.config, loginA.tokens.access_token, `eip155:${FIRST}:${onFirst}`);
  expect(info.sub).toBe(`eip155:${FIRST}:${onFirst}`);
});

test('the account signs in on the chain the owner chooses: the session names it, and the key changes are prepared on that chain', async () => {
  const owner = await fundedWallet();
  const phone = privateKeyToAccount(generatePrivateKey());
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'account'), identityOn(second, owner, 'account')]);
  // The phone holds a key on the second chain's identity only.
  await addKey(second.as(owner), onSecond, phone.address, KeyPurpose.ACTION);
  const removal = { address: phone.address, purpose: 'action', action: 'remove' };

  const agent = new UserAgent();
  const choice = await agent.postJson(`${h.issuer}/account/challenge`, { address: owner.address });
  expect(choice.json).toEqual({
    choose: [
      { chain_id: FIRST, chain_name: `Test chain ${FIRST}`, identity: onFirst },
      { chain_id: SECOND, chain_name: `Test chain ${SECOND}`, identity: onSecond },
    ],
  });
  const challenge = await agent.postJson(`${h.issuer}/account/challenge`, { address: owner.address, chain_id: SECOND });
  expect(challenge.json).toMatchObject({ identity: onSecond, chain_id: SECOND, chain_name: `Test chain ${SECOND}` });
  const message = challenge.json.challenge as string;
  expect(message).toContain(`Chain ID: ${SECOND}`);
  expect(message).toContain(`eip155:${SECOND}:${onSecond}`);
  const session = await agent.postJson(`${h.issuer}/account/session`, { signature: await owner.signMessage({ message }), message });
  expect(session.json).toMatchObject({ identity: onSecond, wallet: owner.address, chain_id: SECOND });

  const prepared = await agent.postJson(`${h.issuer}/account/wallets/transactions`, removal);
  expect(prepared.status).toBe(200);
  expect(prepared.json).toMatchObject({ to: onSecond, description: `Remove the ACTION key of ${phone.address}` });
  // The owner denies a request for the second chain's identity; the accesses page lists that chain's grants only.
  await createProfileStore(h.store, (identity) => `eip155:${SECOND}:${identity}`).set(onSecond, { given_name: 'Second-chain Ed' });
  const request = await api('POST', `/identities/eip155:${SECOND}:${onSecond}/profile/access-requests`, {
    key: analyticsKey,
    body: { kind: 'immediate', fields: ['given_name'] },
  });
  expect(request.status).toBe(201);
  const accesses = await agent.fetch(`${h.issuer}/account/accesses`, { headers: { accept: 'text/html' } });
  expect(accesses.status).toBe(200);
  expect(await accesses.text()).toContain(String(request.json.id));
  const denied = await agent.postJson(`${h.issuer}/access-grants/${request.json.id}/denials`, {});
  expect(denied).toMatchObject({ status: 200, json: expect.objectContaining({ status: 'denied', chain_id: SECOND }) });

  // Signed in on the first chain, the same address is the other identity: the phone holds no key there.
  const onFirstChain = new UserAgent();
  const firstChallenge = await onFirstChain.postJson(`${h.issuer}/account/challenge`, { address: owner.address, chain_id: FIRST });
  expect(firstChallenge.json).toMatchObject({ identity: onFirst, chain_id: FIRST });
  const firstMessage = firstChallenge.json.challenge as string;
  const firstSession = await onFirstChain.postJson(`${h.issuer}/account/session`, {
    signature: await owner.signMessage({ message: firstMessage }),
    message: firstMessage,
  });
  expect(firstSession.json).toMatchObject({ identity: onFirst, chain_id: FIRST });
  expect(await onFirstChain.postJson(`${h.issuer}/account/wallets/transactions`, removal)).toMatchObject({
    status: 404,
    json: expect.objectContaining({ reason: 'key_not_held' }),
  });
  expect((await onFirstChain.getJson(`${h.issuer}/account/export`)).status).toBe(200);

  // A chain Signet does not serve.
  expect(await agent.postJson(`${h.issuer}/account/challenge`, { address: owner.address, chain_id: 5 })).toMatchObject(refused(400, 'chain_not_configured'));
});

test('a wallet with no identity signs in on the second chain and creates its identity there, not on the first', async () => {
  const owner = privateKeyToAccount(generatePrivateKey());
  const agent = new UserAgent();
  const challenge = await agent.postJson(`${h.issuer}/account/challenge`, { address: owner.address, chain_id: SECOND });
  expect(challenge.json).toMatchObject({ identity: null, chain_id: SECOND });
  const message = challenge.json.challenge as string;
  expect(message).toContain(`Chain ID: ${SECOND}`);
  const session = await agent.postJson(`${h.issuer}/account/session`, { signature: await owner.signMessage({ message }), message });
  expect(session.json).toMatchObject({ identity: null, chain_id: SECOND });

  expect([200, 202]).toContain((await agent.postJson(`${h.issuer}/account/identity`, {})).status);
  const record = await waitFor('the identity on the second chain is no longer pending', async () => {
    const { json } = await agent.getJson(`${h.issuer}/account/identity`);
    return json.status !== 'pending' && json;
  });
  expect(record).toMatchObject({ status: 'deployed', wallet: owner.address });
  const identity = record.identity as Address;
  expect(await second.factoryIdentityOf(owner.address)).toBe(identity);
  expect(await h.signet.registry.identityOf(owner.address)).toBeUndefined();
  // The session now holds the second chain's identity: its keys are read there.
  expect(await agent.getJson(`${h.issuer}/account/identity`)).toMatchObject({ status: 200 });
  const prepared = await agent.postJson(`${h.issuer}/account/wallets/transactions`, { address: owner.address, purpose: 'management', action: 'remove' });
  expect(prepared).toMatchObject(refused(409, 'last_management_key'));
});

test("the owner's data on the second chain: its history, its export and its erasure are that chain's identity's, the first chain's at the same address stands", async () => {
  const owner = await fundedWallet();
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'owner-data'), identityOn(second, owner, 'owner-data')]);
  const secondProfiles = createProfileStore(h.store, (identity) => `eip155:${SECOND}:${identity}`);
  await Promise.all([h.signet.profiles.set(onFirst, { given_name: 'First-chain Cy' }), secondProfiles.set(onSecond, { given_name: 'Second-chain Di' })]);
  // A claim Signet issued on each chain: the erasure on the second revokes that chain's only.
  const [claimOnFirst, claimOnSecond] = (await Promise.all(
    [
      { identity: onFirst, chain_id: FIRST },
      { identity: onSecond, chain_id: SECOND },
    ].map(async (target) => {
      const issued = await admin('/claims', { ...target, topic: 'kyc', data: { level: 'basic' } });
      expect(issued.status).toBe(201);
      return (issued.json.claim as { signature: Hex }).signature;
    }),
  )) as [Hex, Hex];
  const revokedOn = (chain: TestChain, signature: Hex) =>
    chain.client.readContract({ address: chain.suite.claimIssuer, abi: claimIssuerAbi, functionName: 'isClaimRevoked', args: [signature] });
  // A login on each chain: each one's history entry (the ID token's release) is its own identity's.
  await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' }), owner, { chain_id: FIRST });
  await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' }), owner, { chain_id: SECOND });
  // Each login lists its identity for its own chain's watcher only.
  const watched = async (chainId?: number) => (await h.store.indexMembers(keys.watchedIdentities(chainId))).filter((member) => member === onFirst);
  expect({ first: await watched(), second: await watched(SECOND) }).toEqual({ first: [onFirst], second: [onSecond] });

  const [onSecondChain, onFirstChain] = [await signInOn(owner, SECOND), await signInOn(owner, FIRST)];

  const exported = await onSecondChain.getJson(`${h.issuer}/account/export`);
  expect(exported.status).toBe(200);
  expect(exported.json).toMatchObject({ identity: onSecond, subject: `eip155:${SECOND}:${onSecond}`, profile: { given_name: 'Second-chain Di' } });
  // Its claims are the second chain's claim alone; the data page offers to revoke it.
  expect((exported.json.claims as { claim_id: Hex }[]).map((claim) => claim.claim_id)).toHaveLength(1);
  const page = await onSecondChain.fetch(`${h.issuer}/account/data`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('id="revoke-issued-claims"');
  expect(exported.json.grants).toHaveLength(1);
  expect((exported.json.account_sessions as unknown[]).length).toBe(1);
  const history = await onSecondChain.getJson(`${h.issuer}/account/history`);
  expect(history.json).toMatchObject({ identity: onSecond });
  expect((history.json.entries as unknown[]).length).toBeGreaterThan(0);

  // The erasure text names the second chain; the job erases that identity's data only.
  const challenge = await onSecondChain.postJson(`${h.issuer}/account/erasure/challenge`, {});
  const message = challenge.json.challenge as string;
  expect(message).toContain(`Chain ID: ${SECOND}`);
  expect(message).toContain(`eip155:${SECOND}:${onSecond}`);
  const accepted = await onSecondChain.postJson(`${h.issuer}/account/erasure`, {
    signature: await owner.signMessage({ message }),
    message,
    revoke_issued_claims: true,
  });
  expect(accepted.status).toBe(202);
  const location = accepted.response.headers.get('location')!;
  let state: Record<string, unknown> = {};
  await waitUntil(
    'the erasure on the second chain is done',
    async () => {
      state = (await (await fetch(location, { headers: { accept: 'application/json' } })).json()) as Record<string, unknown>;
      return state.status === 'done';
    },
    { detail: () => JSON.stringify(state) },
  );
  expect(await secondProfiles.get(onSecond)).toEqual({});
  // Revoked by the second chain's issuer; the first chain's claim at the same address stands.
  expect({ second: await revokedOn(second, claimOnSecond), first: await revokedOn(h.chain, claimOnFirst) }).toEqual({ second: true, first: false });
  // The second chain's watcher stops following it; the first chain's follows its own identity still.
  expect({ first: await watched(), second: await watched(SECOND) }).toEqual({ first: [onFirst], second: [] });
  expect(await onSecondChain.getJson(`${h.issuer}/account/export`)).toMatchObject(refused(401, 'session_missing'));
  // The first chain's identity at the same address keeps its profile, its login, its history and its session.
  expect(await h.signet.profiles.get(onFirst)).toEqual({ given_name: 'First-chain Cy' });
  const firstExport = await onFirstChain.getJson(`${h.issuer}/account/export`);
  expect(firstExport.json).toMatchObject({ identity: onFirst, subject: `eip155:${FIRST}:${onFirst}`, profile: { given_name: 'First-chain Cy' } });
  expect(firstExport.json.grants).toHaveLength(1);
  expect(((await onFirstChain.getJson(`${h.issuer}/account/history`)).json.entries as unknown[]).length).toBeGreaterThan(0);
});

test("on the second chain the owner's webhook, inbox, CIBA logins, consent receipts, revocations and claim requests are that chain's identity's", async () => {
  const owner = await fundedWallet();
  const [onFirst, onSecond] = await Promise.all([identityOn(h.chain, owner, 'owner-routes'), identityOn(second, owner, 'owner-routes')]);
  await createProfileStore(h.store, (identity) => `eip155:${SECOND}:${identity}`).set(onSecond, { given_name: 'Second-chain Eve' });
  const [onSecondChain, onFirstChain] = [await signInOn(owner, SECOND), await signInOn(owner, FIRST)];
  const receiver = await startWebhookReceiver('second-chain-owner-webhook-secret');
  try {
    // The webhook is the second chain's identity's: the first chain's at the same address has none.
    const set = await onSecondChain.fetch(`${h.issuer}/account/webhook`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, secret: 'second-chain-owner-webhook-secret' }),
    });
    expect(set.status).toBe(200);
    expect((await onFirstChain.getJson(`${h.issuer}/account/webhook`)).json).toEqual({ url: null });
    const request = await api('POST', `/identities/eip155:${SECOND}:${onSecond}/profile/access-requests`, {
      key: analyticsKey,
      body: { kind: 'persistent', fields: ['given_name'] },
    });
    expect(request.status).toBe(201);
    const [event] = await receiver.waitFor((events) => events.length === 1);
    expect(event).toMatchObject({
      type: 'access_request.created',
      service: `owner:eip155:${SECOND}:${onSecond}`,
      data: { grant: { id: request.json.id, chain_id: SECOND, status: 'pending' } },
    });

    // A CIBA login by the identity's CAIP-10 id waits in that chain's owner's inbox, beside the request.
    const kiosk = await discover(h.issuer, KIOSK);
    const started = await oidc.initiateBackchannelAuthentication(kiosk, { scope: 'openid profile', login_hint: `eip155:${SECOND}:${onSecond}` });
    // A chain this Signet does not serve is an unknown user, as the engine answers one.
    const elsewhere = await fetch(`${h.issuer}/backchannel`, {
      method: 'POST',
      headers: { authorization: basicAuth(KIOSK), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ scope: 'openid', login_hint: `eip155:5:${onSecond}` }),
    });
    expect({ status: elsewhere.status, json: await elsewhere.json() }).toMatchObject({ status: 400, json: { error: 'unknown_user_id' } });
    const inbox = await onSecondChain.getJson(`${h.issuer}/account/inbox`);
    expect({
      identity: inbox.json.identity,
      pending: (inbox.json.pending as { id: string }[]).map((grant) => grant.id),
      backchannel: (inbox.json.backchannel as { id: string }[]).map((login) => login.id),
    }).toEqual({ identity: onSecond, pending: [request.json.id], backchannel: [started.auth_req_id] });
    expect((await onFirstChain.getJson(`${h.issuer}/account/inbox`)).json).toMatchObject({ identity: onFirst, pending: [], backchannel: [] });
    // The first chain's owner session cannot deny it; the signature approves it on the second chain.
    expect(await onFirstChain.postJson(`${h.issuer}/account/backchannel/${started.auth_req_id}/denials`, {})).toMatchObject(
      refused(404, 'backchannel_request_not_found'),
    );
    const [login] = inbox.json.backchannel as { id: string; challenge: string }[];
    expect(login!.challenge).toContain(`Identity: eip155:${SECOND}:${onSecond}`);
    const approved = await onSecondChain.postJson(`${h.issuer}/account/backchannel/${login!.id}/approvals`, {
      signature: await owner.signMessage({ message: login!.challenge }),
    });
    expect(approved.status).toBe(200);
    const tokens = await oidc.pollBackchannelAuthenticationGrant(kiosk, { ...started, interval: 0 });
    const sub = `eip155:${SECOND}:${onSecond}`;
    expect(tokens.claims()!.sub).toBe(sub);
    expect(await oidc.fetchUserInfo(kiosk, tokens.access_token, sub)).toEqual({ sub, given_name: 'Second-chain Eve' });

    // Its receipt is the second chain's identity's, and only that chain's session revokes it.
    const grantId = approved.json.grant_id as string;
    const receipts = await onSecondChain.getJson(`${h.issuer}/account/consents`);
    expect((receipts.json.consents as { grant_id: string }[]).map((receipt) => receipt.grant_id)).toEqual([grantId]);
    expect((await onFirstChain.getJson(`${h.issuer}/account/consents`)).json.consents).toEqual([]);
    expect(await onFirstChain.getJson(`${h.issuer}/account/consents/${grantId}`)).toMatchObject(refused(404, 'consent_not_found'));
    expect(await onSecondChain.getJson(`${h.issuer}/account/consents/${grantId}`)).toMatchObject({
      status: 200,
      json: expect.objectContaining({ grant_id: grantId }),
    });
    expect(await onFirstChain.postJson(`${h.issuer}/access-grants/${grantId}/revocations`, {})).toMatchObject(refused(404, 'grant_not_found'));
    expect(await onSecondChain.postJson(`${h.issuer}/access-grants/${grantId}/revocations`, {})).toMatchObject({
      status: 200,
      json: expect.objectContaining({ id: grantId, kind: 'login', status: 'revoked' }),
    });

    // A claim asked of Signet's issuer names the chain to issue it on.
    const asked = await onSecondChain.fetch(`${h.issuer}/account/claims/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'topic=kyc',
    });
    expect(asked.status).toBe(302);
    const listed = await fetch(`${h.issuer}/admin/claim-requests`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(((await listed.json()) as { claim_requests: unknown[] }).claim_requests).toContainEqual({
      identity: onSecond,
      chain_id: SECOND,
      topic: 'kyc',
      requested_at: expect.any(String),
    });
  } finally {
    await receiver.close();
  }
});

test("each chain's watcher is in the admin's readiness and in the chain-watch metrics, by chain id", async () => {
  await h.signet.watcher.round();
  const ready = (await (await fetch(`${h.issuer}/admin/readiness`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as Record<string, unknown>;
  const watches = ready.chain_watches as { chain_id: number; name: string; following: boolean; watch?: { lag_blocks: number } }[];
  expect(watches.map(({ chain_id, name, following }) => ({ chain_id, name, following }))).toEqual(
    [FIRST, SECOND, THIRD].map((chain_id) => ({ chain_id, name: `Test chain ${chain_id}`, following: true })),
  );
  for (const each of watches) expect(each.watch).toMatchObject({ lag_blocks: 0 });
  // The first chain's report stays where one chain has it.
  expect(ready.chain_watch).toEqual(watches[0]!.watch);
  const held = (await metrics.chainWatchLeaseHeld.get()).values;
  expect(Object.fromEntries(held.map((one) => [one.labels.chain_id, one.value]))).toEqual({ [FIRST]: 1, [SECOND]: 1, [THIRD]: 1 });
  const rounds = (await metrics.chainWatchRounds.get()).values.filter((one) => one.labels.outcome === 'followed');
  expect(new Set(rounds.map((one) => one.labels.chain_id))).toEqual(new Set([FIRST, SECOND, THIRD].map(String)));
  const lag = (await metrics.chainWatchLag.get()).values;
  expect(lag.map((one) => one.labels.chain_id).sort()).toEqual([FIRST, SECOND, THIRD].map(String));
});

test("the second chain's anvil stops: its logins answer 503 chain_unavailable, the first chain's logins, refreshes and claims go on", async () => {
  const owner = h.chain.accounts[5]!;
  const onFirst = await identityOn(h.chain, owner, 'outage');
  await identityOn(second, owner, 'outage');
  await admin('/claims', { identity: onFirst, topic: 'kyc', data: { level: 'basic' } });
  const earlier = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const before = await logIn(earlier, owner, { chain_id: FIRST });

  await second.stop();

  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  expect(await requestChallenge(login, { address: owner.address, chain_id: SECOND })).toMatchObject(refused(503, 'chain_unavailable'));
  // Looked up on every chain: the second does not answer, the first does; its identity is the one.
  const found = await requestChallenge(login, { address: owner.address });
  expect(found).toMatchObject({ status: 200, json: { identity: onFirst, chain_id: FIRST, claims: [{ status: 'valid' }] } });
  const after = await logIn(login, owner, { chain_id: FIRST });
  expect(after.tokens.claims()!.sub).toBe(`eip155:${FIRST}:${onFirst}`);
  const refreshed = await oidc.refreshTokenGrant(earlier.config, before.tokens.refresh_token!);
  expect(refreshed.claims()!.sub).toBe(`eip155:${FIRST}:${onFirst}`);

  // Readiness: still ready (some chain answers), each chain reported, from a probe made now.
  h.clock.advance(READINESS_FRESH_MS + 1);
  const ready = await fetch(`${h.issuer}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({
    status: 'ready',
    checks: {
      store: 'ok',
      chain: 'ok',
      chains: [
        { chain_id: FIRST, check: 'ok' },
        { chain_id: SECOND, check: 'unreachable' },
        { chain_id: THIRD, check: 'ok' },
      ],
    },
  });
});
