// The embedded demo, as someone new runs it: `npm start`'s boot (embedded anvil, the real
// ONCHAINID contracts, the in-memory store), then Chromium on a phone-sized screen with no
// wallet of its own walks the whole demo with the built-in demo wallet: the landing page, the
// login on /demo, the account pages (sign in, add a wallet, remove a claim, revoke the login)
// and back to the page asked for after signing out. Every page it visits is measured for
// sideways scroll, checked with axe-core and watched for console errors and CSP violations.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { type Address, createPublicClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../../src/config/config.js';
import { type RunningDemo, startDemoServer } from '../../src/demo/demo_server.js';
import { identityAbi, KeyPurpose, keyOf } from '../../src/infra/chain/contracts.js';
import { DEMO_OWNER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { silentLogger } from '../../src/infra/observability/logger.js';
import { severeAccessibilityViolations } from '../support/accessibility.js';
import { injectWallet, launchBrowser, watchProblems } from '../support/browser.js';
import { freePort } from '../support/free_port.js';
import { openApiValidator } from '../support/openapi_validator.js';
import { noSidewaysScroll } from '../support/page_layout.js';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output');
const DEMO_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let running: RunningDemo;
let browser: Browser;
/** The wallet the walk adds as an ACTION key. */
let added: Address;

beforeAll(async () => {
  const port = await freePort();
  // Only PORT: everything else is the demo's default, as with a bare `npm start`.
  running = await startDemoServer(loadConfig({ PORT: String(port) }), silentLogger);
  browser = await launchBrowser();
  mkdirSync(outputDir, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await running?.close();
});

test('the demo prints what it set up', () => {
  const summary = running.summary.join('\n');
  expect(running.store.kind).toBe('memory');
  expect(summary).toContain(`Signet is listening at ${running.config.issuer}`);
  expect(summary).toContain('IN MEMORY: a demo, nothing survives a restart (set REDIS_URL)');
  expect(summary).toContain(`identity   ${running.demo!.identity} owned by wallet ${DEMO_WALLET}`);
  expect(summary).toContain('add anvil account #1 to your wallet with private key 0x59c6995e');
  expect(summary).toContain(`demo site  ${running.config.issuer}/demo`);
  expect(summary).toContain('no browser wallet? every page that needs one offers the built-in demo wallet');
});

test('the whole demo with the demo wallet only, on a 375 px screen: log in, sign in to the account, add a wallet, remove a claim, revoke the login', async () => {
  const issuer = running.config.issuer;
  const identity = running.demo!.identity;
  const chain = createPublicClient({ transport: http(running.demo!.anvil.rpcUrl) });
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = await watchProblems(page);
  const widths: Record<string, { scrollWidth: number; clientWidth: number }> = {};
  const axe: Record<string, unknown[]> = {};
  /** Measures, checks and photographs the page as it stands. */
  const look = async (label: string, screenshot?: string) => {
    widths[label] = await noSidewaysScroll(page);
    axe[label] = await severeAccessibilityViolations(page);
    if (screenshot) await page.screenshot({ path: join(outputDir, `${screenshot}.png`), fullPage: true });
  };
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const tab = (name: string) => page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name, exact: true });
  expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);

  // `/`: what Signet is, and the way on.
  await page.goto(`${issuer}/`);
  await heading('Signet').waitFor();
  expect(await page.locator('main a').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
    ['Try the demo website', '/demo'],
    ['Your account', '/account'],
    ['OpenID Connect discovery', '/.well-known/openid-configuration'],
    ['API description (OpenAPI)', '/openapi.json'],
  ]);
  await look('/', 'landing');
  for (const path of ['/.well-known/openid-configuration', '/openapi.json']) {
    expect((await page.request.get(`${issuer}${path}`)).status()).toBe(200);
  }

  // The demo website, then Signet's consent page with the demo wallet.
  await Promise.all([page.waitForURL(`${issuer}/demo`), page.getByRole('link', { name: 'Try the demo website' }).click()]);
  expect(await page.getByRole('link', { name: 'your account pages' }).getAttribute('href')).toBe('/account');
  await look('/demo');
  await page.getByRole('link', { name: 'Log in with identity' }).click();
  await page.waitForURL(new RegExp(`^${issuer}/interaction/`));
  await page.getByRole('heading', { name: 'Signet demo asks you to sign in' }).waitFor();
  await page.getByRole('button', { name: 'Use the demo wallet' }).click();
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  // Each claim once, in its topic's place, by its issuer's name.
  expect(await page.locator('.claim-list label').allInnerTexts()).toEqual([
    'KYC check (valid), issued by Signet demo issuer',
    // The expiry through Intl, in the page's language.
    expect.stringMatching(/^Accredited investor \(valid, until [A-Z][a-z]{2} \d{1,2}, \d{4}\), issued by Signet demo issuer$/),
  ]);
  expect(await page.locator('input[name="claims"]').count()).toBe(2);
  // The KYC claim's verified data, apart from the profile, each field by its issuer under its rules.
  expect(await page.locator('.verified-list label').allTextContents()).toEqual(
    ['First name', 'Last name', 'Date of birth', 'Nationality'].map((what) => `${what}, verified by Signet demo issuer under the German AML rules`),
  );
  expect(await page.locator('#prepare').isHidden()).toBe(true);
  await page.getByLabel('Your phone number').uncheck();
  await page.locator('#challenge').filter({ hasNotText: 'phone' }).filter({ hasText: 'Resources:' }).waitFor();
  await look('/interaction/:uid', 'demo-consent-phone');

  // Back on the website: a summary in words, the raw JSON folded below.
  await Promise.all([page.waitForURL(`${issuer}/demo/callback?**`), page.getByRole('button', { name: 'Sign and continue' }).click()]);
  await page.getByRole('heading', { name: 'You are logged in as Ada Lovelace' }).waitFor();
  const sub = `eip155:31337:${identity}`;
  expect(await page.locator('#subject').textContent()).toBe(sub);
  expect(await page.locator('#shared-fields dt').allInnerTexts()).toEqual(['First name', 'Last name', 'Website', 'Email address', 'Postal address']);
  expect(await page.locator('#shared-fields dd').allInnerTexts()).toEqual([
    'Ada',
    'Lovelace',
    'https://example.org/ada',
    'ada@example.org',
    '12 St James Square, London, SW1Y 4JH, GB',
  ]);
  expect(await page.locator('#shared-claims > li').allInnerTexts()).toEqual([
    expect.stringMatching(/^KYC check by Signet demo issuer: valid, no expiry\nlevel: basic; checked by: Signet demo issuer; checked on: \d{4}-\d{2}-\d{2}$/),
    expect.stringMatching(/^Accredited investor by Signet demo issuer: valid until \d{4}-\d{2}-\d{2}\naccredited investor: true; jurisdiction: GB$/),
  ]);
  expect(await page.locator('#shared-verified > li').allTextContents()).toEqual([
    expect.stringMatching(
      /^Verified by Signet demo issuer under the German AML rules, on \d{4}-\d{2}-\d{2}: First name: Ada; Last name: Lovelace; Date of birth: 1815-12-10; Nationality: GB$/,
    ),
  ]);
  expect(await page.locator('#userinfo').isVisible()).toBe(false);
  const userinfo = JSON.parse((await page.locator('#userinfo').textContent())!) as Record<string, unknown>;
  expect(userinfo).toMatchObject({ sub, given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  expect(userinfo.phone_number).toBeUndefined();
  await look('/demo/callback', 'demo-logged-in');
  await page.getByText('Raw userinfo').click();
  expect(await page.locator('#userinfo').isVisible()).toBe(true);
  await look('/demo/callback (raw userinfo open)');

  // The account pages, from the demo's link: the text is shown before the demo wallet signs.
  await Promise.all([page.waitForURL(`${issuer}/account`), page.getByRole('link', { name: 'your account pages' }).click()]);
  await page.getByRole('button', { name: 'Use the demo wallet' }).click();
  const signinText = page.locator('#signin-text');
  await signinText.filter({ hasText: 'Resources:' }).waitFor();
  expect(await signinText.textContent()).toContain(`\n${DEMO_WALLET}\n`);
  expect((await page.request.get(`${issuer}/account/consents`)).status()).toBe(401);
  await look('/account (text to sign)', 'demo-account-signin');
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await heading('Your identity').waitFor();
  // The demo identity's CLAIM key (Signet's issuer key) is not a wallet.
  expect(await page.locator('.summary li').nth(1).textContent()).toBe('Wallets: 1 linked wallet');
  await look('/account', 'demo-account-overview');

  // Add a wallet: the demo wallet sends the transaction.
  added = privateKeyToAccount(generatePrivateKey()).address;
  await tab('Wallets').click();
  await heading('Wallets').waitFor();
  expect(await page.locator('tbody tr').count()).toBe(1);
  expect(await page.locator('h2', { hasText: 'Other keys' }).count()).toBe(1);
  await page.getByLabel('Wallet address').fill(added);
  await page.getByLabel('Key').selectOption('action');
  await page.getByRole('button', { name: 'Add wallet' }).click();
  await page.locator('tbody tr').nth(1).waitFor();
  expect(await page.locator('tbody tr .addr-full').allTextContents()).toEqual([DEMO_WALLET, added]);
  expect(await page.locator('tbody tr td:nth-child(2)').allInnerTexts()).toEqual([
    'MANAGEMENT full control: adds and removes keys and claims',
    'ACTION signs in and approves sharing, nothing more',
  ]);
  expect(await chain.readContract({ address: identity, abi: identityAbi, functionName: 'keyHasPurpose', args: [keyOf(added), KeyPurpose.ACTION] })).toBe(true);
  await look('/account/wallets', 'demo-account-wallets');

  // Remove the KYC claim: the demo wallet sends removeClaim to the identity.
  await tab('Claims').click();
  await heading('Claims').waitFor();
  const claimRows = page.locator('tbody tr');
  expect(await claimRows.count()).toBe(2);
  expect((await claimRows.first().locator('td').allInnerTexts()).slice(0, 4)).toEqual(['KYC check', 'Signet demo issuer', 'valid', 'never']);
  await look('/account/claims', 'demo-account-claims');
  await claimRows.first().getByRole('button', { name: 'Remove the KYC check claim' }).click();
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
  expect((await claimRows.first().locator('td').allInnerTexts())[0]).toBe('Accredited investor');
  expect(await chain.readContract({ address: identity, abi: identityAbi, functionName: 'getClaimIdsByTopic', args: [1n] })).toEqual([]);
  await look('/account/claims (after removal)');

  // Revoke the login: the Accesses tab names the fields in words.
  await tab('Accesses').click();
  await heading('Accesses').waitFor();
  const login = page.locator('tbody tr').first();
  const [service, kind, data] = await login.locator('td').allInnerTexts();
  expect([service, kind, data!.split('\n')[0]]).toEqual([
    'Signet demo',
    'login',
    'first name, last name, website, email address, postal address, KYC check, Accredited investor, verified first name, verified last name, verified date of birth, verified nationality',
  ]);
  await look('/account/accesses', 'demo-account-accesses');
  const grantId = (await login.getAttribute('id'))!.replace(/^grant-/, '');
  await Promise.all([
    page.waitForURL(`${issuer}/account/accesses?done=revoked`),
    login.getByRole('button', { name: 'Revoke the login of Signet demo' }).click(),
  ]);
  expect((await login.locator('td').allInnerTexts())[5]).toBe('revoked');
  expect(await running.signet.provider.Grant.find(grantId)).toBeUndefined();
  await look('/account/accesses (after revocation)');

  // Sign out is on every tab; signing in again returns to the page asked for.
  for (const name of ['Overview', 'Profile', 'Wallets', 'Claims', 'Accesses']) {
    await tab(name).click();
    await page.waitForLoadState();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
  }
  await look('/account/accesses (sign out shown)');
  await Promise.all([page.waitForURL(`${issuer}/account`), page.getByRole('button', { name: 'Sign out' }).click()]);
  await page.goto(`${issuer}/account/claims`);
  expect(page.url()).toBe(`${issuer}/account?next=%2Faccount%2Fclaims`);
  await page.getByRole('button', { name: 'Use the demo wallet' }).click();
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await page.waitForURL(`${issuer}/account/claims`);
  await heading('Claims').waitFor();
  await look('/account/claims (signed in again)');

  expect(Object.keys(widths)).toEqual([
    '/',
    '/demo',
    '/interaction/:uid',
    '/demo/callback',
    '/demo/callback (raw userinfo open)',
    '/account (text to sign)',
    '/account',
    '/account/wallets',
    '/account/claims',
    '/account/claims (after removal)',
    '/account/accesses',
    '/account/accesses (after revocation)',
    '/account/accesses (sign out shown)',
    '/account/claims (signed in again)',
  ]);
  expect(Object.entries(widths).filter(([, width]) => width.scrollWidth > width.clientWidth)).toEqual([]);
  expect(Object.values(widths).every((width) => width.clientWidth === 375)).toBe(true);
  expect(Object.entries(axe).filter(([, severe]) => severe.length > 0)).toEqual([]);
  expect(problems.all).toEqual([]);
  await context.close();
}, 120_000);

