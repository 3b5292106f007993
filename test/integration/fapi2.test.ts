// A bank's website as FAPI 2.0 Security Profile asks: pushed authorization requests, PKCE,
// private_key_jwt, DPoP-bound tokens with server nonces, `iss` in the authorization response.
// openid-client (written by others) is the client; Signet's resource routes check DPoP proofs
// as RFC 9449 says, and a proof's id is spent once across two Signet processes on one Redis.
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { exportJWK, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import type { ClientConfig } from '../../src/config/config.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { BANK, bankJwk, bankKey } from '../support/fapi_bank.js';
import { kycIssuedBySignet } from '../support/kyc_claims.js';
import { continueLink } from '../support/leaving_page.js';
import { followToCallback, type LoginStart, signChallenge, submitSignature } from '../support/login_driver.js';
import { type Harness, startSignet, testJwks, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';

/** A risk engine that manages its Shared Signals streams with DPoP-bound client credentials. */
const RECEIVER: ClientConfig = {
  client_id: 'receiver',
  client_secret: 'receiver-secret-value',
  client_name: 'Risk Receiver',
  redirect_uris: [],
  post_logout_redirect_uris: [],
  grant_types: ['client_credentials'],
  token_endpoint_auth_method: 'client_secret_basic',
  dpop_bound_access_tokens: true,
};

const ADMIN_TOKEN = 'admin-token-for-the-fapi-tests';

let h: Harness;
/** The issuer host every process is reached under, through the trusted proxy's headers. */
let publicHost: string;

beforeAll(async () => {
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  h = await startSignet({
    peers: 1,
    trustProxy: 1,
    clients: [WEBSITE, BANK, RECEIVER],
    // RS256 for ordinary websites (OpenID Connect's default), ES256 for FAPI 2.0 clients.
    configure: (chain) => ({
      ...kycIssuedBySignet(chain),
      adminToken: ADMIN_TOKEN,
      jwks: { keys: [...testJwks().keys, { ...signing, kid: 'signet-es256', use: 'sig', alg: 'ES256' }] },
    }),
  });
  publicHost = new URL(h.issuer).host;
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function bankConfiguration() {
  return oidc.discovery(new URL(h.issuer), BANK.client_id, undefined, oidc.PrivateKeyJwt({ key: bankKey.privateKey, kid: bankJwk.kid }), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** A whole FAPI 2.0 login: PAR with a DPoP key, the owner's signature, the code exchanged with DPoP. */
async function fapiLogin(walletIndex: number, options: { kyc?: boolean } = {}) {
  const wallet = h.chain.accounts[walletIndex]!;
  const identity = await h.chain.createIdentityFor(wallet.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  // Signet, the claim's issuer, may add it once the owner gave its deployer a CLAIM key.
  if (options.kyc) await addKey(h.chain.as(wallet), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const claimId = options.kyc ? await issueKyc(identity) : undefined;
  const config = await bankConfiguration();
  const dpopKey = await oidc.randomDPoPKeyPair('ES256');
  const DPoP = oidc.getDPoPHandle(config, dpopKey);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = await oidc.buildAuthorizationUrlWithPAR(
    config,
    {
      redirect_uri: BANK.redirect_uris[0]!,
      scope: options.kyc ? 'openid profile email claim:kyc' : 'openid profile email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    },
    { DPoP },
  );
  const agent = new UserAgent();
  const response = await agent.fetch(url);
  expect(response.status).toBe(303);
  const interactionUrl = new URL(response.headers.get('location')!, h.issuer).href;
  const login: LoginStart = { agent, config, uid: interactionUrl.split('/').pop()!, interactionUrl, verifier, state, nonce: '' };
  const signed = await signChallenge(login, wallet, { fields: options.kyc ? ['given_name', 'email', 'claim:kyc'] : ['given_name', 'email'] });
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  expect(answer.status).toBe(200);
  const callback = await followToCallback(login, answer.json.redirect_to as string);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP });
  return { config, DPoP, dpopKey, tokens, identity, callback, claimId };
}

/** Signet, as the KYC claim's issuer, puts a claim on the identity (through its admin API). */
async function issueKyc(identity: string): Promise<string> {
  const issued = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ identity, topic: 'kyc', data: { level: 'basic', checked_by: 'Acme KYC' } }),
  });
  expect(issued.status).toBe(201);
  return ((await issued.json()) as { claim_id: string }).claim_id;
}

/** A DPoP proof written by hand, so that each of its parts can be wrong. */
async function proof(
  key: CryptoKeyPair,
  claims: { htm: string; htu: string; ath?: string; iat?: number; jti?: string; nonce?: string },
  header: { typ?: string } = {},
): Promise<string> {
  const jwk = await exportJWK(key.publicKey);
  return new SignJWT({ jti: claims.jti ?? randomUUID(), iat: claims.iat ?? Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ typ: header.typ ?? 'dpop+jwt', alg: 'ES256', jwk })
    .sign(key.privateKey);
}

const athOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A read of the owner's profile through process `base` as the public host (the trusted proxy's headers). */
async function readProfile(base: string, identity: string, headers: Record<string, string>) {
  const response = await fetch(`${base}/identities/${identity}/profile`, {
    headers: { accept: 'application/json', 'x-forwarded-host': publicHost, 'x-forwarded-proto': 'http', ...headers },
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    challenge: response.headers.get('www-authenticate'),
    nonce: response.headers.get('dpop-nonce'),
  };
}

/** A nonce the server hands out (the engine's and Signet's routes accept each other's). */
async function serverNonce(identity: string, token: string, key: CryptoKeyPair): Promise<string> {
  const htu = `http://${publicHost}/identities/${identity}/profile`;
  const answer = await readProfile(h.issuer, identity, { authorization: `DPoP ${token}`, dpop: await proof(key, { htm: 'GET', htu, ath: athOf(token) }) });
  expect(answer).toMatchObject({ status: 401, body: { reason: 'dpop_nonce_required', error: 'use_dpop_nonce' } });
  return answer.nonce!;
}

test('discovery advertises PAR, DPoP, RFC 9207 and private_key_jwt', async () => {
  const metadata = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  expect(metadata.pushed_authorization_request_endpoint).toBe(`${h.issuer}/request`);
  expect(metadata.dpop_signing_alg_values_supported).toEqual(['ES256', 'PS256', 'Ed25519', 'EdDSA']);
  expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  expect(metadata.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['private_key_jwt', 'client_secret_basic']));
  expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  expect(metadata.request_parameter_supported).toBe(true);
});

test('a FAPI 2.0 client logs in through PAR with DPoP and private_key_jwt, refreshes, and reads userinfo, the profile and a claim with proofs', async () => {
  const { config, DPoP, tokens, identity, callback, claimId } = await fapiLogin(0, { kyc: true });
  // RFC 9207: the issuer in the authorization response.
  expect(callback.searchParams.get('iss')).toBe(h.issuer);
  expect(tokens.token_type).toBe('dpop');
  const header = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()) as { alg: string };
  expect(header.alg).toBe('ES256');
  const sub = tokens.claims()!.sub;
  const info = await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP });
  expect(info).toMatchObject({ sub, given_name: 'Ada', email: 'ada@example.org' });

  // Signet's own route, with openid-client's proofs (its nonce from the engine is accepted).
  const read = await oidc.fetchProtectedResource(
    config,
    tokens.access_token,
    new URL(`${h.issuer}/identities/${identity}/profile`),
    'GET',
    undefined,
    undefined,
    {
      DPoP,
    },
  );
  expect(read.status).toBe(200);
  expect(await read.json()).toMatchObject({ fields: expect.arrayContaining(['given_name', 'email']) });

  const claim = await oidc.fetchProtectedResource(
    config,
    tokens.access_token,
    new URL(`${h.issuer}/identities/${identity}/claims/${claimId}`),
    'GET',
    undefined,
    undefined,
    { DPoP },
  );
  expect(claim.status).toBe(200);
  expect(await claim.json()).toMatchObject({ claim_id: claimId, data: { level: 'basic', checked_by: 'Acme KYC' } });

  // The refresh token is not rotated for a FAPI 2.0 client, and stays bound to the key.
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
  expect(refreshed.token_type).toBe('dpop');
  expect(refreshed.refresh_token ?? tokens.refresh_token).toBe(tokens.refresh_token);
  expect(await oidc.fetchUserInfo(config, refreshed.access_token, sub, { DPoP })).toMatchObject({ sub });
});

