// The account's changes come only from Signet's own pages: a request that changes something
// under an owner session must come from the issuer's origin (Origin, or Sec-Fetch-Site where
// no Origin is sent) and carry the session's form token. A page of another site, a sibling
// subdomain's (same site, so the SameSite cookie goes along), or a request without the token
// is refused 403 with its reason, and nothing changes.
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { credentialIssuerSettings } from '../support/credential_issuer_settings.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';

let h: Harness;
let agent: UserAgent;
let identity: `0x${string}`;
/** Another owner's session: its token is no token of the first's. */
let other: UserAgent;

beforeAll(async () => {
  // Credentials issued here too: their page's and API's revocations are among the routes checked.
  h = await startSignet({ configure: (chain) => credentialIssuerSettings(chain, 'admin-token-for-the-account-form-tests') });
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.chain.createIdentityFor(h.chain.accounts[1]!.address);
  ({ agent } = await signInToAccount(h.issuer, h.chain.accounts[0]!));
  ({ agent: other } = await signInToAccount(h.issuer, h.chain.accounts[1]!));
  await h.signet.profiles.set(identity, { given_name: 'Ada' });
});
afterAll(async () => {
  await h.close();
});

const issuerUrl = () => new URL(h.issuer);
/** What a browser sends from each kind of page. */
const FROM = {
  evil: () => ({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
  sibling: () => ({ origin: `${issuerUrl().protocol}//sibling.${issuerUrl().host}`, 'sec-fetch-site': 'same-site' }),
  siblingWithoutOrigin: () => ({ 'sec-fetch-site': 'same-site' }),
  /** A sandboxed frame, or a page with no-referrer on another site. */
  opaque: () => ({ origin: 'null', 'sec-fetch-site': 'cross-site' }),
  own: () => ({ origin: issuerUrl().origin, 'sec-fetch-site': 'same-origin' }),
  /** Signet's own form, as a browser posts it under the pages' Referrer-Policy: no-referrer. */
  ownForm: () => ({ origin: 'null', 'sec-fetch-site': 'same-origin' }),
};

/** A request with the owner's cookie, as another page makes the browser send it: headers and token as given, nothing added. */
function send(method: string, path: string, options: { headers?: Record<string, string>; form?: Record<string, string>; json?: unknown } = {}) {
  const headers: Record<string, string> = { cookie: agent.cookieHeader(), ...options.headers };
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  return fetch(`${h.issuer}${path}`, { method, headers, body, redirect: 'manual' });
}
const profile = async () => JSON.parse((await h.store.get(keys.profile(identity)))!) as Record<string, unknown>;
const token = () => agent.formToken!;

async function expectRefused(answer: Response, reason: 'cross_origin_request' | 'form_token_invalid') {
  expect({ status: answer.status, reason: ((await answer.json()) as { reason?: string }).reason }).toEqual({ status: 403, reason });
}

describe('the profile form', () => {
  test.each([
    ['another site', FROM.evil],
    ['a sibling subdomain', FROM.sibling],
    ['a sibling subdomain that sends no Origin', FROM.siblingWithoutOrigin],
    ['an opaque origin (a sandboxed frame)', FROM.opaque],
  ])('posted from %s, even with the token, is refused and changes nothing', async (_from, headers) => {
    const answer = await send('POST', '/account/profile', {
      headers: { ...headers(), accept: 'application/json' },
      form: { given_name: 'Mallory', csrf_token: token() },
    });
    await expectRefused(answer, 'cross_origin_request');
    expect(await profile()).toEqual({ given_name: 'Ada' });
  });

  test.each([
    ['no token', () => ({})],
    ['another session’s token', () => ({ csrf_token: other.formToken! })],
    ['an empty token', () => ({ csrf_token: '' })],
  ])('posted from Signet’s origin with %s is refused and changes nothing', async (_what, fields) => {
    const answer = await send('POST', '/account/profile', {
      headers: { ...FROM.own(), accept: 'application/json' },
      form: { given_name: 'Mallory', ...fields() },
    });
    await expectRefused(answer, 'form_token_invalid');
    expect(await profile()).toEqual({ given_name: 'Ada' });
  });

  test('posted from the page, with the token in its field, is saved', async () => {
    const answer = await send('POST', '/account/profile', {
      headers: FROM.ownForm(),
      form: { given_name: 'Ada', family_name: 'Lovelace', csrf_token: token() },
    });
    expect({ status: answer.status, location: answer.headers.get('location') }).toEqual({ status: 302, location: '/account/profile?saved=1' });
    expect(await profile()).toEqual({ given_name: 'Ada', family_name: 'Lovelace' });
  });

  test("the page carries the session's token in its form and for its scripts", async () => {
    const page = await (await agent.fetch(`${h.issuer}/account/profile`)).text();
    expect(page).toContain(`<input type="hidden" name="csrf_token" value="${token()}">`);
    expect(page).toContain(`<meta name="csrf-token" content="${token()}">`);
  });

  test("what to fix is said in the page's language, beside each input, and nothing is saved", async () => {
    const before = await profile();
    const answer = await send('POST', '/account/profile', {
      headers: { ...FROM.ownForm(), cookie: `${agent.cookieHeader()}; signet_lang=de` },
      form: { given_name: 'Ada', region: 'x'.repeat(101), phone_number: '0612345678', csrf_token: token() },
    });
    expect(answer.status).toBe(400);
    const page = await answer.text();
    expect(page).toContain('<p class="field-error" id="region-error">Region: höchstens 100 Zeichen</p>');
    expect(page).toContain('<p class="field-error" id="phone_number-error">Geben Sie die Telefonnummer im internationalen Format ein, etwa +33612345678</p>');
    expect(await profile()).toEqual(before);
  });
});

test("revoking a website's login from another origin or without the token leaves it active", async () => {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { tokens } = await logIn(login, h.chain.accounts[0]!);
  const page = await (await agent.fetch(`${h.issuer}/account/accesses`)).text();
  const grantId = decodeURIComponent(/action="\/account\/accesses\/([^/"]+)\/revoke"/.exec(page)![1]!);
  const userinfo = () => fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });

  await expectRefused(
    await send('POST', `/account/accesses/${encodeURIComponent(grantId)}/revoke`, {
      headers: { ...FROM.sibling(), accept: 'application/json' },
      form: { csrf_token: token() },
    }),
    'cross_origin_request',
  );
  await expectRefused(
    await send('POST', `/access-grants/${encodeURIComponent(grantId)}/revocations`, { headers: FROM.evil(), json: {} }),
    'cross_origin_request',
  );
  await expectRefused(await send('POST', `/access-grants/${encodeURIComponent(grantId)}/revocations`, { json: {} }), 'form_token_invalid');
  expect((await userinfo()).status).toBe(200);

  const revoked = await send('POST', `/account/accesses/${encodeURIComponent(grantId)}/revoke`, { headers: FROM.ownForm(), form: { csrf_token: token() } });
  expect(revoked.status).toBe(302);
  expect((await userinfo()).status).toBe(401);
});

