// The consent page when a claim's data is held by another Information Provider, in Chromium:
// Signet B keeps a KYC claim's data (B as claim issuer), Signet A lists B in
// INFORMATION_PROVIDERS (test/support/provider_pair.ts: each has its own Redis, both read one
// anvil with ONCHAINID, B behind a proxy); the operator names B in French too. An
// openid-client website sends the browser to A; the page names B as the holder of the claim's
// data, shows B's text under A's, the injected wallet signs both (A's first), and the website's
// userinfo holds the data B keeps, checked against the chain.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { LANGUAGES } from '../../src/base/languages.js';
import { projectRoot } from '../../src/base/project_root.js';
import { severeAccessibilityViolations } from '../support/accessibility.js';
import { fakeWebsite, injectWallet, launchBrowser, watchProblems } from '../support/browser.js';
import { authorizationRequest } from '../support/login_driver.js';
import { ownerWithKyc, PROVIDER_NAME, type ProviderPair, startProviderPair } from '../support/provider_pair.js';
import { type Harness, WEBSITE } from '../support/signet_harness.js';

const outputDir = join(projectRoot, 'test-output');
const WEBSITE_ORIGIN = 'https://website.example';
// The operator's name for it in French (decision 82): the French page shows it, the signed texts keep the English.
const PROVIDER_FR = 'Fournisseur KYC B';
const KYC_DATA = { level: 'enhanced', checked_by: 'Acme KYC' };

let pair: ProviderPair;
let a: Harness;
let b: Harness;
let browser: Browser | undefined;

beforeAll(async () => {
  pair = await startProviderPair({ providerNames: { fr: PROVIDER_FR } });
  ({ a, b } = pair);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await pair?.close();
});

test('the page names the provider and why a second signature; the wallet signs A then B; the website receives B’s data', async () => {
  const { owner, identity, claimId } = await ownerWithKyc(pair, KYC_DATA);

  const page = await browser!.newPage();
  page.setDefaultTimeout(15_000);
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, a.chain.anvil.chainId);
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const { config, url, verifier, state, nonce } = await authorizationRequest(a.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  await page.goto(url.href);
  const interactionUrl = page.url();
  const [providerResponse] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${interactionUrl}/provider-challenges`),
    page.getByRole('button', { name: 'Connect wallet' }).click(),
  ]);
  const providerText = ((await providerResponse.json()) as { challenges: { challenge: string }[] }).challenges[0]!.challenge;

  // Who holds which claim's data, what is fetched, and why a second signature.
  await page.locator('#held-box').waitFor({ state: 'visible' });
  expect(await page.getByRole('heading', { name: 'Data held by another provider' }).isVisible()).toBe(true);
  expect(await page.locator('#held-list li').allInnerTexts()).toEqual([
    `kyc: its data is held by ${PROVIDER_NAME}; Signet fetches it there for you (second signature, below).`,
  ]);
  expect(await page.locator('#second-signature').textContent()).toContain(
    'that provider asks you to let Signet read it: your wallet signs its text right after Signet',
  );
  await page.waitForFunction((expected) => document.getElementById('provider-challenges')?.textContent === expected, providerText);
  expect(providerText).toContain('Signet A asks for lasting access, until you revoke it, to your data.');
  expect(providerText).toContain(`Resource: ${b.issuer}/identities/${identity}/claims/${claimId}`);
  const signetText = (await page.locator('#challenge').textContent())!;
  expect(signetText).toContain(`with its data, fetched from ${PROVIDER_NAME}`);
  mkdirSync(outputDir, { recursive: true });
  await page.screenshot({ path: join(outputDir, 'consent-page-provider.png'), fullPage: true });

  await Promise.all([
    page.waitForURL((next) => next.origin === WEBSITE_ORIGIN && next.pathname === '/callback', { waitUntil: 'load' }),
    page.getByRole('button', { name: 'Sign and continue' }).click(),
  ]);
  // Two signatures: Signet's text, then the provider's.
  expect(wallet.signed).toEqual([signetText, providerText]);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  const sub = tokens.claims()!.sub;
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, sub);
  expect(userinfo.onchain_claims).toEqual([expect.objectContaining({ claim_id: claimId, valid: true, data: KYC_DATA })]);
  expect(problems.all).toEqual([]);
}, 90_000);

test('every language, the second signature shown: no serious or critical axe violation', async () => {
  const { owner } = await ownerWithKyc(pair, KYC_DATA);
  for (const language of LANGUAGES) {
    const page = await browser!.newPage();
    page.setDefaultTimeout(15_000);
    await injectWallet(page, owner, a.chain.anvil.chainId);
    await fakeWebsite(page, WEBSITE_ORIGIN);
    const { url } = await authorizationRequest(a.issuer, WEBSITE, { scope: 'openid claim:kyc', extra: { ui_locales: language } });
    await page.goto(url.href);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
    await page.locator('#connect').click();
    await page.locator('#held-box').waitFor({ state: 'visible' });
    await page.waitForFunction(() => (document.getElementById('provider-challenges')?.textContent ?? '').includes('Resource:'));
    expect(await page.locator('#held-list').textContent()).toContain(language === 'fr' ? PROVIDER_FR : PROVIDER_NAME);
    const state = `${language}: second signature`;
    expect({ state, violations: await severeAccessibilityViolations(page) }).toEqual({ state, violations: [] });
    await page.close();
  }
}, 120_000);
