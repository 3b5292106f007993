// The whole login as a website sees it, against real Redis, a real anvil with the ONCHAINID
// contracts and openid-client as the relying party.
import * as oidc from 'openid-client';
import { getAddress } from 'viem';
import { discover, followToCallback, logIn, requestChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { basicAuth, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;
let identity: `0x${string}`;

beforeAll(async () => {
  h = await startSignet();
  const owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, {
    given_name: 'Ada',
    family_name: 'Lovelace',
    email: 'ada@example.org',
    website: 'https://example.org/ada',
    phone_number: '+442071234567',
  });
});

afterAll(async () => {
  await h.close();
});

test('discovery announces PKCE S256 only, iss in responses, and the standard endpoints', async () => {
  const config = await discover(h.issuer, WEBSITE);
  const metadata = config.serverMetadata();
  expect(metadata.issuer).toBe(h.issuer);
  expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
  expect(metadata.authorization_response_iss_parameter_supported).toBe(true);
  expect(metadata.response_types_supported).toEqual(['code']);
  for (const endpoint of [
    'token_endpoint',
    'userinfo_endpoint',
    'introspection_endpoint',
    'revocation_endpoint',
    'end_session_endpoint',
    'jwks_uri',
  ] as const) {
    expect(metadata[endpoint]).toMatch(new RegExp(`^${h.issuer}/`));
  }
  const jwks = (await (await fetch(metadata.jwks_uri!)).json()) as { keys: { kid: string; d?: string }[] };
  expect(jwks.keys.map((key) => key.kid)).toEqual(['test-key']);
  expect(jwks.keys[0]!.d).toBeUndefined();
});

test('login → tokens → userinfo with exactly the kept fields → refresh rotation → reuse revokes → revocation → logout', async () => {
  const owner = h.chain.accounts[0]!;
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });

  const view = await login.agent.getJson(login.interactionUrl);
  expect(view.status).toBe(200);
  expect(view.json).toEqual({
    uid: login.uid,
    // Who asks: where the answer goes, and that the operator configured it (CLIENTS).
    client: { client_id: 'website', name: 'Test Website', redirect_host: 'website.example', registered_at_run_time: false, names: {}, links: {} },
    fields: [
      { name: 'given_name', scope: 'profile', required: false, description: 'Your first name' },
      { name: 'family_name', scope: 'profile', required: false, description: 'Your last name' },
      { name: 'website', scope: 'profile', required: false, description: 'The address of your website' },
      { name: 'email', scope: 'email', required: false, description: 'Your email address' },
    ],
  });

  // The owner keeps first name and email, unticks last name and website.
  const { tokens, callback, signed } = await logIn(login, owner, { fields: ['given_name', 'email'] });
  expect(callback.searchParams.get('iss')).toBe(h.issuer);
  expect(signed.answer.identity).toBe(identity);
  expect(signed.message).toContain(
    `Resources:\n- eip155:31337:${identity}\n- ${h.issuer}/identities/${identity}/profile#given_name\n- ${h.issuer}/identities/${identity}/profile#email`,
  );

  const sub = `eip155:31337:${getAddress(identity)}`;
  const claims = tokens.claims()!;
  expect(claims.sub).toBe(sub);
  expect(claims.iss).toBe(h.issuer);
  expect(claims.aud).toBe('website');
  // The ID token carries the kept fields too, and nothing unticked.
  expect(claims.given_name).toBe('Ada');
  expect(claims.email).toBe('ada@example.org');
  expect(claims.family_name).toBeUndefined();
  expect(claims.website).toBeUndefined();
  expect(tokens.refresh_token).toEqual(expect.any(String));

  const userinfo = await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
  expect(userinfo).toEqual({ sub, given_name: 'Ada', email: 'ada@example.org' });

  // The consent receipt holds the exact signed text.
  const receipts = await h.signet.receipts.listFor(identity);
  const receipt = receipts.find((r) => r.message === signed.message);
  expect(receipt).toMatchObject({ client_id: 'website', wallet: owner.address, fields: ['given_name', 'email'], signature: signed.signature });

  // Refresh rotates: a new refresh token, and the old one is spent.
  const refreshed = await oidc.refreshTokenGrant(login.config, tokens.refresh_token!);
  expect(refreshed.refresh_token).toEqual(expect.any(String));
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect(await oidc.fetchUserInfo(login.config, refreshed.access_token, sub)).toEqual({ sub, given_name: 'Ada', email: 'ada@example.org' });

  // Reusing the rotated refresh token revokes the whole grant.
  await expect(oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).rejects.toMatchObject({
    error: 'invalid_grant',
    error_description: 'grant request is invalid',
  });
  await expect(oidc.refreshTokenGrant(login.config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  const introspected = await oidc.tokenIntrospection(login.config, refreshed.access_token);
  expect(introspected.active).toBe(false);
  await expect(oidc.fetchUserInfo(login.config, refreshed.access_token, sub)).rejects.toMatchObject({ status: 401 });

  // A second login, then revocation of its refresh token.
  const second = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const again = await logIn(second, owner);
  expect(await oidc.fetchUserInfo(second.config, again.tokens.access_token, sub)).toEqual({
    sub,
    given_name: 'Ada',
    family_name: 'Lovelace',
    website: 'https://example.org/ada',
    email: 'ada@example.org',
  });
  const active = await oidc.tokenIntrospection(second.config, again.tokens.access_token);
  expect(active).toMatchObject({ active: true, sub, client_id: 'website', scope: 'openid profile email' });
  await oidc.tokenRevocation(second.config, again.tokens.refresh_token!);
  await expect(oidc.refreshTokenGrant(second.config, again.tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

  // RP-initiated logout: confirm page, then back to the registered post-logout URI.
  const endSession = oidc.buildEndSessionUrl(second.config, {
    id_token_hint: again.tokens.id_token!,
    post_logout_redirect_uri: 'https://website.example/bye',
    state: 'bye-state',
  });
  const page = await second.agent.fetch(endSession);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('Sign out of Signet?');
  const action = /action="([^"]+)"/.exec(html)![1]!;
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
  const confirmed = await second.agent.fetch(new URL(action, h.issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }),
  });
  expect(confirmed.status).toBe(303);
  const back = new URL(confirmed.headers.get('location')!, h.issuer);
  // The engine may pass through its own success endpoint before the client's URI.
  const landing = back.href.startsWith(h.issuer) ? await followToCallback(second, back.href) : back;
  expect(landing.origin + landing.pathname).toBe('https://website.example/bye');
  expect(landing.searchParams.get('state')).toBe('bye-state');
});

