// Credentials the owner keeps, end to end on real parts: anvil with the ONCHAINID contracts, real
// Redis, Signet's account API for the offer, an independent wallet written with
// @openid4vc/openid4vci (offer, token with tx_code and DPoP, nonce, JWT proof, credential), and a
// verifier written with the SD-JWT library (signature, `vct`, `cnf`, disclosures, key binding,
// status through the IETF status list). An owner with a KYC claim gets an age credential,
// presents "18 or over" to a verifier that learns nothing else, and when the issuer revokes the
// claim on chain the verifier sees the credential revoked.
import { createHash, createPrivateKey, sign as nodeSign, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Jwk } from '@openid4vc/oauth2';
import { Openid4vciClient } from '@openid4vc/openid4vci';
import { setGlobalConfig } from '@openid4vc/utils';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import type { Hex } from 'viem';
import { projectRoot } from '../../src/base/project_root.js';
import { send } from '../../src/infra/chain/chain_writes.js';
import { identityAbi, KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { CHAIN_END_MS } from '../support/bounds.js';
import { BEARER_WALLET_APP, credentialIssuerSettings, WALLET_APP } from '../support/credential_issuer_settings.js';
import { authorizationCodeWallet, callbacks, hasher, receive, statusOf, verifier, type WalletKey, walletKey } from '../support/credential_wallet.js';
import { followToCallback, type LoginStart, signChallenge, submitSignature } from '../support/login_driver.js';
import { assertOpenid4vci } from '../support/openid4vci_schema.js';
import { type Harness, startSignet } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';

const ADMIN_TOKEN = 'admin-token-for-the-credentials-tests';
type Json = Record<string, unknown>;

let h: Harness;

beforeAll(async () => {
  // Wallets speak https; the test issuer is http on loopback.
  setGlobalConfig({ allowInsecureUrls: true });
  h = await startSignet({
    // A second Signet process on the same Redis: what must happen once happens once across both.
    peers: 1,
    watchChain: true,
    // Signet reads the chain through a proxy the tests can cut.
    chainProxy: true,
    clients: [WALLET_APP, BEARER_WALLET_APP],
    configure: (chain) => credentialIssuerSettings(chain, ADMIN_TOKEN),
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

const verified = (birthdate: string) => ({
  verification: { trust_framework: 'de_aml', time: '2026-10-01T10:00:00Z', verification_process: 'acme-4711' },
  claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate, nationalities: ['DE'] },
});

async function admin(path: string, body: unknown) {
  const response = await fetch(`${h.issuer}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

/** The verifier snippet of docs/credentials.md, taken from the page as it is and run as a module. */
async function docsVerifier(): Promise<{
  isEighteenOrOver(input: { issuer: string; presentation: string; nonce: string; audience: string }): Promise<boolean>;
}> {
  const page = readFileSync(join(projectRoot, 'docs', 'credentials.md'), 'utf8');
  const snippet = /```js\n(\/\/ verify_age\.mjs[\s\S]*?)```/.exec(page)![1]!;
  // Beside the project's node_modules, so that its imports resolve as they would in a verifier's project.
  const file = join(projectRoot, 'test-output', 'verify_age.mjs');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, snippet);
  return import(pathToFileURL(file).href);
}

/** An owner with an identity holding a KYC claim whose verified data has this date of birth. */
async function ownerWithKyc(account: number, birthdate: string, claimExpiresAt?: string) {
  const owner = h.chain.accounts[account]!;
  // A wallet of an earlier test keeps its identity; its new claim replaces the one it held.
  let identity = await h.signet.registry.identityOf(owner.address);
  if (!identity) {
    identity = await h.chain.createIdentityFor(owner.address);
    await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  }
  const data = { level: 'enhanced', verified_claims: verified(birthdate) };
  const issued = await admin('/claims', { identity, topic: 'kyc', data, ...(claimExpiresAt ? { expires_at: claimExpiresAt } : {}) });
  expect(issued.status).toBe(201);
  const { agent } = await signInToAccount(h.issuer, owner);
  return { owner, identity, agent, claimId: issued.json.claim_id as Hex };
}

async function offer(agent: Awaited<ReturnType<typeof signInToAccount>>['agent'], configuration: string) {
  const offered = await agent.postJson(`${h.issuer}/account/credential-offers`, { credential_configuration_id: configuration });
  expect(offered.status).toBe(201);
  return offered.json as { link: string; credential_offer_uri: string; tx_code: string; qr_svg: string; expires_at: string };
}

test('an owner with a KYC claim gets an age credential into a wallet, proves "18 or over" alone, and a revocation on chain reaches the verifier', async () => {
  const { agent, claimId, identity } = await ownerWithKyc(1, '1990-05-17');
  const offered = await offer(agent, 'age');
  expect(offered.link).toBe(`openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offered.credential_offer_uri)}`);
  const offerRead = await fetch(offered.credential_offer_uri);
  expect(offerRead.headers.get('cache-control')).toBe('no-store');
  assertOpenid4vci('credential_offer', await offerRead.json());
  expect((await fetch(`${h.issuer}/credential-offers/unknown-offer`)).status).toBe(404);
  expect(offered.qr_svg).toMatch(/^<svg/);
  expect(offered.tx_code).toMatch(/^\d{6}$/);
  expect(offered.link).not.toContain(offered.tx_code);

  const { response, holderKey } = await receive(offered.link, offered.tx_code);
  const credential = (response.credentialResponse.credentials as { credential: string }[])[0]!.credential;

  // The issuer-signed JWT: Signet as issuer, the age type, the wallet's key, nothing that names the owner.
  const issuerJwt = credential.split('~')[0]!;
  const payload = decodeJwt(issuerJwt) as Json;
  expect(payload).toMatchObject({
    iss: h.issuer,
    vct: `${h.issuer}/credentials/types/age`,
    cnf: { jwk: { kty: 'EC', crv: 'P-256', x: holderKey.publicJwk.x } },
  });
  expect(payload.sub).toBeUndefined();
  expect(JSON.stringify(payload).toLowerCase()).not.toContain(identity.toLowerCase().slice(2));
  for (const leak of ['1990', 'birthdate', 'Erika', 'Mustermann']) expect(Buffer.from(credential).toString()).not.toContain(leak);
  expect((payload.exp as number) % 86_400).toBe(0);

  const verifierLib = await verifier(h.issuer);
  const whole = await verifierLib.verify(credential);
  expect(whole.header?.typ).toBe('dc+sd-jwt');
  expect(whole.payload.age_equal_or_over).toEqual({ '18': true, '21': true });
  expect(await statusOf(h.issuer, credential)).toBe(0);

  // The holder presents "18 or over" alone, bound to its key and the verifier's nonce.
  const holderPrivate = createPrivateKey({ key: holderKey.privateJwk as never, format: 'jwk' });
  const holder = new SDJwtVcInstance({
    hasher,
    hashAlg: 'sha-256',
    kbSigner: (data: string) => nodeSign('sha256', Buffer.from(data), { key: holderPrivate, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
    kbSignAlg: 'ES256',
  });
  const nonce = randomBytes(16).toString('base64url');
  const presentation = await holder.present(credential, { age_equal_or_over: { '18': true } } as never, {
    kb: { payload: { iat: Math.floor(Date.now() / 1000), aud: 'https://verifier.example', nonce } },
  });
  expect(presentation.split('~').length).toBe(3);
  const seen = await verifierLib.verify(presentation, { keyBindingNonce: nonce, requiredClaimKeys: ['age_equal_or_over.18'] } as never);
  // The verifier of docs/credentials.md, as it is there, says yes too.
  const { isEighteenOrOver } = await docsVerifier();
  expect(await isEighteenOrOver({ issuer: h.issuer, presentation, nonce, audience: 'https://verifier.example' })).toBe(true);
  await expect(isEighteenOrOver({ issuer: h.issuer, presentation, nonce, audience: 'https://another.example' })).rejects.toThrow('not presented to us, now');
  expect(seen.payload.age_equal_or_over).toEqual({ '18': true });
  expect(seen.kb?.payload.aud).toBe('https://verifier.example');

  // The owner sees it; the access history recorded the issuance.
  const listed = await agent.getJson(`${h.issuer}/account/credentials`);
  expect(listed.json.credentials).toEqual([expect.objectContaining({ credential_configuration_id: 'age', claim_id: claimId.toLowerCase(), state: 'valid' })]);
  await h.signet.history.flushed();
  const history = await agent.getJson(`${h.issuer}/account/history`);
  expect(JSON.stringify(history.json)).toContain('"door":"credential"');

  // The issuer revokes the claim on chain: the watcher sets the status bit.
  expect((await admin('/claims/revocations', { identity, claim_id: claimId })).status).toBe(200);
  const mined = Date.now();
  await waitUntil('the credential is revoked in its status list', async () => (await statusOf(h.issuer, credential)) === 1, CHAIN_END_MS + 5000);
  console.info(`credential revoked in its status list ${Date.now() - mined} ms after the claim's revocation was mined`);
  expect(Date.now() - mined).toBeLessThanOrEqual(CHAIN_END_MS);
  await expect(verifierLib.verify(presentation, { keyBindingNonce: nonce } as never)).rejects.toThrow(/revoked|status/i);
  await expect(isEighteenOrOver({ issuer: h.issuer, presentation, nonce, audience: 'https://verifier.example' })).rejects.toThrow(/revoked|status/i);
  const after = await agent.getJson(`${h.issuer}/account/credentials`);
  expect(after.json.credentials).toEqual([expect.objectContaining({ state: 'revoked', revoked: expect.objectContaining({ cause: 'claim_revoked' }) })]);
}, 60_000);

test('a wrong tx_code is refused without using the offer up; an access token receives one request’s credentials', async () => {
  const { agent } = await ownerWithKyc(2, '2001-01-01');
  const offered = await offer(agent, 'age');
  const code = ((await (await fetch(offered.credential_offer_uri)).json()) as Json).grants as Json;
  const preAuthorized = (code['urn:ietf:params:oauth:grant-type:pre-authorized_code'] as Json)['pre-authorized_code'] as string;
  const wrong = offered.tx_code === '000000' ? '000001' : '000000';
  const refused = await fetch(`${h.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': preAuthorized, tx_code: wrong }),
  });
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });

  // The right code still works, and the same request cannot be answered twice: its token has received its credentials.
  const { response, again } = await receive(offered.link, offered.tx_code);
  expect(response.credentialResponse.credentials).toHaveLength(1);
  const replay = await again().catch((error: { message: string }) => error);
  expect('message' in replay ? replay.message : replay).toMatch(/"error": "credential_request_denied",[\s\S]*"reason": "credential_token_spent"/);
}, 60_000);

test('guessing the transaction code: five wrong ones leave the offer standing, the sixth ends it', async () => {
  const { agent } = await ownerWithKyc(2, '2002-02-02');
  const offered = await offer(agent, 'age');
  const grants = ((await (await fetch(offered.credential_offer_uri)).json()) as Json).grants as Record<string, Record<string, string>>;
  const code = grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code']!;
  const key = walletKey();
  const tryCode = async (txCode: string) => {
    const response = await fetch(`${h.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, `${h.issuer}/token`) },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code, tx_code: txCode }),
    });
    return { status: response.status, json: (await response.json()) as Json };
  };
  const wrong = ['000000', '111111', '222222', '333333', '444444', '555555', '666666'].filter((guess) => guess !== offered.tx_code).slice(0, 6);
  for (const guess of wrong.slice(0, 5)) {
    expect(await tryCode(guess)).toEqual({
      status: 400,
      json: { error: 'invalid_grant', error_description: 'invalid tx_code provided; the offer still stands', reason: 'invalid_grant' },
    });
  }
  // The sixth reaches the engine, which uses the code up and revokes its grant: the right code no longer helps.
  expect(await tryCode(wrong[5]!)).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  expect(await tryCode(offered.tx_code)).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
}, 60_000);

