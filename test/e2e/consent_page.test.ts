// The consent page in a real browser: Chromium opens the authorization URL of an
// openid-client relying party, lands on Signet's /interaction/:uid page, the owner unticks a
// field, connects an injected EIP-1193 wallet, reads and signs the exact EIP-4361 text, and
// the website gets a code whose userinfo holds exactly the kept fields.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { fakeWebsite, injectWallet, launchBrowser, watchProblems } from '../support/browser.js';
import { discover } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const outputDir = join(projectRoot, 'test-output');
const WEBSITE_ORIGIN = 'https://website.example';
const CALLBACK = `${WEBSITE_ORIGIN}/callback`;

let h: Harness;
let browser: Browser | undefined;
let identity: `0x${string}`;

beforeAll(async () => {
  h = await startSignet();
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.signet.profiles.set(identity, {
    given_name: 'Ada',
    family_name: 'Lovelace',
    email: 'ada@example.org',
    website: 'https://example.org/ada',
    phone_number: '+442071234567',
  });
}, 60_000);

// A fresh browser (and temporary profile) per test: Chromium remembers things per browser,
// such as a favicon that failed to load, so a shared one would make a test's console depend
// on the tests before it.
beforeEach(async () => {
  browser = await launchBrowser();
}, 30_000);

afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

/** The relying party's side: an authorization URL with PKCE S256, state and nonce. */
async function authorizationRequest() {
  const config = await discover(h.issuer, WEBSITE);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid profile email',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { config, verifier, state, nonce, url };
}

async function newPage(): Promise<Page> {
  const page = await browser!.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const isCallback = (url: URL) => url.origin === WEBSITE_ORIGIN && url.pathname === '/callback';

test('the owner unticks a field, signs with the injected wallet, and the website gets exactly the kept fields', async () => {
  const owner = h.chain.accounts[0]!;
  const page = await newPage();
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, h.chain.anvil.chainId);
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const request = await authorizationRequest();

  await page.goto(request.url.href);
  expect(page.url()).toMatch(new RegExp(`^${h.issuer}/interaction/[A-Za-z0-9_-]+$`));
  const interactionUrl = page.url();

  // What the website asks for, in words, each a labelled checkbox, all ticked and optional.
  expect(await page.title()).toBe('Sign in to Test Website · Signet');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Test Website asks you to sign in');
  const descriptions = ['Your first name', 'Your last name', 'The address of your website', 'Your email address'];
  expect(await page.locator('fieldset.fields label').allInnerTexts()).toEqual(descriptions);
  for (const description of descriptions) {
    const box = page.getByRole('checkbox', { name: description, exact: true });
    expect(await box.isVisible()).toBe(true);
    expect(await box.isChecked()).toBe(true);
    expect(await box.isEnabled()).toBe(true);
  }
  expect(await page.locator('#challenge-box').isHidden()).toBe(true);
  expect(await page.getByRole('button', { name: 'Sign and continue' }).isDisabled()).toBe(true);

  // Untick the website, then connect: the page asks for the text naming the kept fields.
  await page.getByLabel('The address of your website', { exact: true }).uncheck();
  expect(await page.getByRole('checkbox', { name: 'The address of your website' }).isChecked()).toBe(false);
  const [challengeResponse] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${interactionUrl}/challenge` && response.request().method() === 'POST'),
    page.getByRole('button', { name: 'Connect wallet' }).click(),
  ]);
  expect(challengeResponse.status()).toBe(200);
  expect(challengeResponse.request().postDataJSON()).toEqual({
    address: owner.address,
    fields: ['given_name', 'family_name', 'email'],
  });
  const answer = (await challengeResponse.json()) as { identity: string; fields: string[]; challenge: string };
  expect(answer.identity).toBe(identity);
  expect(answer.fields).toEqual(['given_name', 'family_name', 'email']);

  const challenge = page.locator('#challenge');
  await challenge.waitFor({ state: 'visible' });
  await page.waitForFunction(
    (expected) => document.getElementById('challenge')?.textContent === expected,
    answer.challenge,
  );
  const shown = await challenge.textContent();
  expect(shown).toBe(answer.challenge);
  expect(shown).toContain(
    `Test Website asks you to sign in with your identity. By signing you share: first name, last name, email address.`,
  );
  expect(shown).toContain(`\n${owner.address}\n`);
  const profile = `${h.issuer}/identities/${identity}/profile`;
  expect(shown).toContain(
    `\nResources:\n- eip155:${h.chain.anvil.chainId}:${identity}\n- ${profile}#given_name\n- ${profile}#family_name\n- ${profile}#email`,
  );
  expect(shown!.trimEnd().endsWith(`- ${profile}#email`)).toBe(true);
  expect(shown).not.toContain('#website');
  expect(await page.locator('#wallet').textContent()).toBe(`Wallet ${owner.address}`);
  expect(await page.locator('#identity').inputValue()).toBe(identity);
  expect(await page.locator('#status').textContent()).toBe('Read the text, then sign it with your wallet.');
  expect(await page.getByRole('button', { name: 'Sign and continue' }).isEnabled()).toBe(true);

  mkdirSync(outputDir, { recursive: true });
  await page.screenshot({ path: join(outputDir, 'consent-page.png'), fullPage: true });

  // Sign: the browser goes back through the engine to the website with a code.
  await Promise.all([
    page.waitForURL((url) => isCallback(url), { waitUntil: 'load' }),
    page.getByRole('button', { name: 'Sign and continue' }).click(),
  ]);
  expect(wallet.signed).toEqual([answer.challenge]);
  const callback = new URL(page.url());
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  expect([...callback.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
  expect(Object.fromEntries(callback.searchParams)).toEqual({
    code: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
    state: request.state,
    iss: h.issuer,
  });

  // The website exchanges the code and reads userinfo: exactly the kept fields.
  const tokens = await oidc.authorizationCodeGrant(request.config, callback, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
  });
  const sub = `eip155:${h.chain.anvil.chainId}:${getAddress(identity)}`;
  expect(tokens.claims()!.sub).toBe(sub);
  const userinfo = await oidc.fetchUserInfo(request.config, tokens.access_token, sub);
  expect(userinfo).toEqual({ sub, given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });

  // The consent receipt holds the very text the page showed and the wallet signed.
  const receipts = await h.signet.receipts.listFor(identity);
  expect(receipts.filter((receipt) => receipt.message === answer.challenge)).toEqual([
    expect.objectContaining({ client_id: 'website', wallet: owner.address, identity, fields: ['given_name', 'family_name', 'email'] }),
  ]);

  // No console errors, page errors or CSP violations, on the consent page or after.
  expect(problems.on(`${h.issuer}/interaction/`)).toEqual([]);
  expect(problems.all).toEqual([]);
}, 60_000);

