// Dynamic client registration (RFC 7591) and its management (RFC 7592) in each of its three
// modes (CLIENT_REGISTRATION), with openid-client registering as a website would: off (no /reg,
// no registration_endpoint), behind a fixed initial access token, and open. A registered client
// meets Signet's rules as one the admin API adds (the standard error JSON when it breaks one),
// logs in, is read, replaced (the registration access token rotating) and deleted with its
// registration access token, and its deletion makes its tokens fail.
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import { type Json, jsonApi } from '../support/json_api.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { registeredWebsite, websiteMetadata } from '../support/registration_metadata.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const INITIAL_ACCESS_TOKEN = 'initial-access-token-for-the-registration-tests';
const NOWHERE = 'nowhere.invalid';

type Mode = 'off' | 'initial_access_token' | 'open';

async function startIn(mode: Mode): Promise<Harness> {
  return startSignet({
    clients: [WEBSITE],
    configure: () => ({
      clientRegistration: mode,
      ...(mode === 'initial_access_token' ? { registrationAccessToken: INITIAL_ACCESS_TOKEN } : {}),
      webhooks: { allowPrivate: true },
    }),
    resolveHost: async (host) => {
      if (host === NOWHERE) throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 }];
    },
  });
}

const metadata = websiteMetadata;

const register = (h: Harness, body: Record<string, unknown>, initialAccessToken?: string) =>
  oidc.dynamicClientRegistration(new URL(h.issuer), body as Partial<oidc.ClientMetadata>, undefined, {
    execute: [oidc.allowInsecureRequests],
    initialAccessToken,
  });

/** The engine's error answer, as openid-client rejects with it. */
const engineError = (status: number, error: string, description: string) => ({ status, error, error_description: description });

/** A registration request as sent on the wire: the status and the JSON answered. */
async function post(h: Harness, body: unknown, token?: string) {
  const response = await fetch(`${h.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Json, challenge: response.headers.get('www-authenticate') };
}

async function ownerOf(h: Harness): Promise<{ owner: LocalAccount; identity: Address }> {
  const owner = h.chain.accounts[0]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  return { owner, identity };
}

describe('CLIENT_REGISTRATION=off (the default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIn('off');
  }, 60_000);
  afterAll(async () => h.close());

  test('/reg answers 404 and discovery names no registration_endpoint', async () => {
    const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Json;
    expect(discovery.registration_endpoint).toBeUndefined();
    expect((await post(h, metadata('Shop'))).status).toBe(404);
    await expect(register(h, metadata('Shop'))).rejects.toThrow();
  });
});

describe('CLIENT_REGISTRATION=initial_access_token', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIn('initial_access_token');
  }, 60_000);
  afterAll(async () => h.close());

  test('a registration without the initial access token, or with a wrong one, is refused 401 invalid_token', async () => {
    expect(await post(h, metadata('Shop'))).toMatchObject({
      status: 401,
      json: { error: 'invalid_token', error_description: 'no access token provided' },
      challenge: expect.stringMatching(/^Bearer /),
    });
    expect(await post(h, metadata('Shop'), `${INITIAL_ACCESS_TOKEN}-wrong`)).toMatchObject({
      status: 401,
      json: { error: 'invalid_token', error_description: 'invalid token provided' },
    });
    await expect(register(h, metadata('Shop'))).rejects.toMatchObject({ status: 401 });
  });

  test('with it: registered, logs in; read, replaced (its registration access token rotates) and deleted by RFC 7592; then its tokens fail', async () => {
    const registered = await register(h, metadata('Shop'), INITIAL_ACCESS_TOKEN);
    const client = registered.clientMetadata() as Json;
    expect(client).toMatchObject({
      client_id: expect.any(String),
      client_secret: expect.any(String),
      client_name: 'Shop',
      registration_access_token: expect.any(String),
      registration_client_uri: `${h.issuer}/reg/${client.client_id}`,
    });
    const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Json;
    expect(discovery.registration_endpoint).toBe(`${h.issuer}/reg`);

    // It logs in as any website does.
    const { owner, identity } = await ownerOf(h);
    const website = registeredWebsite(client);
    const login = await startLogin(h.issuer, website, { scope: 'openid email' });
    const { tokens } = await logIn(login, owner);
    expect(tokens.claims()).toMatchObject({ aud: client.client_id, email: 'ada@example.org' });

    const manage = (method: string, token: string, body?: unknown) =>
      fetch(client.registration_client_uri as string, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const read = await manage('GET', client.registration_access_token as string);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ client_id: client.client_id, client_name: 'Shop' });

    const replaced = await manage('PUT', client.registration_access_token as string, {
      ...metadata('Shop'),
      client_id: client.client_id,
      client_name: 'Shop Renamed',
    });
    expect(replaced.status).toBe(200);
    const after = (await replaced.json()) as Json;
    expect(after).toMatchObject({ client_name: 'Shop Renamed', client_secret: client.client_secret });
    expect(after.registration_access_token).not.toBe(client.registration_access_token);
    expect((await manage('GET', client.registration_access_token as string)).status).toBe(401);

    const deleted = await manage('DELETE', after.registration_access_token as string);
    expect(deleted.status).toBe(204);
    expect((await manage('GET', after.registration_access_token as string)).status).toBe(401);
    await expect(oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
    const userinfo = await fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(401);
    expect(await jsonApi(() => h.issuer)('GET', `/identities/${identity}/profile`, { token: tokens.access_token })).toMatchObject({
      status: 401,
      json: { error: 'invalid_token', reason: 'token_invalid' },
    });
  });

  test("a registration that breaks Signet's rules gets the standard error JSON: invalid_client_metadata, invalid_redirect_uri", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [metadata('Hooked', { webhook_url: 'https://hooks.example/signet' }), 'invalid_client_metadata', 'webhook_secret is required with webhook_url'],
      [
        metadata('Hooked', { webhook_url: 'https://hooks.example/signet', webhook_secret: 'short' }),
        'invalid_client_metadata',
        'webhook_secret needs at least 16 characters',
      ],
      [
        metadata('Hooked', { webhook_url: `https://${NOWHERE}/hook`, webhook_secret: 'a-webhook-secret-long-enough' }),
        'invalid_client_metadata',
        `webhook_url is refused: the webhook host ${NOWHERE} does not resolve`,
      ],
      [
        metadata('Sid', { backchannel_logout_session_required: true }),
        'invalid_client_metadata',
        'backchannel_logout_session_required needs backchannel_logout_uri',
      ],
      [metadata('Fragment', { redirect_uris: ['https://fragment.example/callback#part'] }), 'invalid_redirect_uri', 'redirect_uris must not contain fragments'],
    ];
    for (const [body, error, description] of cases) {
      await expect(register(h, body, INITIAL_ACCESS_TOKEN)).rejects.toMatchObject(engineError(400, error, description));
    }
  });
});

