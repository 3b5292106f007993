// Onchain claims as shareable data, against real anvil, the real ONCHAINID contracts (an
// IdFactory identity, Signet's ClaimIssuer, a second untrusted ClaimIssuer) and real Redis.
import * as oidc from 'openid-client';
import { type Address, encodeAbiParameters, type Hex, keccak256, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Reason } from '../../src/base/reasons.js';
import { createClaimRequests } from '../../src/domain/claim_issuer/claim_requests.js';
import { claimIdOf } from '../../src/domain/claims/claim_reader.js';
import type { ClaimRecord } from '../../src/domain/claims/claim_records.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { send } from '../../src/infra/chain/chain_writes.js';
import { claimIssuerAbi, claimIssuerArtifact, identityAbi, KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { keys } from '../../src/infra/store/keys.js';
import { followToCallback, logIn, requestChallenge, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const ADMIN_TOKEN = 'admin-token-for-the-claims-tests';
const CACHE_SECONDS = 30;
const KYC = 1;
const ACCREDITED = 7;

let h: Harness;
let signetIssuer: Address;
/** JSON-RPC requests Signet sent (one request, one chain round trip). */
let chainRequests = 0;
const counting =
  (fetchFn: typeof fetch): typeof fetch =>
  (input, init) => {
    chainRequests++;
    return fetchFn(input, init);
  };
async function chainRoundTripsOf<T>(work: () => Promise<T>): Promise<[number, T]> {
  const before = chainRequests;
  const done = await work();
  return [chainRequests - before, done];
}

beforeAll(async () => {
  h = await startSignet({
    chainClient: (chain, rpcUrl) => createChainClient(rpcUrl, chain.anvil.chainId, { pollingInterval: 50, observe: counting }),
    configure: (chain) => ({
      chainCacheSeconds: CACHE_SECONDS,
      claims: {
        topics: [
          { name: 'kyc', topic: KYC, description: 'Your identity was checked (KYC)' },
          { name: 'accredited', topic: ACCREDITED, description: 'Your accredited investor status' },
        ],
        trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc', 'accredited'] }],
      },
      claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
      adminToken: ADMIN_TOKEN,
    }),
  });
  signetIssuer = h.chain.suite.claimIssuer;
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** A fresh identity for `owner`, on which Signet's key may add claims (a CLAIM key). */
async function identityFor(owner: LocalAccount): Promise<Address> {
  const identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  return identity;
}

/** The issuer revokes by signature, straight onchain, with no action from the holder or Signet. */
const revokeOnchain = (signature: Hex) =>
  send(h.chain.deployer, { address: signetIssuer, abi: claimIssuerAbi, functionName: 'revokeClaimBySignature', args: [signature] });

/** A refusal, matched on its status, code and reason (not on the sentence). */
const refused = (status: number, error: string, reason: Reason) => ({ status, json: { error, error_description: expect.any(String), reason } });

async function admin(path: string, body: unknown, token = ADMIN_TOKEN) {
  const response = await fetch(`${h.issuer}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, location: response.headers.get('location') };
}

async function resource(identity: Address, claimId: string, accessToken?: string) {
  const response = await fetch(`${h.issuer}/identities/${identity}/claims/${claimId}`, {
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json };
}

async function issueKyc(identity: Address, data: Record<string, unknown> = { level: 'basic', checked_by: 'Demo KYC' }) {
  const issued = await admin('/claims', { identity, topic: 'kyc', data });
  expect(issued.status).toBe(201);
  return issued.json as { claim_id: Hex; added: boolean; claim: { signature: Hex; data: Hex } };
}

const publicPart = (identity: Address, claimId: Hex, hash: Hex, extra: Record<string, unknown> = {}) => ({
  identity,
  claim_id: claimId,
  topic: KYC,
  topic_name: 'kyc',
  issuer: signetIssuer,
  trusted: true,
  valid: true,
  status: 'valid',
  scheme: 1,
  data_hash: hash,
  uri: `${h.issuer}/identities/${identity}/claims/${claimId}`,
  expires_at: null,
  ...extra,
});

test('a claim added onchain appears on the consent page, in the tokens and at its resource', async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await identityFor(owner);
  const issued = await issueKyc(identity);
  expect(issued.added).toBe(true);
  expect(issued.claim_id).toBe(claimIdOf(signetIssuer, KYC));

  // It is onchain, as ERC-735 says.
  const onchain = (await h.chain.client.readContract({
    address: identity,
    abi: identityAbi,
    functionName: 'getClaim',
    args: [issued.claim_id],
  })) as readonly unknown[];
  expect(onchain[2]).toBe(signetIssuer);
  expect(onchain[4]).toBe(issued.claim.data);

  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const view = await login.agent.getJson(login.interactionUrl);
  expect(view.json.fields).toEqual([{ name: 'claim:kyc', scope: 'claim:kyc', required: false, description: 'Your identity was checked (KYC)' }]);
  const { tokens, signed } = await logIn(login, owner);
  const { identity: _identity, ...listed } = publicPart(identity, issued.claim_id, issued.claim.data);
  expect(signed.answer.claims).toEqual([{ ...listed, kept: true }]);
  expect(signed.message).toContain(`By signing you share: kyc claim by ${signetIssuer}.`);
  expect(signed.message).toContain(`- ${h.issuer}/identities/${identity}/claims/${issued.claim_id}`);

  const shared = { ...listed, data: { level: 'basic', checked_by: 'Demo KYC' } };
  expect(tokens.claims()!.onchain_claims).toEqual([shared]);
  const sub = tokens.claims()!.sub;
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toEqual({ sub, onchain_claims: [shared] });

  expect(await resource(identity, issued.claim_id)).toEqual({ status: 200, json: publicPart(identity, issued.claim_id, issued.claim.data) });
  expect(await resource(identity, issued.claim_id, tokens.access_token)).toEqual({
    status: 200,
    json: { ...publicPart(identity, issued.claim_id, issued.claim.data), data: { level: 'basic', checked_by: 'Demo KYC' } },
  });
});

test("with claim scopes every step reads the chain once: the claims, their data and each issuer's word in one eth_call", async () => {
  // A wallet of its own (the chain's accounts are taken), given gas for its key transaction.
  const owner = privateKeyToAccount(generatePrivateKey());
  const funding = await h.chain.deployer.wallet.sendTransaction({
    account: h.chain.deployer.wallet.account,
    chain: h.chain.deployer.wallet.chain,
    to: owner.address,
    value: 10n ** 18n,
  });
  await h.chain.client.waitForTransactionReceipt({ hash: funding });
  const identity = await identityFor(owner);
  const issued = await issueKyc(identity);
  // The page path: the wallet's identity and its claims read together at the challenge.
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const [challenge, signed] = await chainRoundTripsOf(() => signChallenge(login, owner));
  expect(challenge).toBe(1);
  expect((signed.answer.claims as { kept: boolean }[]).map((claim) => claim.kept)).toEqual([true]);
  const [signature, answer] = await chainRoundTripsOf(() => submitSignature(login, { signature: signed.signature, message: signed.message }));
  expect([signature, answer.status]).toEqual([1, 200]);
  const callback = await followToCallback(login, answer.json.redirect_to as string);
  const [token, tokens] = await chainRoundTripsOf(() =>
    oidc.authorizationCodeGrant(login.config, callback, { pkceCodeVerifier: login.verifier, expectedState: login.state, expectedNonce: login.nonce }),
  );
  expect(token).toBe(1);
  expect(tokens.claims()!.onchain_claims).toEqual([expect.objectContaining({ claim_id: issued.claim_id, valid: true, data: expect.any(Object) })]);
  // The wallet SDK path: the identity given, checked as known and linked in the claims' eth_call.
  const sdk = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const [sdkChallenge, sdkSigned] = await chainRoundTripsOf(() => signChallenge(sdk, owner, { identity }));
  expect(sdkChallenge).toBe(1);
  expect((sdkSigned.answer.claims as { kept: boolean }[]).map((claim) => claim.kept)).toEqual([true]);
  // A claim resource read with the login's token: the claim and its issuer's word, read fresh, once.
  const [read, released] = await chainRoundTripsOf(() => resource(identity, issued.claim_id, tokens.access_token));
  expect([read, released.status, released.json.valid]).toEqual([1, 200, true]);
});

test('the issuer revokes onchain: private data stops at once, the cached public part within its bound', async () => {
  const owner = h.chain.accounts[1]!;
  const identity = await identityFor(owner);
  const issued = await issueKyc(identity);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const { tokens } = await logIn(login, owner);
  // Warm the cache of the public part.
  expect((await resource(identity, issued.claim_id)).json.valid).toBe(true);

  // The issuer revokes by signature, straight onchain, with no action from the holder or Signet.
  await revokeOnchain(issued.claim.signature);
  const revokedView = { ...publicPart(identity, issued.claim_id, issued.claim.data), valid: false, status: 'not_confirmed_by_issuer' };
  const { identity: _i, ...inToken } = revokedView;

  // The public part is cached for at most CACHE_SECONDS: stale until then, fresh after.
  expect((await resource(identity, issued.claim_id)).json.valid).toBe(true);
  h.clock.advance((CACHE_SECONDS - 1) * 1000);
  expect((await resource(identity, issued.claim_id)).json.valid).toBe(true);
  h.clock.advance(2000);
  expect(await resource(identity, issued.claim_id)).toEqual({ status: 200, json: revokedView });

  // The next login lists it as invalid and does not share it.
  const next = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const challenge = await requestChallenge(next, { address: owner.address });
  expect(challenge.json.claims).toEqual([{ ...inToken, kept: false }]);
  expect(challenge.json.fields).toEqual([]);

  // The token of the earlier login: userinfo shows it invalid, without data.
  const sub = tokens.claims()!.sub;
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toEqual({ sub, onchain_claims: [inToken] });
});

test('private data stops at once when the issuer revokes, whatever the cache holds', async () => {
  const owner = h.chain.accounts[8]!;
  const identity = await identityFor(owner);
  const issued = await issueKyc(identity);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const { tokens } = await logIn(login, owner);
  expect((await resource(identity, issued.claim_id, tokens.access_token)).json.data).toEqual({ level: 'basic', checked_by: 'Demo KYC' });
  expect((await resource(identity, issued.claim_id)).json.valid).toBe(true);

  await revokeOnchain(issued.claim.signature);

  expect(await resource(identity, issued.claim_id, tokens.access_token)).toEqual(refused(403, 'access_denied', 'claim_not_confirmed'));
  const sub = tokens.claims()!.sub;
  const userinfo = await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
  expect(userinfo.onchain_claims).toEqual([expect.objectContaining({ claim_id: issued.claim_id, valid: false, status: 'not_confirmed_by_issuer' })]);
  expect((userinfo.onchain_claims as Record<string, unknown>[])[0]!.data).toBeUndefined();
});

test('revocation through Signet takes effect at once everywhere', async () => {
  const owner = h.chain.accounts[2]!;
  const identity = await identityFor(owner);
  const issued = await issueKyc(identity);
  expect((await resource(identity, issued.claim_id)).json.valid).toBe(true);
  const revoked = await admin('/claims/revocations', { identity, claim_id: issued.claim_id });
  expect(revoked.status).toBe(200);
  expect(revoked.json).toEqual({ claim_id: issued.claim_id, revoked_at: expect.any(String), transaction: expect.stringMatching(/^0x/) });
  expect((await resource(identity, issued.claim_id)).json).toMatchObject({ valid: false, status: 'not_confirmed_by_issuer' });
  const again = await admin('/claims/revocations', { identity, claim_id: issued.claim_id });
  expect(again).toMatchObject(refused(409, 'conflict', 'claim_already_revoked'));
});

test('re-issuing the same topic replaces the claim', async () => {
  const owner = h.chain.accounts[3]!;
  const identity = await identityFor(owner);
  const first = await issueKyc(identity, { level: 'basic' });
  const second = await issueKyc(identity, { level: 'enhanced' });
  expect(second.claim_id).toBe(first.claim_id);
  expect(second.claim.data).not.toBe(first.claim.data);
  // The replaced claim's signature is revoked: a copy of it can never be added back.
  expect((second as { replaced?: { signature: Hex } }).replaced?.signature).toBe(first.claim.signature);
  expect(await h.chain.client.readContract({ address: signetIssuer, abi: claimIssuerAbi, functionName: 'isClaimRevoked', args: [first.claim.signature] })).toBe(
    true,
  );
  expect(
    await h.chain.client.readContract({ address: signetIssuer, abi: claimIssuerAbi, functionName: 'isClaimRevoked', args: [second.claim.signature] }),
  ).toBe(false);
  const ids = (await h.chain.client.readContract({
    address: identity,
    abi: identityAbi,
    functionName: 'getClaimIdsByTopic',
    args: [BigInt(KYC)],
  })) as readonly Hex[];
  expect(ids).toEqual([first.claim_id]);
  expect((await resource(identity, first.claim_id)).json.data_hash).toBe(second.claim.data);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const { tokens } = await logIn(login, owner);
  expect((await resource(identity, first.claim_id, tokens.access_token)).json.data).toEqual({ level: 'enhanced' });
});

test('the owner unticks a claim: absent from every token and endpoint of that grant', async () => {
  const owner = h.chain.accounts[4]!;
  const identity = await identityFor(owner);
  const issued = await issueKyc(identity);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile claim:kyc' });
  await h.signet.profiles.set(identity, { given_name: 'Grace' });
  const { tokens, signed } = await logIn(login, owner, { claims: [] });
  expect(signed.answer.fields).toEqual(['given_name', 'family_name', 'website']);
  expect(signed.message).not.toContain('/claims/');
  expect(tokens.claims()!.onchain_claims).toBeUndefined();
  const sub = tokens.claims()!.sub;
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toEqual({ sub, given_name: 'Grace' });
  expect(await resource(identity, issued.claim_id, tokens.access_token)).toEqual(refused(403, 'insufficient_scope', 'token_scope_insufficient'));
});

describe('claims that cannot be shared are refused with the exact error', () => {
  let owner: LocalAccount;
  let identity: Address;
  let kyc: Awaited<ReturnType<typeof issueKyc>>;
  let accessToken: string;

  beforeAll(async () => {
    owner = h.chain.accounts[5]!;
    identity = await identityFor(owner);
    kyc = await issueKyc(identity);
    const accredited = await admin('/claims', {
      identity,
      topic: 'accredited',
      data: { accredited: true },
      expires_at: new Date(h.clock.now() + 3_600_000).toISOString(),
    });
    expect(accredited.status).toBe(201);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc claim:accredited' });
    accessToken = (await logIn(login, owner)).tokens.access_token;
  });

  test('a claim from an untrusted issuer is shown as such and cannot be kept', async () => {
    // Another ClaimIssuer, managed by a key Signet does not trust, signs a KYC claim.
    const stranger = h.chain.accounts[8]!;
    const hash = await h.chain.as(stranger).wallet.deployContract({
      abi: claimIssuerArtifact.abi,
      bytecode: claimIssuerArtifact.bytecode,
      args: [stranger.address],
      account: stranger,
      chain: h.chain.deployer.wallet.chain,
    });
    const untrusted = (await h.chain.client.waitForTransactionReceipt({ hash })).contractAddress!;
    const data = keccak256('0x1234');
    const digest = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }], [identity, BigInt(KYC), data]));
    const signature = await stranger.signMessage({ message: { raw: digest } });
    await send(h.chain.as(owner), {
      address: identity,
      abi: identityAbi,
      functionName: 'addClaim',
      args: [BigInt(KYC), 1n, untrusted, signature, data, 'https://untrusted.example/claim'],
    });
    const untrustedId = claimIdOf(untrusted, KYC);
    // The identity's claim list was read (and cached) at the login above.
    h.clock.advance((CACHE_SECONDS + 1) * 1000);

    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
    const listing = await requestChallenge(login, { address: owner.address });
    expect(listing.json.claims).toContainEqual({
      claim_id: untrustedId,
      topic: KYC,
      topic_name: 'kyc',
      issuer: expect.stringMatching(new RegExp(`^${untrusted}$`, 'i')),
      trusted: false,
      valid: false,
      status: 'untrusted_issuer',
      scheme: 1,
      data_hash: data,
      uri: 'https://untrusted.example/claim',
      expires_at: null,
      kept: false,
    });
    const refused = await requestChallenge(login, { address: owner.address, claims: [untrustedId] });
    expect(refused).toMatchObject({
      status: 400,
      json: { error: 'invalid_request', error_description: `"claims" names ${untrustedId}, which is not a valid claim of a kept topic` },
    });
  });

  test('an expired generic claim', async () => {
    const claimId = claimIdOf(signetIssuer, ACCREDITED);
    const expiresAt = (await resource(identity, claimId)).json.expires_at as string;
    h.clock.advance(3_600_000 + 1000);
    try {
      // The sentence names the moment the claim expired: that is its point.
      expect(await resource(identity, claimId, accessToken)).toEqual({
        status: 410,
        json: { error: 'expired', error_description: `the claim expired at ${expiresAt}`, reason: 'claim_expired' },
      });
    } finally {
      h.clock.advance(-3_600_000 - 1000);
    }
  });

  test('off-chain data that does not match the onchain hash', async () => {
    const key = keys.claimRecord(identity, kyc.claim_id);
    const record = JSON.parse((await h.store.get(key))!) as ClaimRecord;
    await h.store.set(key, JSON.stringify({ ...record, document: { ...record.document, data: { level: 'forged' } } }));
    try {
      expect(await resource(identity, kyc.claim_id, accessToken)).toEqual(refused(409, 'conflict', 'claim_data_mismatch'));
    } finally {
      await h.store.set(key, JSON.stringify(record));
    }
  });

  test('a claim id of another identity', async () => {
    const other = await h.chain.createIdentityFor(h.chain.accounts[6]!.address);
    expect(await resource(other, kyc.claim_id)).toEqual(refused(404, 'not_found', 'claim_not_found'));
    expect(await resource(other, kyc.claim_id, accessToken)).toEqual(refused(403, 'insufficient_scope', 'token_scope_insufficient'));
  });

  test('a bad token, a bad path', async () => {
    expect(await resource(identity, kyc.claim_id, 'not-a-token')).toEqual(refused(401, 'invalid_token', 'token_invalid'));
    expect(await resource(identity, '0x1234')).toEqual(refused(400, 'invalid_request', 'invalid_path'));
  });
});

describe('the admin API', () => {
  test('refuses a wrong token, an unknown topic, a bad expiry, a bad body, and changes nothing', async () => {
    const identity = await h.chain.createIdentityFor(h.chain.accounts[7]!.address);
    const recordsBefore = await h.store.get(keys.claimRecord(identity, claimIdOf(signetIssuer, KYC)));
    expect(await admin('/claims', { identity, topic: 'kyc', data: {} }, 'wrong-token')).toEqual({
      ...refused(401, 'invalid_token', 'admin_token_invalid'),
      location: null,
    });
    expect(await admin('/claims', { identity, topic: 'shoe-size', data: {} })).toEqual({
      ...refused(400, 'invalid_request', 'claim_topic_unknown'),
      location: null,
    });
    expect(await admin('/claims', { identity, topic: 'kyc', data: {}, expires_at: 'next tuesday' })).toEqual({
      ...refused(400, 'invalid_request', 'claim_expiry_invalid'),
      location: null,
    });
    // The sentence names the field: that is its point.
    expect(await admin('/claims', { identity, topic: 'kyc', data: 'yes' })).toMatchObject({
      status: 400,
      json: { error: 'invalid_request', error_description: '"data" must be a JSON object', reason: 'invalid_body' },
    });
    expect(await h.store.get(keys.claimRecord(identity, claimIdOf(signetIssuer, KYC)))).toBe(recordsBefore);
  });

  test('revoking a claim Signet never issued: 404', async () => {
    const identity = await h.chain.createIdentityFor(privateKeyToAccount(generatePrivateKey()).address);
    const notIssued = refused(404, 'not_found', 'claim_not_found');
    expect(await admin('/claims/revocations', { identity, claim_id: claimIdOf(signetIssuer, ACCREDITED) })).toEqual({
      ...notIssued,
      json: { ...notIssued.json, previous_reason: 'issued_claim_not_found' },
      location: null,
    });
    expect(await admin('/claims/revocations', { identity, claim_id: '0x1234' })).toMatchObject(refused(400, 'invalid_request', 'invalid_body'));
  });

  test("lists owners' requests for Signet's claims", async () => {
    const identity = await h.chain.createIdentityFor(privateKeyToAccount(generatePrivateKey()).address);
    await createClaimRequests(h.store, h.clock.now).add(identity, 'accredited');
    const listed = await fetch(`${h.issuer}/admin/claim-requests`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(((await listed.json()) as { claim_requests: unknown[] }).claim_requests).toContainEqual({
      identity,
      topic: 'accredited',
      requested_at: expect.any(String),
    });
    const anonymous = await fetch(`${h.issuer}/admin/claim-requests`);
    expect({ status: anonymous.status, json: await anonymous.json() }).toEqual(refused(401, 'invalid_token', 'admin_token_invalid'));
  });

  test('without a CLAIM key on the identity the signed claim is returned for the owner to add', async () => {
    const owner = h.chain.accounts[7]!;
    const identity = await h.chain.factoryIdentityOf(owner.address);
    const issued = await admin('/claims', { identity, topic: 'kyc', data: { level: 'basic' } });
    expect(issued.status).toBe(201);
    expect(issued.location).toBe(`${h.issuer}/identities/${identity}/claims/${claimIdOf(signetIssuer, KYC)}`);
    expect(issued.json).toEqual({
      claim_id: claimIdOf(signetIssuer, KYC),
      added: false,
      claim: {
        topic: KYC,
        scheme: 1,
        issuer: signetIssuer,
        signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
        data: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        uri: `${h.issuer}/identities/${identity}/claims/${claimIdOf(signetIssuer, KYC)}`,
      },
    });
    // The owner adds it; the identity contract checks it with the issuer.
    const claim = issued.json.claim as { topic: number; scheme: number; issuer: Address; signature: Hex; data: Hex; uri: string };
    await send(h.chain.as(owner), {
      address: identity,
      abi: identityAbi,
      functionName: 'addClaim',
      args: [BigInt(claim.topic), BigInt(claim.scheme), claim.issuer, claim.signature, claim.data, claim.uri],
    });
    expect((await resource(identity, claimIdOf(signetIssuer, KYC))).json).toMatchObject({ valid: true, data_hash: claim.data });
  });
});

describe('the admin API where Signet is no claim issuer', () => {
  test('every claims route answers 404 claim_issuer_off, after the admin token check', async () => {
    const plain = await startSignet({ configure: () => ({ adminToken: ADMIN_TOKEN }) });
    try {
      const identity = h.chain.accounts[0]!.address;
      const call = async (method: string, path: string, token: string, body?: unknown) => {
        const response = await fetch(`${plain.issuer}/admin${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, json: await response.json() };
      };
      expect(await call('POST', '/claims', ADMIN_TOKEN, { identity, topic: 'kyc', data: {} })).toEqual(refused(404, 'not_found', 'claim_issuer_off'));
      expect(await call('GET', '/claim-requests', ADMIN_TOKEN)).toEqual(refused(404, 'not_found', 'claim_issuer_off'));
      expect(await call('POST', '/claims/revocations', ADMIN_TOKEN, { identity, claim_id: `0x${'ab'.repeat(32)}` })).toEqual(
        refused(404, 'not_found', 'claim_issuer_off'),
      );
      // Without the token nobody learns whether Signet issues claims here.
      expect(await call('GET', '/claim-requests', 'wrong-token')).toEqual(refused(401, 'invalid_token', 'admin_token_invalid'));
    } finally {
      await plain.close();
    }
  }, 60_000);
});