test('the metadata names each credential; the type metadata and status list are served to anyone', async () => {
  const metadata = (await (await fetch(`${h.issuer}/.well-known/openid-credential-issuer`)).json()) as Json;
  expect(metadata).toMatchObject({ credential_issuer: h.issuer, credential_endpoint: `${h.issuer}/credential`, nonce_endpoint: expect.any(String) });
  const configurations = metadata.credential_configurations_supported as Record<string, Json>;
  expect(Object.keys(configurations).sort()).toEqual(['age', 'verified_kyc']);
  expect(configurations.age).toMatchObject({ format: 'dc+sd-jwt', vct: `${h.issuer}/credentials/types/age`, cryptographic_binding_methods_supported: ['jwk'] });
  const type = await fetch(`${h.issuer}/credentials/types/age`);
  expect(type.status).toBe(200);
  expect(await type.json()).toMatchObject({
    vct: `${h.issuer}/credentials/types/age`,
    claims: expect.arrayContaining([expect.objectContaining({ path: ['age_equal_or_over', '18'], sd: 'always' })]),
  });
  expect((await fetch(`${h.issuer}/credentials/types/none`)).status).toBe(400);
});

test('a wallet asks through the authorization code flow: the owner signs a text naming the credential and what it carries, and the receipt keeps it', async () => {
  const { owner, agent: account } = await ownerWithKyc(3, '2010-03-04');
  const redirectUri = WALLET_APP.redirect_uris[0]!;
  const wallet = await authorizationCodeWallet(h.issuer, WALLET_APP.client_id, redirectUri, 'age');
  const browser = new UserAgent();
  const started = await browser.fetch(wallet.authorizationRequestUrl);
  expect(started.status).toBe(303);
  const interactionUrl = new URL(started.headers.get('location')!, h.issuer).href;
  const login = { agent: browser, interactionUrl, config: { serverMetadata: () => ({ issuer: h.issuer }) } } as unknown as LoginStart;

  // The consent page's JSON twin lists the credential as a field; the signed text names it and what it carries.
  const view = await browser.getJson(interactionUrl);
  expect(view.json.fields).toEqual([expect.objectContaining({ name: 'credential:age', scope: 'credential:age', required: false })]);
  const signed = await signChallenge(login, owner);
  expect(signed.message).toContain('age proofs credential for your wallet (18 or over, 21 or over)');
  expect(signed.message).toContain(`- ${h.issuer}/credentials/types/age`);
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  expect(answer.status).toBe(200);
  const callback = await followToCallback(login, answer.json.redirect_to as string);
  const code = callback.searchParams.get('code')!;

  const { tokenType, credential } = await wallet.redeem(code);
  expect(tokenType).toBe('DPoP');
  const verifiedCredential = await (await verifier(h.issuer)).verify(credential);
  // Born 2010-03-04: under 18 on the test's day, and the credential ends when that answer would change.
  expect(verifiedCredential.payload.age_equal_or_over).toEqual({ '18': false, '21': false });
  expect(verifiedCredential.payload.exp).toBeLessThanOrEqual(Date.parse('2028-03-04T00:00:00Z') / 1000);

  // The receipt keeps what was signed; the owner sees the credential, issued to the wallet app.
  const consents = await account.getJson(`${h.issuer}/account/consents`);
  expect(JSON.stringify(consents.json)).toContain('credential:age');
  const listed = await account.getJson(`${h.issuer}/account/credentials`);
  expect(listed.json.credentials).toEqual([expect.objectContaining({ credential_configuration_id: 'age', state: 'valid' })]);
}, 60_000);