test('the profile refuses a FAPI 2.0 client that does not push its request, authenticates otherwise or forgets DPoP', async () => {
  // No PAR: the authorization endpoint refuses.
  const config = await bankConfiguration();
  const plain = oidc.buildAuthorizationUrl(config, {
    redirect_uri: BANK.redirect_uris[0]!,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  // The redirect URI is registered: the error goes back to it, with the issuer (RFC 9207).
  const refused = await new UserAgent().fetch(plain);
  const location = new URL(refused.headers.get('location')!);
  expect({ status: refused.status, error: location.searchParams.get('error'), iss: location.searchParams.get('iss') }).toEqual({
    status: 303,
    error: 'invalid_request',
    iss: h.issuer,
  });
  expect(location.searchParams.get('error_description')).toMatch(/Pushed Authorization Request must be used/);

  // A client secret instead of its key: the token endpoint's invalid_client.
  const withSecret = await fetch(`${h.issuer}/request`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('bank:not-a-key').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      response_type: 'code',
      redirect_uri: BANK.redirect_uris[0]!,
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    }),
  });
  expect(withSecret.status).toBe(401);
  expect(((await withSecret.json()) as { error: string }).error).toBe('invalid_client');

  // PAR without a DPoP key: the code cannot be bound, the token request without DPoP is refused.
  const { tokens } = await fapiLogin(1);
  const bearer = await fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(bearer.status).toBe(401);
  expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
});