test('the JSON API under a session: another origin or no token changes nothing; the token header is taken', async () => {
  const webhook = { url: 'https://hooks.example.org/signet', secret: 'owner-webhook-secret-value' };
  await expectRefused(await send('PUT', '/account/webhook', { headers: FROM.evil(), json: webhook }), 'cross_origin_request');
  await expectRefused(await send('PUT', '/account/webhook', { json: webhook }), 'form_token_invalid');
  await expectRefused(await send('POST', '/account/erasure/challenge', { headers: FROM.sibling(), json: {} }), 'cross_origin_request');
  await expectRefused(await send('POST', '/account/erasure/challenge', { json: {} }), 'form_token_invalid');
  expect((await agent.getJson(`${h.issuer}/account/webhook`)).json).toEqual({ url: null });
  expect(await h.store.get(keys.ownerWebhook(identity))).toBeUndefined();
  // From the page's script, which sends the token as a header: taken.
  expect((await agent.postJson(`${h.issuer}/account/erasure/challenge`, {})).status).toBe(200);
});

test('every route that changes something under an owner session refuses another origin and a missing token, before anything else', async () => {
  // From the route table: the routes whose caller is an owner session, and those that take one
  // besides an owner's signature (revocations) or end one (sign-out).
  const sessionKinds = new Set(['owner_session', 'wallet_session', 'api_key_or_owner_session']);
  const takesSession = new Set(['/access-grants/{id}/revocations', '/account/logout', '/account/signout']);
  const changing = h.signet.routes.filter((each) => each.method !== 'get' && (sessionKinds.has(each.auth.kind) || takesSession.has(each.path)));
  expect(changing.length).toBeGreaterThanOrEqual(15);
  expect(changing.map((each) => each.path)).toEqual(
    expect.arrayContaining(['/account/wallet-credentials/{id}/revoke', '/account/credentials/{id}/revocation', '/account/erasure']),
  );
  for (const each of changing) {
    const path = each.path.replace(/\{[^}]+\}/g, 'some-id');
    const method = each.method.toUpperCase();
    const body = each.bodyLimit === 'form' ? { form: {} } : { json: {} };
    const sibling = await send(method, path, { headers: { ...FROM.sibling(), accept: 'application/json', 'x-csrf-token': token() }, ...body });
    const tokenless = await send(method, path, { headers: { ...FROM.own(), accept: 'application/json' }, ...body });
    const reasonOf = async (answer: Response) => ({ status: answer.status, reason: ((await answer.json()) as { reason?: string }).reason });
    expect({ route: `${method} ${each.path}`, sibling: await reasonOf(sibling), tokenless: await reasonOf(tokenless) }).toEqual({
      route: `${method} ${each.path}`,
      sibling: { status: 403, reason: 'cross_origin_request' },
      tokenless: { status: 403, reason: 'form_token_invalid' },
    });
  }
});

