// A client registered at run time chose its own redirect and logout URIs: where the engine would
// send the browser there without a click (an authorization error, the end of a logout), Signet
// answers a page that names the host, with the engine's exact answer behind a link or a button
// (RFC 9700 §4.11.2, decision 74). A client CLIENTS lists keeps the engine's direct redirect.
// The link is checked by openid-client as the website would read it: the error, the state, the iss.
import * as oidc from 'openid-client';
import type { ClientConfig } from '../../src/config/config.js';
import { continueLink, unescapeHtml } from '../support/leaving_page.js';
import { discover, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';

let h: Harness;
let shop: ClientConfig;

beforeAll(async () => {
  h = await startSignet({ clients: [WEBSITE], configure: () => ({ clientRegistration: 'open' }) });
  const registered = await fetch(`${h.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Shop',
      redirect_uris: ['https://shop.example/callback'],
      post_logout_redirect_uris: ['https://shop.example/bye'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }),
  });
  expect(registered.status).toBe(201);
  const made = (await registered.json()) as ClientConfig;
  shop = { ...made, client_id: made.client_id, client_secret: made.client_secret, redirect_uris: made.redirect_uris };
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** An authorization request with prompt=none from a browser without a Signet session. */
async function silentLogin(client: ClientConfig, extra: Record<string, string> = {}) {
  const config = await discover(h.issuer, client);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: client.redirect_uris[0]!,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    prompt: 'none',
    ...extra,
  });
  const response = await new UserAgent().fetch(url);
  return { config, verifier, state, response, html: await response.text() };
}

test('prompt=none for a run-time client: a page that names the host, no Location, and a link with the exact error response', async () => {
  const { config, verifier, state, response, html } = await silentLogin(shop);
  expect(response.status).toBe(200);
  expect(response.headers.get('location')).toBeNull();
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(html).toContain('<h1>You are leaving for shop.example</h1>');
  expect(html).toContain('<code>login_required</code>');
  const href = continueLink(html);
  const link = new URL(href);
  expect(`${link.origin}${link.pathname}`).toBe('https://shop.example/callback');
  expect([...link.searchParams.keys()].sort()).toEqual(['error', 'error_description', 'iss', 'state']);
  expect(Object.fromEntries(link.searchParams)).toMatchObject({ error: 'login_required', state, iss: h.issuer });
  // The website reads it as the authorization error it is: its state and its issuer check out.
  const read = oidc.authorizationCodeGrant(config, link, { expectedState: state, pkceCodeVerifier: verifier });
  await expect(read).rejects.toMatchObject({ name: 'AuthorizationResponseError', error: 'login_required' });
});

test('prompt=none for a client CLIENTS lists: the engine redirects at once', async () => {
  const { response, state } = await silentLogin(WEBSITE);
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe('https://website.example/callback');
  expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: 'login_required', state, iss: h.issuer });
});

test('response_mode=fragment: the link carries the answer in its fragment', async () => {
  const { response, html, state } = await silentLogin(shop, { response_mode: 'fragment' });
  expect(response.status).toBe(200);
  const link = new URL(continueLink(html));
  expect(link.search).toBe('');
  expect(Object.fromEntries(new URLSearchParams(link.hash.slice(1)))).toMatchObject({ error: 'login_required', state, iss: h.issuer });
});

test("response_mode=form_post: a button posts the engine's fields to the redirect URI, nothing posts by itself", async () => {
  const { response, html, state } = await silentLogin(shop, { response_mode: 'form_post' });
  expect(response.status).toBe(200);
  expect(html).toContain('<h1>You are leaving for shop.example</h1>');
  expect(html).not.toContain('document.forms[0].submit()');
  expect(html).toContain('<form method="post" action="https://shop.example/callback">');
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(([, name, value]) => [name, unescapeHtml(value!)]),
  );
  expect(fields).toMatchObject({ error: 'login_required', state, iss: h.issuer });
  expect(html).toMatch(/<button class="primary" type="submit" id="continue">Continue to shop.example<\/button>/);
});

test("a login the person abandons: the engine's access_denied, on its way back through resume, goes through the page too", async () => {
  const login = await startLogin(h.issuer, shop, { scope: 'openid' });
  const aborted = await login.agent.postJson(`${login.interactionUrl}/abort`, {});
  const resumed = await login.agent.fetch(new URL(aborted.json.redirect_to as string, h.issuer));
  expect(resumed.status).toBe(200);
  expect(resumed.headers.get('location')).toBeNull();
  const link = new URL(continueLink(await resumed.text()));
  expect(Object.fromEntries(link.searchParams)).toMatchObject({ error: 'access_denied', state: login.state, iss: h.issuer });
});

/** RP-initiated logout from a browser without a session: the engine's own form posts itself to /session/end/confirm. */
async function logout(client: ClientConfig, postLogout: string) {
  const agent = new UserAgent();
  const start = new URL(`${h.issuer}/session/end`);
  start.search = new URLSearchParams({ client_id: client.client_id, post_logout_redirect_uri: postLogout, state: 'bye-state' }).toString();
  const form = await agent.fetch(start);
  const page = await form.text();
  expect(form.status).toBe(200);
  const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)"\/>/g)].map(([, name, value]) => [name, value!]));
  const action = unescapeHtml(/<form method="post" action="([^"]*)">/.exec(page)![1]!);
  return agent.fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

test("a run-time client's logout ends on a page that names its host, with a link to its post_logout_redirect_uri", async () => {
  const confirmed = await logout(shop, 'https://shop.example/bye');
  expect(confirmed.status).toBe(200);
  expect(confirmed.headers.get('location')).toBeNull();
  const html = await confirmed.text();
  expect(html).toContain('<h1>You are leaving for shop.example</h1>');
  expect(html).toContain('You are signed out of Signet.');
  expect(continueLink(html)).toBe('https://shop.example/bye?state=bye-state');
});

test("a configured client's logout redirects at once", async () => {
  const confirmed = await logout(WEBSITE, 'https://website.example/bye');
  expect(confirmed.status).toBe(303);
  expect(confirmed.headers.get('location')).toBe('https://website.example/bye?state=bye-state');
});