/** A wallet's access token for an offer, through the library (DPoP-bound to `dpopKey`). */
async function walletToken(offerUri: string, txCode: string, dpopKey = walletKey()) {
  const client = new Openid4vciClient({ callbacks: callbacks([dpopKey]) });
  const credentialOffer = await client.resolveCredentialOffer(offerUri);
  assertOpenid4vci('credential_offer', credentialOffer);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse, dpop } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
    credentialOffer,
    issuerMetadata,
    txCode,
    dpop: { signer: { method: 'jwk', alg: 'ES256', publicJwk: dpopKey.publicJwk as Jwk } },
  });
  return { accessToken: accessTokenResponse.access_token, dpopKey, dpop };
}

/**
 * A JWT proof of `key` for Signet (OpenID4VCI §8.2.1.1), with this nonce; `signWith` signs it
 * instead (a forged proof); `iat` (default: Signet's clock now) and the header's `jwk` as given.
 */
async function proofOf(key: WalletKey, nonce: string, signWith: WalletKey = key, options: { iat?: number; jwk?: Record<string, unknown> } = {}) {
  return new SignJWT({ nonce, aud: h.issuer })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: (options.jwk ?? key.publicJwk) as never })
    .setIssuedAt(options.iat ?? Math.floor(h.clock.now() / 1000))
    .sign(await importJWK(signWith.privateJwk, 'ES256'));
}