test('each DPoP fault at a Signet route gets its own exact refusal', async () => {
  const { tokens, identity, dpopKey } = await fapiLogin(2);
  const token = tokens.access_token;
  const htu = `http://${publicHost}/identities/${identity}/profile`;
  const nonce = await serverNonce(identity, token, dpopKey);
  const good = { htm: 'GET', htu, ath: athOf(token), nonce };
  const other = await oidc.randomDPoPKeyPair('ES256');
  const read = async (dpop: string | undefined, scheme = 'DPoP') =>
    readProfile(h.issuer, identity, { authorization: `${scheme} ${token}`, ...(dpop ? { dpop } : {}) });
  const refusal = (answer: Awaited<ReturnType<typeof read>>) => ({ status: answer.status, reason: answer.body.reason, error: answer.body.error });
  const invalid = { status: 401, reason: 'dpop_proof_invalid', error: 'invalid_dpop_proof' };

  expect(refusal(await read(undefined, 'Bearer'))).toEqual({ status: 401, reason: 'token_dpop_bound', error: 'invalid_token' });
  expect(refusal(await read(undefined))).toEqual(invalid);
  expect(refusal(await read(await proof(dpopKey, { ...good, htm: 'POST' })))).toEqual(invalid);
  expect(refusal(await read(await proof(dpopKey, { ...good, htu: `http://${publicHost}/identities/${identity}/claims` })))).toEqual(invalid);
  expect(refusal(await read(await proof(dpopKey, { ...good, ath: athOf('another token') })))).toEqual(invalid);
  expect(refusal(await read(await proof(other, good)))).toEqual(invalid);
  expect(refusal(await read(await proof(dpopKey, good, { typ: 'JWT' })))).toEqual(invalid);
  // A FAPI 2.0 client must use a nonce; an unknown one gets a fresh one.
  const { nonce: _nonce, ...withoutNonce } = good;
  const missing = await read(await proof(dpopKey, withoutNonce));
  expect(refusal(missing)).toEqual({ status: 401, reason: 'dpop_nonce_required', error: 'use_dpop_nonce' });
  expect(missing.challenge).toMatch(/^DPoP error="use_dpop_nonce"/);
  expect(missing.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(refusal(await read(await proof(dpopKey, { ...good, nonce: 'not-a-nonce' })))).toMatchObject({ reason: 'dpop_nonce_required' });
  // Ten minutes old and no nonce: a fresh nonce is the way to prove it is recent.
  const stale = await read(await proof(dpopKey, { ...withoutNonce, iat: Math.floor(Date.now() / 1000) - 600 }));
  expect(refusal(stale)).toEqual({ status: 401, reason: 'dpop_nonce_required', error: 'use_dpop_nonce' });
  const invalidAnswer = await read(await proof(dpopKey, { ...good, htm: 'POST' }));
  expect(invalidAnswer.challenge).toMatch(/^DPoP error="invalid_dpop_proof"/);

  // The query does not count in htu, the proxy's host does: a proof for the public URL passes.
  const ok = await readProfile(h.issuer, identity, { authorization: `DPoP ${token}`, dpop: await proof(dpopKey, { ...good, htu: `${htu}?x=1` }) });
  expect(ok.status).toBe(200);
});

test('a DPoP proof is accepted once across two processes', async () => {
  const { tokens, identity, dpopKey } = await fapiLogin(3);
  const token = tokens.access_token;
  const htu = `http://${publicHost}/identities/${identity}/profile`;
  const nonce = await serverNonce(identity, token, dpopKey);
  const once = await proof(dpopKey, { htm: 'GET', htu, ath: athOf(token), nonce });
  const bases = [h.issuer, h.peers[0]!.url, h.issuer, h.peers[0]!.url, h.issuer, h.peers[0]!.url];
  const answers = await Promise.all(bases.map((base) => readProfile(base, identity, { authorization: `DPoP ${token}`, dpop: once })));
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401, 401, 401]);
  for (const answer of answers.filter((each) => each.status === 401)) expect(answer.body.reason).toBe('dpop_proof_invalid');
});

