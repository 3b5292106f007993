// One test per way a login must be refused, each with the exact status and error.
import * as oidc from 'openid-client';
import { type Address, getAddress, type Hex } from 'viem';
import { createChallengeIssuer } from '../../src/domain/wallet/challenge.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey, deployLooseIdentity, removeKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { keys } from '../../src/infra/store/keys.js';
import { followToCallback, logIn, requestChallenge, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';

let h: Harness;
let identity: Address;

// A contract whose every call returns 32 bytes of value 1: it says yes to keyHasPurpose.
// Init code: PUSH10 <runtime> PUSH1 0 MSTORE PUSH1 10 PUSH1 22 RETURN.
const YES_TO_EVERYTHING: Hex = '0x69600160005260206000f3600052600a6016f3';

const owner = () => h.chain.accounts[0]!;
const stranger = () => h.chain.accounts[5]!;

beforeAll(async () => {
  h = await startSignet();
  identity = await h.chain.createIdentityFor(owner().address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
});

afterAll(async () => {
  await h.close();
});

const edit = (message: string, from: string, to: string) => {
  expect(message).toContain(from);
  return message.replace(from, to);
};

async function signedEdit(from: (m: string) => string, to: (m: string) => string) {
  const login = await startLogin(h.issuer, WEBSITE);
  const { message } = await signChallenge(login, owner());
  const tampered = edit(message, from(message), to(message));
  const signature = await owner().signMessage({ message: tampered });
  return submitSignature(login, { signature, message: tampered });
}

describe('the signed message must be exactly the challenge Signet issued', () => {
  test('wrong domain', async () => {
    const answer = await signedEdit(
      () => `${new URL(h.issuer).host} wants`,
      () => 'evil.example wants',
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'message_mismatch', error_description: '"domain" does not match the challenge' });
  });

  test('wrong chain id', async () => {
    const answer = await signedEdit(
      () => 'Chain ID: 31337',
      () => 'Chain ID: 1',
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'message_mismatch', error_description: '"chainId" does not match the challenge' });
  });

  test('wrong uri', async () => {
    const answer = await signedEdit(
      () => `URI: ${h.issuer}`,
      () => 'URI: https://evil.example',
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'message_mismatch', error_description: '"uri" does not match the challenge' });
  });

  test('a field added after Signet issued it', async () => {
    const answer = await signedEdit(
      () => 'Resources:\n',
      () => `Resources:\n- ${h.issuer}/identities/${identity}/profile#phone_number\n`,
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'message_mismatch', error_description: '"resources" does not match the challenge' });
  });

  test('a statement edited after Signet issued it', async () => {
    const answer = await signedEdit(
      () => 'By signing you share',
      () => 'By signing you share nothing but',
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'message_mismatch', error_description: '"statement" does not match the challenge' });
  });

  test('text that is not an EIP-4361 message', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    await signChallenge(login, owner());
    const answer = await submitSignature(login, { signature: '0x00', message: 'hello' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'message_malformed' });
  });
});

describe('the challenge is single-use, short-lived and bound to its interaction', () => {
  test('expired message', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const { message, signature } = await signChallenge(login, owner());
    h.clock.advance(300_000);
    try {
      const late = await submitSignature(login, { signature, message });
      expect(late.status).toBe(410);
      expect(late.json).toMatchObject({ error: 'expired', reason: 'challenge_expired' });
    } finally {
      h.clock.advance(-300_000);
    }
  });

  test('the challenge expires at most 5 minutes after it is issued', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const { message } = await signChallenge(login, owner());
    const issuedAt = Date.parse(/Issued At: (.+)/.exec(message)![1]!);
    const expiresAt = Date.parse(/Expiration Time: (.+)/.exec(message)![1]!);
    expect(expiresAt - issuedAt).toBe(300_000);
    expect(message).toContain(`Request ID: interaction:${login.uid}`);
    expect(/Nonce: ([A-Za-z0-9]{8,})/.test(message)).toBe(true);
  });

  test('replayed signature', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const { message, signature } = await signChallenge(login, owner());
    const first = await submitSignature(login, { signature, message });
    expect(first.status).toBe(200);
    const replay = await submitSignature(login, { signature, message });
    expect(replay.status).toBe(409);
    expect(replay.json).toMatchObject({ error: 'conflict', reason: 'challenge_used' });
  });

  test('nonce of another interaction', async () => {
    const first = await startLogin(h.issuer, WEBSITE);
    const second = await startLogin(h.issuer, WEBSITE);
    await signChallenge(second, owner());
    const { message, signature } = await signChallenge(first, owner());
    const answer = await submitSignature(second, { signature, message });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'nonce_other_binding' });
  });

  test('a signature before any challenge', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await submitSignature(login, { signature: '0x1234' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'invalid_request', reason: 'challenge_missing' });
  });
});