test('signing out from another origin or without the token keeps the session', async () => {
  await expectRefused(await send('POST', '/account/signout', { headers: { ...FROM.evil(), accept: 'application/json' }, form: {} }), 'cross_origin_request');
  await expectRefused(await send('POST', '/account/logout', { headers: FROM.sibling() }), 'cross_origin_request');
  await expectRefused(await send('POST', '/account/logout'), 'form_token_invalid');
  expect((await agent.getJson(`${h.issuer}/account/inbox`)).status).toBe(200);
});

test('a sign-in started or finished from another origin is refused before any cookie is set', async () => {
  const started = await fetch(`${h.issuer}/account/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...FROM.evil() },
    body: JSON.stringify({ address: h.chain.accounts[0]!.address }),
  });
  expect(started.headers.getSetCookie()).toEqual([]);
  await expectRefused(started, 'cross_origin_request');
  const finished = await fetch(`${h.issuer}/account/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...FROM.sibling() },
    body: JSON.stringify({ signature: `0x${'00'.repeat(65)}`, message: 'x' }),
  });
  await expectRefused(finished, 'cross_origin_request');
});

test("a login's steps posted from another origin change nothing; the login then finishes from its own page", async () => {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const wallet = h.chain.accounts[0]!;
  for (const from of [FROM.evil(), FROM.sibling()]) {
    for (const [step, body] of [
      ['challenge', { address: wallet.address }],
      ['signature', { signature: `0x${'00'.repeat(65)}`, message: 'x' }],
      ['abort', {}],
    ] as const) {
      const answer = await login.agent.fetch(`${login.interactionUrl}/${step}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from },
        body: JSON.stringify(body),
      });
      await expectRefused(answer, 'cross_origin_request');
    }
  }
  const { tokens } = await logIn(login, wallet);
  expect(tokens.access_token).toEqual(expect.any(String));
});