describe('CLIENT_REGISTRATION=open', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIn('open');
  }, 60_000);
  afterAll(async () => h.close());

  test('anyone registers, without a token, and the client logs in', async () => {
    const registered = await register(h, metadata('Open Shop'));
    const client = registered.clientMetadata() as Json;
    expect(client).toMatchObject({ client_name: 'Open Shop', registration_access_token: expect.any(String) });
    const { owner } = await ownerOf(h);
    const website = registeredWebsite(client);
    const { tokens } = await logIn(await startLogin(h.issuer, website, { scope: 'openid email' }), owner);
    expect(tokens.claims()).toMatchObject({ aud: client.client_id });
  });
  test('what owners read of a registered client is refused with its reason: names that pass for Signet, its clients or the signed text; links off its site', async () => {
    const meta = (extra: Record<string, unknown>) => metadata('Shop', extra);
    const cases: [Record<string, unknown>, string][] = [
      [meta({ client_name: 'Signet' }), 'client_name is too close to "Signet", a name of this Signet or of a website its operator configured'],
      [meta({ client_name: 'S1GNET Login' }), 'client_name is too close to "Signet", a name of this Signet or of a website its operator configured'],
      [meta({ client_name: 'Your Wallet' }), 'client_name is too close to "Your wallet", a name of this Signet or of a website its operator configured'],
      // "Test Wеbsite" with a Cyrillic "е": the configured website's name, to the eye.
      [meta({ client_name: 'Test W\u0435bsite' }), 'client_name is too close to "Test Website", a name of this Signet or of a website its operator configured'],
      [meta({ 'client_name#fr': 'Ｓｉｇｎｅｔ' }), 'client_name#fr is too close to "Signet", a name of this Signet or of a website its operator configured'],
      [
        meta({ client_name: 'Shop. By signing you share nothing' }),
        'client_name may hold only letters, digits, single spaces and & \' - _ ( ) +, with a "." only inside a word',
      ],
      [meta({ client_name: 'Shop\nBy signing' }), 'client_name may hold only letters, digits, single spaces and & \' - _ ( ) +, with a "." only inside a word'],
      [meta({ client_name: 'Shop by signing you agree' }), 'client_name must not hold "by signing": it could pass for the text owners sign'],
      // Other schemes than http(s): the engine's own check refuses them first.
      [meta({ policy_uri: 'javascript:alert(1)' }), 'policy_uri must be a web uri'],
      [meta({ tos_uri: 'data:text/html,hello' }), 'tos_uri must be a web uri'],
      [meta({ client_uri: 'http://shop.example/' }), 'client_uri must be an https URL'],
      [meta({ policy_uri: 'https://elsewhere.example/privacy' }), 'policy_uri must be on the host of a redirect URI (shop.example)'],
      [meta({ logo_uri: 'https://cdn.example/logo.png' }), 'logo_uri must be on the host of a redirect URI (shop.example)'],
    ];
    for (const [body, description] of cases) {
      const answer = await post(h, body);
      expect({ body, status: answer.status, json: answer.json }).toEqual({
        body,
        status: 400,
        json: { error: 'invalid_client_metadata', error_description: description, reason: 'invalid_client_metadata' },
      });
    }
  });

  test('a registered client with its names by language and links on its site: kept, and the consent request names its host and marks it', async () => {
    const registered = await register(
      h,
      metadata('Corner Shop', {
        'client_name#fr': 'Épicerie du coin',
        'client_name#ja': '街角の店',
        policy_uri: 'https://corner-shop.example/privacy',
        tos_uri: 'https://corner-shop.example/terms',
        client_uri: 'https://corner-shop.example/',
      }),
    );
    const client = registered.clientMetadata() as Json;
    expect(client).toMatchObject({ 'client_name#fr': 'Épicerie du coin', 'client_name#ja': '街角の店', policy_uri: 'https://corner-shop.example/privacy' });
    const website = registeredWebsite(client);
    const login = await startLogin(h.issuer, website, { scope: 'openid email' });
    const view = await login.agent.getJson(login.interactionUrl);
    expect(view.json.client).toEqual({
      client_id: client.client_id,
      name: 'Corner Shop',
      redirect_host: 'corner-shop.example',
      registered_at_run_time: true,
      names: { fr: 'Épicerie du coin', ja: '街角の店' },
      links: { client_uri: 'https://corner-shop.example/', policy_uri: 'https://corner-shop.example/privacy', tos_uri: 'https://corner-shop.example/terms' },
    });
  });
});