describe('only a wallet linked to an identity the IdFactory knows may sign', () => {
  test('a signature by an unlinked wallet', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const { message } = await signChallenge(login, owner());
    const signature = await stranger().signMessage({ message });
    const answer = await submitSignature(login, { signature });
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ error: 'invalid_signature', reason: 'signature_invalid' });
  });

  test('an unlinked wallet asking for a challenge on the identity', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await requestChallenge(login, { address: stranger().address, identity });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied', reason: 'wallet_not_linked' });
  });

  test('a wallet without an identity and none given', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await requestChallenge(login, { address: stranger().address });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ error: 'not_found', reason: 'wallet_without_identity' });
  });

  test('a wallet with only a CLAIM key (purpose 3)', async () => {
    const claimSigner = h.chain.accounts[6]!;
    await addKey(h.chain.as(owner()), identity, claimSigner.address, KeyPurpose.CLAIM);
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await requestChallenge(login, { address: claimSigner.address, identity });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied', reason: 'wallet_not_linked' });
  });

  test('an ACTION key may log in', async () => {
    const actor = h.chain.accounts[7]!;
    await addKey(h.chain.as(owner()), identity, actor.address, KeyPurpose.ACTION);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
    const { tokens } = await logIn(login, actor, { identity });
    expect(tokens.claims()!.sub).toBe(`eip155:31337:${identity}`);
  });

  test('a key removed onchain after the challenge', async () => {
    const actor = h.chain.accounts[8]!;
    await addKey(h.chain.as(owner()), identity, actor.address, KeyPurpose.ACTION);
    const login = await startLogin(h.issuer, WEBSITE);
    const { message, signature } = await signChallenge(login, actor, { identity });
    await removeKey(h.chain.as(owner()), identity, actor.address, KeyPurpose.ACTION);
    const answer = await submitSignature(login, { signature, message });
    expect(answer.status).toBe(403);
    expect(answer.json).toMatchObject({ error: 'access_denied', reason: 'wallet_not_linked' });
  });

  test('an identity the factory does not know: a contract that says yes to every key', async () => {
    const hash = await h.chain.deployer.wallet.sendTransaction({
      data: YES_TO_EVERYTHING,
      account: h.chain.deployer.wallet.account,
      chain: h.chain.deployer.wallet.chain,
    });
    const { contractAddress } = await h.chain.client.waitForTransactionReceipt({ hash });
    const liar = getAddress(contractAddress!);
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await requestChallenge(login, { address: stranger().address, identity: liar });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ error: 'not_found', reason: 'identity_not_found', previous_reason: 'identity_not_registered' });
  });

  test('an identity the factory does not know: a real Identity deployed by hand', async () => {
    const loose = await deployLooseIdentity(h.chain.deployer, stranger().address);
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await requestChallenge(login, { address: stranger().address, identity: loose });
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ error: 'not_found', reason: 'identity_not_found', previous_reason: 'identity_not_registered' });
  });
});