test('a claims request with essential fields makes them required on the consent', async () => {
  const owner = h.chain.accounts[0]!;
  const login = await startLogin(h.issuer, WEBSITE, {
    scope: 'openid email',
    claims: { userinfo: { given_name: { essential: true } } },
  });
  const view = await login.agent.getJson(login.interactionUrl);
  expect(view.json.fields).toEqual([
    { name: 'given_name', scope: 'profile', required: true, description: 'Your first name' },
    { name: 'email', scope: 'email', required: false, description: 'Your email address' },
  ]);
  const refused = await login.agent.postJson(`${login.interactionUrl}/challenge`, { address: owner.address, fields: ['email'] });
  expect(refused).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'consent_field_required' } });

  const { tokens } = await logIn(login, owner, { fields: ['given_name'] });
  const sub = tokens.claims()!.sub;
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toEqual({ sub, given_name: 'Ada' });
});

test("the engine's own JSON errors carry their OAuth error code as the reason", async () => {
  const userinfo = await fetch(`${h.issuer}/me`, { headers: { authorization: 'Bearer not-a-token', accept: 'application/json' } });
  expect(userinfo.status).toBe(401);
  expect(await userinfo.json()).toMatchObject({ error: 'invalid_token', reason: 'invalid_token' });

  const introspection = await fetch(`${h.issuer}/token/introspection`, {
    method: 'POST',
    headers: { authorization: basicAuth({ ...WEBSITE, client_secret: 'wrong-secret' }), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: 'anything' }),
  });
  expect(introspection.status).toBe(401);
  expect(await introspection.json()).toMatchObject({ error: 'invalid_client', reason: 'invalid_client' });
});

test('each step of the interaction reads the login (Interaction) from the store once', async () => {
  const owner = h.chain.accounts[0]!;
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid email' });
  const Interaction = h.signet.provider.Interaction;
  const find = Interaction.find;
  let reads = 0;
  // Counts the engine's reads of the stored login; the store and the engine stay real.
  Interaction.find = function (this: typeof Interaction, ...args: Parameters<typeof find>) {
    reads++;
    return find.apply(this, args);
  } as typeof find;
  try {
    const readsOf = async (step: () => Promise<{ status: number }>) => {
      reads = 0;
      expect((await step()).status).toBe(200);
      return reads;
    };
    expect(await readsOf(() => login.agent.getJson(login.interactionUrl))).toBe(1);
    const challenge = await requestChallenge(login, { address: owner.address });
    const message = challenge.json.challenge as string;
    const signature = await owner.signMessage({ message });
    expect(await readsOf(() => submitSignature(login, { signature, message }))).toBe(1);
  } finally {
    Interaction.find = find;
  }
});
