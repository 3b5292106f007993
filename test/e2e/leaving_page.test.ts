// The leaving page in Chromium (decision 74): a website registered at run time asks for a silent
// login (prompt=none) with no Signet session; the browser stays on Signet's page, which names
// the website's host, until the person clicks; then it arrives with the exact error answer. The
// page passes axe-core, has no CSP or console problem and does not scroll sideways at 375 px.
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import type { ClientConfig } from '../../src/config/config.js';
import { severeAccessibilityViolations } from '../support/accessibility.js';
import { fakeWebsite, launchBrowser, watchProblems } from '../support/browser.js';
import { discover } from '../support/login_driver.js';
import { noSidewaysScroll } from '../support/page_layout.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

const SHOP = 'https://shop.example';

let h: Harness;
let browser: Browser | undefined;
let shop: ClientConfig;

beforeAll(async () => {
  h = await startSignet({ configure: () => ({ clientRegistration: 'open' }) });
  const registered = await fetch(`${h.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Shop', redirect_uris: [`${SHOP}/callback`], grant_types: ['authorization_code'], response_types: ['code'] }),
  });
  expect(registered.status).toBe(201);
  shop = (await registered.json()) as ClientConfig;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function silentLoginUrl(extra: Record<string, string> = {}) {
  const config = await discover(h.issuer, shop);
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${SHOP}/callback`,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state,
    prompt: 'none',
    ...extra,
  });
  return { url, state };
}

async function openAt375(): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 375, height: 740 } });
  return page;
}

test.each([['query'], ['form_post']])('response_mode %s: the browser stays on the page naming the host until the person clicks', async (mode) => {
  const page = await openAt375();
  const problems = await watchProblems(page);
  const website = await fakeWebsite(page, SHOP);
  const { url, state } = await silentLoginUrl(mode === 'query' ? {} : { response_mode: mode });
  await page.goto(url.href);
  await page.getByRole('heading', { name: 'You are leaving for shop.example' }).waitFor();
  expect(website.visits).toEqual([]);
  expect(new URL(page.url()).origin).toBe(h.issuer);
  expect(await severeAccessibilityViolations(page)).toEqual([]);
  const { scrollWidth, clientWidth } = await noSidewaysScroll(page);
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);

  const arrived = page.waitForURL(`${SHOP}/**`);
  await page.getByRole(mode === 'query' ? 'link' : 'button', { name: 'Continue to shop.example' }).click();
  await arrived;
  expect(website.visits).toHaveLength(1);
  const visit = website.visits[0]!;
  expect(`${visit.origin}${visit.pathname}`).toBe(`${SHOP}/callback`);
  if (mode === 'query') expect(Object.fromEntries(visit.searchParams)).toMatchObject({ error: 'login_required', state, iss: h.issuer });
  expect(problems.on(h.issuer)).toEqual([]);
  await page.close();
});