test('beside a browser wallet, an account page that needs a wallet offers the demo wallet too', async () => {
  expect(added).toBeDefined();
  const issuer = running.config.issuer;
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = await watchProblems(page);
  const browserWallet = await injectWallet(page, privateKeyToAccount(DEMO_OWNER_KEY), running.chainId);
  await page.goto(`${issuer}/account/wallets`);
  await page.getByRole('button', { name: 'Connect wallet and sign in' }).click();
  await page
    .getByRole('button', { name: 'Sign', exact: true })
    .click({ timeout: 20_000 })
    .catch(async (error) => {
      throw new Error(`no Sign button; the page says: ${await page.locator('body').textContent()}; problems: ${JSON.stringify(problems.all)}`, {
        cause: error,
      });
    });
  await page.waitForURL(`${issuer}/account/wallets`);
  // A new tab remembers no choice: the page asks.
  await page.evaluate(() => sessionStorage.clear());
  await page.getByRole('button', { name: `Remove ACTION key of ${added}` }).click();
  const picker = page.getByRole('group', { name: 'Choose a wallet:' });
  // allInnerTexts does not wait: the picker is drawn after the click's handler runs.
  await picker.getByRole('button', { name: 'Demo wallet (built into this demo)' }).waitFor();
  expect(await picker.getByRole('button').allInnerTexts()).toEqual(['Browser wallet', 'Demo wallet (built into this demo)']);
  await picker.getByRole('button', { name: 'Demo wallet (built into this demo)' }).click();
  await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
  expect(browserWallet.calls).toEqual(['eth_requestAccounts', 'eth_chainId', 'personal_sign']);
  const chain = createPublicClient({ transport: http(running.demo!.anvil.rpcUrl) });
  expect(
    await chain.readContract({ address: running.demo!.identity, abi: identityAbi, functionName: 'keyHasPurpose', args: [keyOf(added), KeyPurpose.ACTION] }),
  ).toBe(false);
  expect(problems.all).toEqual([]);
  await context.close();
}, 60_000);

