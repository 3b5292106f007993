// The consent page, in Chromium, when Signet cannot give the providers' texts because its own
// Redis is down: the page says so (Signet's words, not "the provider did not answer"), the wallet
// signs nothing, and once Redis is back, Sign asks again and the login completes with the data
// the provider holds. The browser's request for the texts is held until the test has frozen A's
// Redis, once the access request at B is recorded, so the outage meets that request and no other
// (the access request's own write failing is test/integration/provider_store_outage.test.ts).
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { keys } from '../../src/infra/store/keys.js';
import { fakeWebsite, injectWallet, launchBrowser, watchProblems } from '../support/browser.js';
import { authorizationRequest } from '../support/login_driver.js';
import { ownerWithKyc, type ProviderPair, startProviderPair } from '../support/provider_pair.js';
import { WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const WEBSITE_ORIGIN = 'https://website.example';
const KYC_DATA = { level: 'enhanced', checked_by: 'Acme KYC' };
const STORE_DOWN = 'the store (Redis) is unreachable: try again in a moment';

let pair: ProviderPair;
let browser: Browser | undefined;

beforeAll(async () => {
  // Production deadlines: a frozen Redis answers the request with 503 after the command deadline.
  pair = await startProviderPair({ deadlines: 'production' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  pair?.a.redis.resume();
  await browser?.close();
  await pair?.close();
});

test("Redis down when the page asks for the providers' texts: Signet's words, nothing signed; once back, Sign asks again and the data arrives", async () => {
  const { a } = pair;
  const { owner } = await ownerWithKyc(pair, KYC_DATA);
  const page = await browser!.newPage();
  page.setDefaultTimeout(15_000);
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, a.chain.anvil.chainId);
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const { config, url, verifier, state, nonce } = await authorizationRequest(a.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  await page.goto(url.href);
  const textsUrl = `${page.url()}/provider-challenges`;

  // The first request for the texts waits at the browser until A's Redis is frozen, then goes on.
  let frozen!: () => void;
  const redisFrozen = new Promise<void>((resolve) => {
    frozen = resolve;
  });
  let held = 0;
  await page.route(textsUrl, async (route) => {
    if (++held === 1) await redisFrozen;
    await route.continue();
  });
  const refused = page.waitForResponse((response) => response.url() === textsUrl);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.locator('#held-box').waitFor({ state: 'visible' });
  // The access request at B is recorded first: the outage meets the page's request, not that write.
  const uid = new URL(textsUrl).pathname.split('/').at(-2)!;
  await waitUntil('the access request at B is recorded', async () => (await a.store.get(keys.providerLogin(uid))) !== undefined);
  a.redis.pause();
  frozen();
  expect((await refused).status()).toBe(503);
  await page.waitForFunction((expected) => document.getElementById('provider-challenges')?.textContent === expected, STORE_DOWN);
  a.redis.resume();

  // Sign: nothing is signed while the texts are missing; the page asks for them again.
  const asked = page.waitForResponse((response) => response.url() === textsUrl && response.status() === 200);
  await page.getByRole('button', { name: 'Sign and continue' }).click();
  await asked;
  expect(wallet.signed).toEqual([]);
  const providerText = await page.waitForFunction(() => {
    const shown = document.getElementById('provider-challenges')?.textContent ?? '';
    return shown.includes('asks for lasting access') ? shown : false;
  });
  const signetText = (await page.locator('#challenge').textContent())!;

  await Promise.all([
    page.waitForURL((next) => next.origin === WEBSITE_ORIGIN && next.pathname === '/callback', { waitUntil: 'load' }),
    page.getByRole('button', { name: 'Sign and continue' }).click(),
  ]);
  expect(wallet.signed).toEqual([signetText, await providerText.jsonValue()]);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
  expect(userinfo.onchain_claims).toEqual([expect.objectContaining({ valid: true, data: KYC_DATA })]);
  // The one problem the browser saw: the 503 it was answered.
  expect(problems.all.map((problem) => problem.text)).toEqual([expect.stringContaining('503')]);
}, 90_000);