describe('the authorization code flow refuses what OAuth 2.0 security asks it to', () => {
  const authorize = (params: Record<string, string>) => {
    const url = new URL(`${h.issuer}/auth`);
    for (const [k, v] of Object.entries({ client_id: 'website', response_type: 'code', scope: 'openid', state: 'st', ...params })) {
      url.searchParams.set(k, v);
    }
    return new UserAgent().fetch(url);
  };

  test('missing PKCE', async () => {
    const response = await authorize({ redirect_uri: WEBSITE.redirect_uris[0]! });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin + location.pathname).toBe(WEBSITE.redirect_uris[0]);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toBe('Authorization Server policy requires PKCE to be used for this request');
    expect(location.searchParams.get('state')).toBe('st');
    expect(location.searchParams.get('iss')).toBe(h.issuer);
  });

  test('PKCE with the plain method', async () => {
    const response = await authorize({
      redirect_uri: WEBSITE.redirect_uris[0]!,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    const location = new URL(response.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toBe('not supported value of code_challenge_method');
  });

  test('unregistered redirect_uri', async () => {
    const response = await authorize({ redirect_uri: 'https://evil.example/callback', code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const html = await response.text();
    expect(html).toContain('redirect_uri did not match any of the client&#39;s registered redirect_uris');
    expect(html).toContain('<code>invalid_redirect_uri</code>');
  });

  test('wrong code_verifier', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const signed = await signChallenge(login, owner());
    const answer = await submitSignature(login, { signature: signed.signature });
    const callback = await followToCallback(login, answer.json.redirect_to as string);
    await expect(
      oidc.authorizationCodeGrant(login.config, callback, {
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
        expectedState: login.state,
        expectedNonce: login.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant', error_description: 'grant request is invalid' });
  });

  test('code reused: refused, and the tokens it gave are revoked', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const { tokens, callback } = await logIn(login, owner());
    const sub = tokens.claims()!.sub;
    expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toMatchObject({ sub });
    await expect(
      oidc.authorizationCodeGrant(login.config, callback, {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant', error_description: 'grant request is invalid' });
    await expect(oidc.fetchUserInfo(login.config, tokens.access_token, sub)).rejects.toMatchObject({ status: 401 });
    await expect(oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('the interaction itself', () => {
  test('refuses requests without its cookie', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const thief = new UserAgent();
    const page = await thief.getJson(login.interactionUrl);
    expect(page.status).toBe(403);
    expect(page.json).toMatchObject({ error: 'access_denied', reason: 'interaction_cookie_missing' });
    const challenge = await thief.postJson(`${login.interactionUrl}/challenge`, { address: owner().address });
    expect(challenge).toMatchObject({ status: 403, json: { error: 'access_denied', reason: 'interaction_cookie_missing' } });
  });

  test("refuses another login's cookie: each login answers only the browser that started it", async () => {
    const first = await startLogin(h.issuer, WEBSITE);
    const second = await startLogin(h.issuer, WEBSITE);
    // The first login's browser, with its cookie, at the second login's address.
    const view = await first.agent.getJson(second.interactionUrl);
    expect(view).toMatchObject({ status: 403, json: { error: 'access_denied', reason: 'interaction_mismatch' } });
    const challenge = await first.agent.postJson(`${second.interactionUrl}/challenge`, { address: owner().address });
    expect(challenge).toMatchObject({ status: 403, json: { error: 'access_denied', reason: 'interaction_mismatch' } });
    const abort = await first.agent.postJson(`${second.interactionUrl}/abort`, {});
    expect(abort).toMatchObject({ status: 403, json: { error: 'access_denied', reason: 'interaction_mismatch' } });
    // Neither login was touched: the second one still answers its own browser.
    expect((await second.agent.getJson(second.interactionUrl)).status).toBe(200);
  });

  test('a finished login is gone: its old cookie gets interaction_not_found', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const cookie = login.agent.cookieHeader();
    const aborted = await login.agent.postJson(`${login.interactionUrl}/abort`, {});
    await followToCallback(login, aborted.json.redirect_to as string);
    const again = await fetch(login.interactionUrl, { headers: { cookie, accept: 'application/json' } });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error: 'not_found', reason: 'interaction_not_found' });
    const signature = await fetch(`${login.interactionUrl}/signature`, {
      method: 'POST',
      headers: { cookie, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ signature: '0x1234' }),
    });
    expect(signature.status).toBe(404);
    expect(await signature.json()).toMatchObject({ error: 'not_found', reason: 'interaction_not_found' });
  });

  test('a website removed from the configuration while its login waits: client_not_found (previously login_client_unknown)', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    // The stored login now names a client this Signet does not know (as after a redeploy without it).
    const key = keys.model('Interaction', login.uid);
    const stored = JSON.parse((await h.store.get(key))!) as { params: Record<string, unknown> };
    stored.params.client_id = 'removed-website';
    await h.store.set(key, JSON.stringify(stored), 600);
    const view = await login.agent.getJson(login.interactionUrl);
    expect(view).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'client_not_found', previous_reason: 'login_client_unknown' } });
    const challenge = await requestChallenge(login, { address: owner().address });
    expect(challenge).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'client_not_found', previous_reason: 'login_client_unknown' } });
  });

  test('a claim that is not a valid claim of a kept topic cannot be named', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await requestChallenge(login, { address: owner().address, claims: [`0x${'ab'.repeat(32)}`] });
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'consent_claim_not_shareable' } });
  });

  test('a malformed body gets a clear error and no stack trace', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const broken = await login.agent.fetch(`${login.interactionUrl}/challenge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"address": ',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: 'invalid_request', reason: 'invalid_json' });

    const badAddress = await requestChallenge(login, { address: 'not-an-address' });
    expect(badAddress.status).toBe(400);
    expect(badAddress.json).toMatchObject({ error: 'invalid_request', reason: 'invalid_body' });

    const unknownField = await requestChallenge(login, { address: owner().address, fields: ['shoe_size'] });
    expect(unknownField.status).toBe(400);
    expect(unknownField.json).toMatchObject({ error: 'invalid_request', reason: 'field_unknown', previous_reason: 'consent_field_unknown' });

    const notAsked = await requestChallenge(login, { address: owner().address, fields: ['phone_number'] });
    expect(notAsked.status).toBe(400);
    expect(notAsked.json).toMatchObject({ error: 'invalid_request', reason: 'consent_field_not_requested' });
  });

  test('abort sends the website access_denied', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const answer = await login.agent.postJson(`${login.interactionUrl}/abort`, {});
    expect(answer.status).toBe(200);
    const callback = await followToCallback(login, answer.json.redirect_to as string);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toBe('the identity owner declined the login');
    expect(callback.searchParams.get('state')).toBe(login.state);
  });

  test('an unknown path or a wrong method gets the error shape, not plain text', async () => {
    const missing = await new UserAgent().getJson(`${h.issuer}/nowhere`);
    expect(missing).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'route_not_found' } });
    const wrong = await new UserAgent().fetch(`${h.issuer}/access-grants/abc`, { method: 'PUT', headers: { accept: 'application/json' } });
    expect(wrong.status).toBe(405);
    expect(await wrong.json()).toMatchObject({ error: 'method_not_allowed', reason: 'method_not_allowed' });
  });

  test('pages send a strict Content-Security-Policy', async () => {
    const login = await startLogin(h.issuer, WEBSITE);
    const page = await login.agent.fetch(login.interactionUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/^default-src 'none'; script-src 'self' 'nonce-[A-Za-z0-9+/=]+'; style-src 'self' 'nonce-[A-Za-z0-9+/=]+'; /);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    // The page carries its own scripts and stylesheet: each under this answer's nonce, none without it.
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)![1]!;
    // A JSON data block (the page scripts' messages in the owner's language) is never run, so
    // script-src does not apply to it; it holds no `<` that could close it early.
    const dataBlocks = [...html.matchAll(/<script type="application\/json" id="[a-z-]+">([^<]*)<\/script>/g)];
    expect(dataBlocks.length).toBe(1);
    const inline = [...html.matchAll(/<(script|style)(?![^>]*\bsrc=)(?![^>]*type="application\/json")([^>]*)>/g)];
    expect(inline.length).toBeGreaterThanOrEqual(4);
    for (const [, , attributes] of inline) expect(attributes).toBe(` nonce="${nonce}"`);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });
});

test('a challenge that names no identity cannot end a login', async () => {
  const login = await startLogin(h.issuer, WEBSITE);
  // Only an account sign-in's challenge names no identity; one bound to this login is refused all the same.
  const issue = createChallengeIssuer(h.store, { issuer: h.issuer, chainId: h.chain.anvil.chainId, ttlSeconds: 300 }, h.clock.now);
  const challenge = await issue({
    binding: `interaction:${login.uid}`,
    wallet: owner().address,
    identity: null,
    statement: 'Sign in.',
    fields: [],
    resources: [h.issuer],
  });
  const signature = await owner().signMessage({ message: challenge.message });
  const answer = await submitSignature(login, { signature, message: challenge.message });
  expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'challenge_identity_missing' } });
});