const freshNonce = async (base = h.issuer) => {
  const answer = await fetch(`${base}/challenge`, { method: 'POST' });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-store');
  const body = await answer.json();
  assertOpenid4vci('nonce_response', body);
  return (body as { c_nonce: string }).c_nonce;
};

/** A DPoP proof of `key` for a POST to `url` (RFC 9449), bound to `accessToken` when given. */
async function dpopProof(key: WalletKey, url: string, accessToken?: string) {
  const ath = accessToken === undefined ? {} : { ath: createHash('sha256').update(accessToken).digest('base64url') };
  return new SignJWT({ htm: 'POST', htu: url, ...ath, jti: randomBytes(12).toString('base64url') })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.publicJwk })
    .setIssuedAt()
    .sign(await importJWK(key.privateJwk, 'ES256'));
}

/** A credential request as a wallet sends it (RFC 9449: a fresh DPoP proof each time), to `base` (a process). */
async function credentialRequest(base: string, token: { accessToken: string; dpopKey: WalletKey }, body: unknown, options: { query?: boolean } = {}) {
  const dpop = await dpopProof(token.dpopKey, `${base}/credential`, token.accessToken);
  const url = options.query ? `${base}/credential?access_token=${encodeURIComponent(token.accessToken)}` : `${base}/credential`;
  const headers: Record<string, string> = { 'content-type': 'application/json', dpop };
  if (!options.query) headers.authorization = `DPoP ${token.accessToken}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await response.json()) as Json;
  assertOpenid4vci(response.status === 200 ? 'credential_response' : 'credential_error', json);
  return { status: response.status, json };
}

test('the failure paths of the test plans: each refused with its error, and nothing issued', async () => {
  const { agent } = await ownerWithKyc(6, '1975-07-07');
  const offered = await offer(agent, 'age');
  const token = await walletToken(offered.link, offered.tx_code);
  const holder = walletKey();
  const refusals = [
    ['a nonce Signet never gave', { credential_configuration_id: 'age', proofs: { jwt: [await proofOf(holder, 'made-up-nonce')] } }, 400, 'invalid_nonce'],
    [
      'a proof signed by another key than its own',
      { credential_configuration_id: 'age', proofs: { jwt: [await proofOf(holder, await freshNonce(), walletKey())] } },
      400,
      'invalid_proof',
    ],
    [
      'an unknown credential configuration',
      { credential_configuration_id: 'passport', proofs: { jwt: [await proofOf(holder, await freshNonce())] } },
      400,
      'unknown_credential_configuration',
    ],
    ['no proof', { credential_configuration_id: 'age' }, 400, 'invalid_proof'],
    [
      'a configuration the token was not granted',
      { credential_configuration_id: 'verified_kyc', proofs: { jwt: [await proofOf(holder, await freshNonce())] } },
      400,
      'credential_request_denied',
    ],
  ] as const;
  for (const [what, body, status, error] of refusals) {
    const answer = await credentialRequest(h.issuer, token, body);
    expect({ what, status: answer.status, error: answer.json.error }).toEqual({ what, status, error });
  }
  // The token in the query (RFC 6750 §2.3) is not accepted: only the DPoP header scheme.
  const inQuery = await credentialRequest(
    h.issuer,
    token,
    { credential_configuration_id: 'age', proofs: { jwt: [await proofOf(holder, await freshNonce())] } },
    { query: true },
  );
  expect(inQuery.status).toBe(400);
  expect(inQuery.json.error).toBe('invalid_request');
  expect((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials).toEqual([]);
  // An owner without verified data gets no credential of it.
  const plain = h.chain.accounts[7]!;
  await h.chain.createIdentityFor(plain.address);
  const { agent: plainAgent } = await signInToAccount(h.issuer, plain);
  const plainOffer = await offer(plainAgent, 'age');
  const plainToken = await walletToken(plainOffer.link, plainOffer.tx_code);
  const denied = await credentialRequest(h.issuer, plainToken, {
    credential_configuration_id: 'age',
    proofs: { jwt: [await proofOf(holder, await freshNonce())] },
  });
  expect(denied).toMatchObject({ status: 400, json: { error: 'credential_request_denied' } });
}, 60_000);

test('one proof sent to two Signet processes at once is accepted by one; a batch gets one unlinkable credential per key', async () => {
  const { agent } = await ownerWithKyc(8, '1988-08-08');
  const offered = await offer(agent, 'age');
  const token = await walletToken(offered.link, offered.tx_code);
  const holder = walletKey();
  const proof = await proofOf(holder, await freshNonce(h.peers[0]!.url));
  const body = { credential_configuration_id: 'age', proofs: { jwt: [proof] } };
  const answers = await Promise.all([credentialRequest(h.issuer, token, body), credentialRequest(h.peers[0]!.url, token, body)]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  expect(answers.find((answer) => answer.status === 400)!.json.error).toBe('invalid_nonce');

  // A batch (with the token of another offer: one request per token): three keys, three
  // credentials, nothing in common a verifier could link them by but the day.
  const keys = [walletKey(), walletKey(), walletKey()];
  const nonce = await freshNonce();
  const second = await offer(agent, 'age');
  const batch = await credentialRequest(h.issuer, await walletToken(second.link, second.tx_code), {
    credential_configuration_id: 'age',
    proofs: { jwt: await Promise.all(keys.map((key) => proofOf(key, nonce))) },
  });
  expect(batch.status).toBe(200);
  const credentials = (batch.json.credentials as { credential: string }[]).map((each) => each.credential);
  expect(credentials).toHaveLength(3);
  const payloads = credentials.map((credential) => decodeJwt(credential.split('~')[0]!) as Json);
  for (const payload of payloads) assertOpenid4vci('sd_jwt_vc_payload', payload);
  expect(payloads.map((payload) => (payload.cnf as { jwk: { x: string } }).jwk.x)).toEqual(keys.map((key) => key.publicJwk.x));
  expect(new Set(payloads.map((payload) => (payload.status as { status_list: { idx: number } }).status_list.idx)).size).toBe(3);
  expect(new Set(payloads.map((payload) => `${payload.iat}/${payload.exp}`)).size).toBe(1);
  const disclosures = credentials.flatMap((credential) => credential.split('~').slice(1, -1));
  expect(new Set(disclosures).size).toBe(disclosures.length);
  const digests = payloads.flatMap((payload) => (payload.age_equal_or_over as { _sd: string[] })._sd);
  expect(new Set(digests).size).toBe(digests.length);
}, 60_000);

test('the issuer metadata, type metadata and status list token are what the specifications define', async () => {
  const metadata = (await (await fetch(`${h.issuer}/.well-known/openid-credential-issuer`)).json()) as Json;
  assertOpenid4vci('issuer_metadata', metadata);
  expect(metadata.batch_credential_issuance).toEqual({ batch_size: 10 });
  for (const configuration of Object.values(metadata.credential_configurations_supported as Record<string, { vct: string }>)) {
    const type = await fetch(configuration.vct);
    expect(type.status).toBe(200);
    assertOpenid4vci('type_metadata', await type.json());
  }
  const token = await (await fetch(`${h.issuer}/credentials/status/0`)).text();
  assertOpenid4vci('status_list_header', decodeProtectedHeader(token));
  assertOpenid4vci('status_list_payload', decodeJwt(token));
  expect(decodeJwt(token)).toMatchObject({ sub: `${h.issuer}/credentials/status/0`, iss: h.issuer, ttl: 300 });
  expect((await fetch(`${h.issuer}/credentials/status/1001`)).status).toBe(400);
  // The authorization server's metadata: the offer's grant, taken without a client_id.
  const server = (await (await fetch(`${h.issuer}/.well-known/oauth-authorization-server`)).json()) as Json;
  expect(server).toMatchObject({
    'pre-authorized_grant_anonymous_access_supported': true,
    dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
  });
  expect(server.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:pre-authorized_code');
});

test("the owner's erasure revokes every credential before it forgets them", async () => {
  // The claim ends in 30 days: so does the credential (its day).
  const claimEnds = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const { owner, agent } = await ownerWithKyc(0, '1970-01-01', claimEnds);
  const offered = await offer(agent, 'verified_kyc');
  const { response } = await receive(offered.link, offered.tx_code);
  const credential = (response.credentialResponse.credentials as { credential: string }[])[0]!.credential;
  const exp = decodeJwt(credential.split('~')[0]!).exp!;
  expect(exp).toBeLessThanOrEqual(Date.parse(claimEnds) / 1000);
  expect(exp).toBeGreaterThan(Date.parse(claimEnds) / 1000 - 86_400);
  // One disclosure per verified claim.
  expect(credential.split('~').slice(1, -1)).toHaveLength(4);
  // The verified data's credential: each claim a disclosure, as the issuer verified it.
  expect((await (await verifier(h.issuer)).verify(credential)).payload).toMatchObject({
    vct: `${h.issuer}/credentials/types/verified_kyc`,
    given_name: 'Erika',
    family_name: 'Mustermann',
    birthdate: '1970-01-01',
    nationalities: ['DE'],
  });
  expect(await statusOf(h.issuer, credential)).toBe(0);

  const challenge = await agent.postJson(`${h.issuer}/account/erasure/challenge`, {});
  expect(challenge.status).toBe(200);
  const message = challenge.json.challenge as string;
  const accepted = await agent.postJson(`${h.issuer}/account/erasure`, { signature: await owner.signMessage({ message }), message });
  expect(accepted.status).toBe(202);
  await waitUntil('the erasure is done', async () => {
    const state = await agent.getJson(`${h.issuer}/account/erasures/${accepted.json.id}`);
    return state.json.status === 'done';
  });
  expect(await statusOf(h.issuer, credential)).toBe(1);
  const again = await signInToAccount(h.issuer, owner);
  expect((await again.agent.getJson(`${h.issuer}/account/credentials`)).json.credentials).toEqual([]);
}, 60_000);

test('a bearer access token, from a wallet registered without DPoP, gets no credential', async () => {
  const { owner } = await ownerWithKyc(4, '1991-04-04');
  const redirectUri = BEARER_WALLET_APP.redirect_uris[0]!;
  const wallet = await authorizationCodeWallet(h.issuer, BEARER_WALLET_APP.client_id, redirectUri, 'age', { bearer: true });
  const browser = new UserAgent();
  const started = await browser.fetch(wallet.authorizationRequestUrl);
  const interactionUrl = new URL(started.headers.get('location')!, h.issuer).href;
  const login = { agent: browser, interactionUrl, config: { serverMetadata: () => ({ issuer: h.issuer }) } } as unknown as LoginStart;
  const signed = await signChallenge(login, owner);
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  const code = (await followToCallback(login, answer.json.redirect_to as string)).searchParams.get('code')!;
  // The token is issued (a bearer one: the client is registered so), the credential is not.
  const refused = await wallet.redeem(code).catch((error: { message: string }) => error);
  expect('message' in refused ? refused.message : refused).toMatch(/^Error retrieving credentials from .*"error": "invalid_token"/s);
}, 60_000);

test('the owner removing the claim on chain ends the credentials made from it, within the watcher’s bound', async () => {
  const { owner, identity, agent, claimId } = await ownerWithKyc(5, '1960-06-06');
  const offered = await offer(agent, 'verified_kyc');
  const { response } = await receive(offered.link, offered.tx_code);
  const credential = (response.credentialResponse.credentials as { credential: string }[])[0]!.credential;
  expect(await statusOf(h.issuer, credential)).toBe(0);
  await send(h.chain.as(owner), { address: identity, abi: identityAbi, functionName: 'removeClaim', args: [claimId] });
  const mined = Date.now();
  await waitUntil('the credential is revoked in its status list', async () => (await statusOf(h.issuer, credential)) === 1, CHAIN_END_MS + 5000);
  expect(Date.now() - mined).toBeLessThanOrEqual(CHAIN_END_MS);
  const listed = await agent.getJson(`${h.issuer}/account/credentials`);
  expect(listed.json.credentials).toEqual([expect.objectContaining({ state: 'revoked', revoked: expect.objectContaining({ cause: 'claim_removed' }) })]);
}, 60_000);

test('an offer redeemed by 10 requests at once, on two processes, issues nothing twice: the replay revokes its grant', async () => {
  const { agent } = await ownerWithKyc(1, '1992-02-02');
  const before = ((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as unknown[]).length;
  const offered = await offer(agent, 'age');
  const grants = ((await (await fetch(offered.credential_offer_uri)).json()) as Json).grants as Record<string, Record<string, string>>;
  const code = grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code']!;
  const key = walletKey();
  const redeem = async (base: string) => {
    const response = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, `${base}/token`) },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code, tx_code: offered.tx_code }),
    });
    return { status: response.status, json: (await response.json()) as Json };
  };
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => redeem(i % 2 ? h.peers[0]!.url : h.issuer)));
  // A code redeemed twice is taken as stolen: its grant is revoked. Of requests at once, at most
  // one got a token before that, and that token no longer works; every other one is refused.
  const winners = answers.filter((answer) => answer.status === 200);
  expect(winners.length).toBeLessThanOrEqual(1);
  expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.json.error])).toEqual(
    Array(10 - winners.length).fill([400, 'invalid_grant']),
  );
  for (const winner of winners) {
    const token = { accessToken: winner.json.access_token as string, dpopKey: key };
    const refused = await credentialRequest(h.issuer, token, {
      credential_configuration_id: 'age',
      proofs: { jwt: [await proofOf(walletKey(), await freshNonce())] },
    });
    expect(refused).toMatchObject({ status: 401, json: { error: 'invalid_token' } });
  }
  // Used: the offer gives nothing more, even with the right code, and no credential was issued.
  expect(await redeem(h.issuer)).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
  expect((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials).toHaveLength(before);
}, 60_000);

test('the chain down: the credential request is a 503 chain_unavailable, fast, and spends nothing; the same proof works once it is back', async () => {
  const { agent } = await ownerWithKyc(2, '1985-05-05');
  const before = ((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as unknown[]).length;
  const offered = await offer(agent, 'age');
  const token = await walletToken(offered.link, offered.tx_code);
  const body = { credential_configuration_id: 'age', proofs: { jwt: [await proofOf(walletKey(), await freshNonce())] } };
  await h.chainProxy!.set('refuse');
  try {
    const started = performance.now();
    const down = await fetchCredential(token, body);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(down).toMatchObject({ status: 503, json: { error: 'temporarily_unavailable', reason: 'chain_unavailable' } });
  } finally {
    await h.chainProxy!.set('pass');
  }
  expect(((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as unknown[]).length).toBe(before);
  expect((await fetchCredential(token, body)).status).toBe(200);
}, 60_000);

/** A credential request whose answer is not checked against the specification's errors (an outage is Signet's own answer). */
async function fetchCredential(token: { accessToken: string; dpopKey: WalletKey }, body: unknown) {
  const response = await fetch(`${h.issuer}/credential`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `DPoP ${token.accessToken}`,
      dpop: await dpopProof(token.dpopKey, `${h.issuer}/credential`, token.accessToken),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

test('a resource other than Signet is refused at the authorization endpoint with invalid_target', async () => {
  const url = new URL(`${h.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: WALLET_APP.client_id,
    redirect_uri: WALLET_APP.redirect_uris[0]!,
    response_type: 'code',
    scope: 'credential:age',
    resource: 'https://other.example/api',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'state-1',
  }).toString();
  const answer = await new UserAgent().fetch(url);
  const location = new URL(answer.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(WALLET_APP.redirect_uris[0]);
  expect(location.searchParams.get('error')).toBe('invalid_target');
});