test('a DPoP proof replayed at the engine is refused across processes too (userinfo)', async () => {
  const { tokens, dpopKey } = await fapiLogin(4);
  const token = tokens.access_token;
  // The engine's nonce, from a first userinfo call without one.
  const first = await fetch(`${h.issuer}/me`, {
    headers: { authorization: `DPoP ${token}`, dpop: await proof(dpopKey, { htm: 'GET', htu: `${h.issuer}/me`, ath: athOf(token) }) },
  });
  const nonce = first.headers.get('dpop-nonce') ?? undefined;
  // Each process is reached under its own host here (the engine compares htu with its own URL).
  const calls = [h.issuer, h.peers[0]!.url].flatMap((base) => [base, base, base]);
  const proofs = new Map<string, string>();
  for (const base of new Set(calls)) proofs.set(base, await proof(dpopKey, { htm: 'GET', htu: `${base}/me`, ath: athOf(token), nonce, jti: 'one-jti' }));
  const statuses = await Promise.all(
    calls.map(async (base) => (await fetch(`${base}/me`, { headers: { authorization: `DPoP ${token}`, dpop: proofs.get(base)! } })).status),
  );
  // One jti, one use, whichever process and URL.
  expect(statuses.sort()).toEqual([200, 401, 401, 401, 401, 401]);
});