test('without a wallet, the page says so, and "Cancel" sends the browser back with access_denied', async () => {
  const page = await newPage();
  const problems = await watchProblems(page);
  const website = await fakeWebsite(page, WEBSITE_ORIGIN);
  const request = await authorizationRequest();

  await page.goto(request.url.href);
  expect(page.url()).toMatch(new RegExp(`^${h.issuer}/interaction/[A-Za-z0-9_-]+$`));
  expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);

  await page.getByRole('button', { name: 'Connect wallet' }).click();
  expect(await page.locator('#status').textContent()).toBe(
    'No browser wallet found. Install one, or use the demo wallet where offered.',
  );
  expect(await page.locator('#challenge-box').isHidden()).toBe(true);

  await Promise.all([
    page.waitForURL((url) => isCallback(url), { waitUntil: 'load' }),
    page.getByRole('button', { name: 'Cancel' }).click(),
  ]);
  const callback = new URL(page.url());
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  expect(Object.fromEntries(callback.searchParams)).toEqual({
    error: 'access_denied',
    error_description: 'the identity owner declined the login',
    state: request.state,
    iss: h.issuer,
  });
  expect(website.visits.map((url) => url.href)).toEqual([callback.href]);

  // openid-client, as the website, reads it as the owner's refusal.
  await expect(
    oidc.authorizationCodeGrant(request.config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    }),
  ).rejects.toMatchObject({ error: 'access_denied', error_description: 'the identity owner declined the login' });

  expect(problems.on(`${h.issuer}/interaction/`)).toEqual([]);
  expect(problems.all).toEqual([]);
}, 60_000);