test("the demo wallet's JSON-RPC route answers in its documented form, and refuses with its reasons", async () => {
  const issuer = running.config.issuer;
  const contract = openApiValidator(running.signet.openApi);
  const wallet = async (body: unknown) => {
    const response = await fetch(`${issuer}/demo/wallet`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = await response.json();
    contract.assertMatches('POST', '/demo/wallet', response.status, json);
    return { status: response.status, json };
  };
  const refused = (reason: string) => ({ status: 400, json: { error: 'invalid_request', error_description: expect.any(String), reason } });
  expect(await wallet({ method: 'eth_chainId' })).toEqual({ status: 200, json: { result: '0x7a69' } });
  expect(await wallet({ method: 'eth_accounts', params: [] })).toEqual({ status: 200, json: { result: [DEMO_WALLET] } });
  expect(await wallet({ method: 'eth_getBalance', params: [DEMO_WALLET] })).toEqual(refused('demo_wallet_method_unsupported'));
  expect(await wallet({ method: 'personal_sign', params: [7] })).toEqual(refused('demo_wallet_params_invalid'));
  expect(await wallet({ method: 'eth_sendTransaction', params: [{ data: '0x' }] })).toEqual(refused('demo_wallet_params_invalid'));
  expect(await wallet({ params: [] })).toEqual(refused('invalid_body'));

  // The website's callback without its login cookie: start again.
  const callback = await fetch(`${issuer}/demo/callback?code=x&state=y`, { headers: { accept: 'application/json' } });
  expect({ status: callback.status, json: await callback.json() }).toEqual(refused('demo_login_missing'));
});