const ageRequest = (jwt: string[]) => ({ credential_configuration_id: 'age', proofs: { jwt } });

test('the nonce endpoint answers a new c_nonce each time; a nonce serves once across two processes; the wallet refused gets one it can use', async () => {
  const { agent } = await ownerWithKyc(3, '1993-03-03');
  const holders = [walletKey(), walletKey()];
  const dpopKeys = [walletKey(), walletKey()];
  const client = new Openid4vciClient({ callbacks: callbacks([...dpopKeys, ...holders]) });
  const issuerMetadata = await client.resolveIssuerMetadata(h.issuer);
  const proofWith = async (nonce: string, holder: WalletKey) =>
    (
      await client.createCredentialRequestJwtProof({
        issuerMetadata,
        credentialConfigurationId: 'age',
        nonce,
        signer: { method: 'jwk', alg: 'ES256', publicJwk: holder.publicJwk as Jwk },
      })
    ).jwt;
  // Asked twice, on one process or the other: two nonces (OpenID4VCI 1.0 §7).
  const first = (await client.requestNonce({ issuerMetadata })).c_nonce;
  const second = (await client.requestNonce({ issuerMetadata })).c_nonce;
  const fromPeer = await freshNonce(h.peers[0]!.url);
  expect(new Set([first, second, fromPeer]).size).toBe(3);

  // Two wallets (two offers' tokens, two keys) sign one nonce; their requests reach the two processes at once: one is answered.
  const offers = [await offer(agent, 'age'), await offer(agent, 'age')];
  const tokens = await Promise.all(offers.map((each, i) => walletToken(each.link, each.tx_code, dpopKeys[i])));
  const proofs = await Promise.all(holders.map((holder) => proofWith(first, holder)));
  const answers = await Promise.all([
    credentialRequest(h.issuer, tokens[0]!, ageRequest([proofs[0]!])),
    credentialRequest(h.peers[0]!.url, tokens[1]!, ageRequest([proofs[1]!])),
  ]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
  const refused = answers.findIndex((answer) => answer.status === 400);
  expect(answers[refused]!.json).toMatchObject({ error: 'invalid_nonce', reason: 'invalid_nonce' });

  // The wallet refused asks the nonce endpoint, as the error says, and gets a nonce it can use: its token was not spent.
  const fresh = (await client.requestNonce({ issuerMetadata })).c_nonce;
  expect([first, second, fromPeer]).not.toContain(fresh);
  const issued = await client.retrieveCredentials({
    issuerMetadata,
    accessToken: tokens[refused]!.accessToken,
    credentialConfigurationId: 'age',
    proofs: { jwt: [await proofWith(fresh, holders[refused]!)] },
    dpop: tokens[refused]!.dpop,
  });
  expect(issued.credentialResponse.credentials).toHaveLength(1);
}, 60_000);

test('a batch is checked whole before its nonce is spent; a proof’s iat is checked; cnf.jwk holds the key’s public members only', async () => {
  const { agent } = await ownerWithKyc(4, '1994-04-04');
  const before = ((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as unknown[]).length;
  const offered = await offer(agent, 'age');
  const token = await walletToken(offered.link, offered.tx_code);
  const nonce = await freshNonce();
  const [a, b] = [walletKey(), walletKey()];
  const now = () => Math.floor(h.clock.now() / 1000);
  const refusals = [
    ['a proof signed 6 minutes ago', [await proofOf(a, nonce), await proofOf(b, nonce, b, { iat: now() - 360 })], 'more than 300 seconds old'],
    ['a proof signed 2 minutes ahead', [await proofOf(a, nonce), await proofOf(b, nonce, b, { iat: now() + 120 })], 'ahead of the issuer'],
    ['a forged proof', [await proofOf(a, nonce), await proofOf(b, nonce, walletKey())], 'signature verification failed'],
    ['two proofs of one key', [await proofOf(a, nonce), await proofOf(a, nonce)], 'another key'],
    ['two nonces', [await proofOf(a, nonce), await proofOf(b, await freshNonce())], 'same c_nonce'],
  ] as const;
  for (const [what, jwts, sentence] of refusals) {
    const answer = await credentialRequest(h.issuer, token, ageRequest([...jwts]));
    expect({ what, status: answer.status, error: answer.json.error }).toEqual({ what, status: 400, error: 'invalid_proof' });
    expect(answer.json.error_description).toContain(sentence);
  }
  // Nothing was spent: the same token and nonce with the two good proofs get two credentials. One
  // header key carries more than a key (a kid, an x5u, 30 KB of padding): only its public members are signed.
  const padded = { ...b.publicJwk, kid: 'wallet-key', x5u: 'https://attacker.example/chain.pem', use: 'sig', pad: 'x'.repeat(30_000) };
  const issued = await credentialRequest(
    h.issuer,
    token,
    ageRequest([await proofOf(a, nonce, a, { iat: now() - 240 }), await proofOf(b, nonce, b, { jwk: padded, iat: now() + 50 })]),
  );
  expect(issued.status).toBe(200);
  const bound = (issued.json.credentials as { credential: string }[]).map((each) => (decodeJwt(each.credential.split('~')[0]!) as { cnf: Json }).cnf);
  expect(bound).toEqual([a, b].map((key) => ({ jwk: { kty: 'EC', crv: 'P-256', x: key.publicJwk.x, y: key.publicJwk.y } })));
  expect(((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as unknown[]).length).toBe(before + 2);
}, 60_000);

test('an access token receives one request’s credentials; an identity at most 30 in a day, across processes, a batch whole or not at all', async () => {
  // The wallet of the failure paths' test: no credential issued to it yet.
  const { agent } = await ownerWithKyc(6, '1999-09-09');
  const count = async () => ((await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as unknown[]).length;
  expect(await count()).toBe(0);
  /** A batch of `n` proofs with a new offer's token, to the process at `base`. */
  const batch = async (base: string, n: number, token?: Awaited<ReturnType<typeof walletToken>>) => {
    const offered = token ? undefined : await offer(agent, 'age');
    const used = token ?? (await walletToken(offered!.link, offered!.tx_code));
    const nonce = await freshNonce(base);
    const jwts = await Promise.all(Array.from({ length: n }, () => proofOf(walletKey(), nonce)));
    const response = await fetch(`${base}/credential`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `DPoP ${used.accessToken}`,
        dpop: await dpopProof(used.dpopKey, `${base}/credential`, used.accessToken),
      },
      body: JSON.stringify(ageRequest(jwts)),
    });
    return { token: used, status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as Json };
  };
  const ten = await batch(h.issuer, 10);
  expect(ten.status).toBe(200);
  expect(ten.json.credentials).toHaveLength(10);
  // The same token, a new nonce, on the other process: refused, nothing issued.
  expect(await batch(h.peers[0]!.url, 1, ten.token)).toMatchObject({
    status: 400,
    json: { error: 'credential_request_denied', reason: 'credential_token_spent' },
  });
  expect((await batch(h.peers[0]!.url, 10)).status).toBe(200);
  expect((await batch(h.issuer, 5)).status).toBe(200);
  expect(await count()).toBe(25);
  // Ten more would pass 30: the batch is refused whole, with when to try again.
  const over = await batch(h.peers[0]!.url, 10);
  expect(over).toMatchObject({ status: 429, json: { error: 'rate_limited', reason: 'credentials_daily_limit' } });
  expect(Number(over.retryAfter)).toBeGreaterThan(86_000);
  expect(Number(over.retryAfter)).toBeLessThanOrEqual(86_400);
  expect(await count()).toBe(25);
  // Its token was not spent, and five fit.
  expect((await batch(h.issuer, 5, over.token)).status).toBe(200);
  expect(await count()).toBe(30);
  expect(await batch(h.issuer, 1)).toMatchObject({ status: 429, json: { reason: 'credentials_daily_limit' } });
}, 120_000);

test.each(['/token/', '/TOKEN'])(
  'wrong transaction codes sent to %s are counted as at /token: five leave the offer standing',
  async (path) => {
    const { agent } = await ownerWithKyc(2, '2003-03-03');
    const offered = await offer(agent, 'age');
    const grants = ((await (await fetch(offered.credential_offer_uri)).json()) as Json).grants as Record<string, Record<string, string>>;
    const code = grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code']!;
    const key = walletKey();
    const tryCode = async (txCode: string) => {
      const response = await fetch(`${h.issuer}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(key, `${h.issuer}/token`) },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': code, tx_code: txCode }),
      });
      return { status: response.status, json: (await response.json()) as Json };
    };
    const wrong = ['000000', '111111', '222222', '333333', '444444', '555555'].filter((guess) => guess !== offered.tx_code).slice(0, 5);
    for (const guess of wrong) {
      expect(await tryCode(guess)).toEqual({
        status: 400,
        json: { error: 'invalid_grant', error_description: 'invalid tx_code provided; the offer still stands', reason: 'invalid_grant' },
      });
    }
    expect(await tryCode(offered.tx_code)).toMatchObject({ status: 200, json: { token_type: 'DPoP' } });
  },
  60_000,
);

test('a status list has one URL: other spellings are refused and never cached; its token is signed again only when it changed or after a few seconds', async () => {
  const get = async (path: string) => {
    const response = await fetch(`${h.issuer}${path}`);
    return { status: response.status, cache: response.headers.get('cache-control'), text: await response.text() };
  };
  for (const spelling of ['1e2', '0x10', '007', '5.0', '-1', '+1', '1000', '01']) {
    const answer = await get(`/credentials/status/${spelling}`);
    expect({ spelling, status: answer.status, cache: answer.cache, reason: JSON.parse(answer.text).reason }).toEqual({
      spelling,
      status: 400,
      cache: 'no-store',
      reason: 'invalid_path',
    });
  }
  for (const path of ['/CREDENTIALS/status/1', '/credentials/status/1/', '/credentials/status/%31', '/credentials/Status/1']) {
    const answer = await get(path);
    expect({ path, status: answer.status, cache: answer.cache, reason: JSON.parse(answer.text).reason }).toEqual({
      path,
      status: 404,
      cache: 'no-store',
      reason: 'route_not_found',
    });
  }
  const first = await get('/credentials/status/2');
  expect(first.status).toBe(200);
  const maxAge = Number(/^public, max-age=(\d+)$/.exec(first.cache!)![1]);
  expect(maxAge).toBeGreaterThanOrEqual(55);
  expect(maxAge).toBeLessThanOrEqual(60);
  // Asked again at once: the same token, not signed anew.
  expect((await get('/credentials/status/2')).text).toBe(first.text);
  // Five seconds on (Signet's clock), it is signed again.
  h.clock.advance(5000);
  const later = await get('/credentials/status/2');
  expect(later.text).not.toBe(first.text);
  expect(decodeJwt(later.text).iat! - decodeJwt(first.text).iat!).toBeGreaterThanOrEqual(5);
});