test('a bearer token of an ordinary website keeps working, and may not pretend to be DPoP-bound', async () => {
  const wallet = h.chain.accounts[5]!;
  const identity = await h.chain.createIdentityFor(wallet.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada' });
  const { startLogin, logIn } = await import('../support/login_driver.js');
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  const { tokens } = await logIn(login, wallet, { fields: ['given_name'] });
  expect(tokens.token_type).toBe('bearer');
  const bearer = await readProfile(h.issuer, identity, { authorization: `Bearer ${tokens.access_token}` });
  expect(bearer.status).toBe(200);
  const key = await oidc.randomDPoPKeyPair('ES256');
  const htu = `http://${publicHost}/identities/${identity}/profile`;
  const asDpop = await readProfile(h.issuer, identity, {
    authorization: `DPoP ${tokens.access_token}`,
    dpop: await proof(key, { htm: 'GET', htu, ath: athOf(tokens.access_token) }),
  });
  expect({ status: asDpop.status, reason: asDpop.body.reason }).toEqual({ status: 401, reason: 'token_not_dpop_bound' });
});

test('SSF stream management takes a DPoP-bound client credentials token with its proof, and refuses it as a bearer token', async () => {
  const config = await oidc.discovery(new URL(h.issuer), RECEIVER.client_id, RECEIVER.client_secret, undefined, { execute: [oidc.allowInsecureRequests] });
  const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
  const tokens = await oidc.clientCredentialsGrant(config, { scope: 'ssf' }, { DPoP });
  expect(tokens.token_type).toBe('dpop');
  const streams = new URL(`${h.issuer}/ssf/streams`);
  const listed = await oidc.fetchProtectedResource(config, tokens.access_token, streams, 'GET', undefined, undefined, { DPoP });
  expect({ status: listed.status, body: await listed.json() }).toEqual({ status: 200, body: [] });
  const bearer = await fetch(streams, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect({ status: bearer.status, reason: ((await bearer.json()) as { reason: string }).reason }).toEqual({ status: 401, reason: 'token_dpop_bound' });
  expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_token"/);
});

test('a FAPI 2.0 client made through the admin API gets what the profile requires, and one that cannot follow it is refused', async () => {
  const post = (body: unknown) =>
    fetch(`${h.peers[0]!.url}/admin/clients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  const metadata = { client_name: 'Other Bank', redirect_uris: ['https://other-bank.example/cb'], fapi_profile: '2.0' };
  const withSecret = await post({ ...metadata, client_id: 'other-bank', token_endpoint_auth_method: 'client_secret_basic' });
  expect(withSecret.status).toBe(400);
  expect(await withSecret.json()).toEqual({
    error: 'invalid_request',
    error_description: expect.stringContaining('private_key_jwt'),
    reason: 'client_metadata_invalid',
  });
  const created = await post({ ...metadata, client_id: 'other-bank', token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [bankJwk] } });
  expect(created.status).toBe(201);
  expect(await created.json()).toMatchObject({
    client_id: 'other-bank',
    fapi_profile: '2.0',
  });
  // Made through the peer, it logs in through the first process at once.
  const config = await oidc.discovery(new URL(h.issuer), 'other-bank', undefined, oidc.PrivateKeyJwt({ key: bankKey.privateKey, kid: bankJwk.kid }), {
    execute: [oidc.allowInsecureRequests],
  });
  const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
  const url = await oidc.buildAuthorizationUrlWithPAR(
    config,
    {
      redirect_uri: 'https://other-bank.example/cb',
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    },
    { DPoP },
  );
  expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
  // The profile holds whatever the stored metadata leaves out: a front-channel request is refused.
  const plain = oidc.buildAuthorizationUrl(config, {
    redirect_uri: 'https://other-bank.example/cb',
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  // A client of the admin API is a run-time client: its error goes through the leaving page (decision 74).
  const refused = new URL(continueLink(await (await new UserAgent().fetch(plain)).text()));
  expect(refused.searchParams.get('error')).toBe('invalid_request');
});
