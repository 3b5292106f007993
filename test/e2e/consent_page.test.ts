// The consent page in a real browser: Chromium opens the authorization URL of an
// openid-client relying party, lands on Signet's /interaction/:uid page, the owner unticks a
// field, connects an injected EIP-1193 wallet, reads and signs the exact EIP-4361 text, and
// the website gets a code whose userinfo holds exactly the kept fields.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { getAddress } from 'viem';
import { projectRoot } from '../../src/base/project_root.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { browserForEachTest, fakeWebsite, injectWallet, watchProblems } from '../support/browser.js';
import { authorizationRequest, discover } from '../support/login_driver.js';
import { noSidewaysScroll, wordsSplitAcrossLines } from '../support/page_layout.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const outputDir = join(projectRoot, 'test-output');
const WEBSITE_ORIGIN = 'https://website.example';
const CALLBACK = `${WEBSITE_ORIGIN}/callback`;

const ADMIN_TOKEN = 'admin-token-for-the-consent-page-tests';
// The longest labels the page meets: a long topic name, long descriptions, and an issuer
// with no display name (its address is shown).
const KYC_WORDS = 'Your identity was checked by a KYC provider (Know Your Customer), under the anti-money-laundering rules of your country';
const ACCREDITED_WORDS = 'Your status as an accredited investor, as certified by a regulated financial institution';

let h: Harness;
const browser = browserForEachTest();
let identity: `0x${string}`;

beforeAll(async () => {
  h = await startSignet({
    configure: (chain) => ({
      adminToken: ADMIN_TOKEN,
      claims: {
        topics: [
          { name: 'kyc', topic: 1, description: KYC_WORDS },
          { name: 'accredited_investor_status', topic: 7, description: ACCREDITED_WORDS },
        ],
        // Its KYC claims are released as verified_claims under the German AML rules.
        trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc', 'accredited_investor_status'], trustFrameworks: { kyc: 'de_aml' } }],
      },
      claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
    }),
  });
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.signet.profiles.set(identity, {
    given_name: 'Ada',
    family_name: 'Lovelace',
    email: 'ada@example.org',
    website: 'https://example.org/ada',
    phone_number: '+442071234567',
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** The relying party's side: an authorization URL with PKCE S256, state and nonce. */
const websiteRequest = (scope?: string) => authorizationRequest(h.issuer, WEBSITE, { scope });

async function newPage(): Promise<Page> {
  const page = await browser().newPage();
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
  const request = await websiteRequest();

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
  await page.waitForFunction((expected) => document.getElementById('challenge')?.textContent === expected, answer.challenge);
  const shown = await challenge.textContent();
  expect(shown).toBe(answer.challenge);
  expect(shown).toContain(`Test Website (website.example) asks you to sign in with your identity. By signing you share: first name, last name, email address.`);
  expect(shown).toContain(`\n${owner.address}\n`);
  const profile = `${h.issuer}/identities/${identity}/profile`;
  expect(shown).toContain(`\nResources:\n- eip155:${h.chain.anvil.chainId}:${identity}\n- ${profile}#given_name\n- ${profile}#family_name\n- ${profile}#email`);
  expect(shown!.trimEnd().endsWith(`- ${profile}#email`)).toBe(true);
  expect(shown).not.toContain('#website');
  // window.ethereum, the fallback when no wallet announces itself (EIP-6963), shown shortened.
  expect(await page.locator('#wallet').evaluate((element) => element.firstChild?.textContent)).toBe('Browser wallet: ');
  expect(await page.locator('#wallet .addr-cut').textContent()).toBe('0x7099…79C8');
  expect(await page.locator('#wallet .addr-full').textContent()).toBe(owner.address);
  // The text is shown: the button that asks for it goes.
  expect(await page.locator('#prepare').isHidden()).toBe(true);
  expect(await page.locator('#identity').inputValue()).toBe(identity);
  expect(await page.locator('#status').textContent()).toBe('Read the text, then sign it with your wallet.');
  expect(await page.getByRole('button', { name: 'Sign and continue' }).isEnabled()).toBe(true);

  mkdirSync(outputDir, { recursive: true });
  await page.screenshot({ path: join(outputDir, 'consent-page.png'), fullPage: true });

  // Sign: the browser goes back through the engine to the website with a code.
  await Promise.all([page.waitForURL((url) => isCallback(url), { waitUntil: 'load' }), page.getByRole('button', { name: 'Sign and continue' }).click()]);
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
  const request = await websiteRequest();

  await page.goto(request.url.href);
  expect(page.url()).toMatch(new RegExp(`^${h.issuer}/interaction/[A-Za-z0-9_-]+$`));
  expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);

  await page.getByRole('button', { name: 'Connect wallet' }).click();
  expect(await page.locator('#status').textContent()).toBe('No browser wallet found. Install one, or use the demo wallet where offered.');
  expect(await page.locator('#challenge-box').isHidden()).toBe(true);

  await Promise.all([page.waitForURL((url) => isCallback(url), { waitUntil: 'load' }), page.getByRole('button', { name: 'Cancel' }).click()]);
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

/** Issues a claim of the topic to the identity through the admin API, with Signet's ClaimIssuer. */
async function issueClaim(topic: string) {
  const response = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ identity: claimsIdentity, topic, data: { checked_by: 'Consent page tests' } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { claim_id: string };
}

let claimsIdentity: `0x${string}`;

test('at 375 px with claims from an issuer without a name: one place per claim, no sideways scroll, the text wraps at spaces', async () => {
  const owner = h.chain.accounts[1]!;
  claimsIdentity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), claimsIdentity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const kyc = await issueClaim('kyc');
  const accredited = await issueClaim('accredited_investor_status');
  await h.signet.profiles.set(claimsIdentity, { given_name: 'Grace', email: 'grace@example.org', address: { postal_code: 'SW1Y 4JH', country: 'GB' } });

  const page = await newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, h.chain.anvil.chainId);
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const request = await websiteRequest('openid profile email address claim:kyc claim:accredited_investor_status');
  await page.goto(request.url.href);

  // Before the wallet: each claim topic in its place, with no checkbox of its own.
  const topics = page.locator('.claim-topic');
  expect(await topics.allInnerTexts()).toEqual([
    `kyc: ${KYC_WORDS}\n\nConnect your wallet to see your claims of this kind.`,
    `accredited_investor_status: ${ACCREDITED_WORDS}\n\nConnect your wallet to see your claims of this kind.`,
  ]);
  expect(await page.getByRole('checkbox').count()).toBe(5);
  expect(await noSidewaysScroll(page)).toEqual({ scrollWidth: 375, clientWidth: 375 });

  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  // One checkbox per claim, in its topic's place; no second list of claims.
  const claimBoxes = page.locator('input[name="claims"]');
  expect(await claimBoxes.evaluateAll((boxes) => boxes.map((box) => [(box as HTMLInputElement).value, (box as HTMLInputElement).checked]))).toEqual([
    [kyc.claim_id, true],
    [accredited.claim_id, true],
  ]);
  expect(await page.locator('.claim-list[data-topic="kyc"] label').textContent()).toBe('kyc (valid), issued by');
  expect(await page.locator('.claim-list[data-topic="kyc"] .addr-full').textContent()).toBe(h.chain.suite.claimIssuer);
  expect(await page.locator('.claim-list[data-topic="kyc"] .addr-cut').textContent()).toBe(
    `${h.chain.suite.claimIssuer.slice(0, 6)}…${h.chain.suite.claimIssuer.slice(-4)}`,
  );
  expect(await page.getByText('Your claims').count()).toBe(0);
  // The text is shown: the button that asks for it goes.
  expect(await page.locator('#prepare').isHidden()).toBe(true);

  // The full address on hover (title) and on focus, and copied by its button.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.issuer });
  const copy = page.locator('.claim-list[data-topic="kyc"] button.copy');
  await copy.click();
  await copy.filter({ hasText: 'Copied' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(h.chain.suite.claimIssuer);
  const short = page.locator('.claim-list[data-topic="kyc"] .addr-short');
  expect(await short.getAttribute('title')).toBe(h.chain.suite.claimIssuer);
  expect(await short.locator('.addr-cut').isVisible()).toBe(true);
  await short.focus();
  expect(await short.locator('.addr-cut').isVisible()).toBe(false);
  // biome-ignore lint/performance/useDomNodeTextContent: a playwright Locator; the rendered text is what is wanted
  expect(await short.innerText()).toBe(h.chain.suite.claimIssuer);
  expect(await noSidewaysScroll(page)).toEqual({ scrollWidth: 375, clientWidth: 375 });
  await short.blur();

  // Unticking one claim drops it from the text; its topic goes when no claim of it is left.
  await page.locator(`input[value="${accredited.claim_id}"]`).uncheck();
  await page.locator('#challenge').filter({ hasNotText: 'accredited' }).filter({ hasText: 'Resources:' }).waitFor();

  await page.screenshot({ path: join(outputDir, 'consent-page-phone.png'), fullPage: true });
  expect(await noSidewaysScroll(page)).toEqual({ scrollWidth: 375, clientWidth: 375 });
  // Words of the signed text and of every label stay whole: lines break at spaces.
  expect(await wordsSplitAcrossLines(page, '#challenge, #consent label, .claim-topic > p')).toEqual([]);

  await Promise.all([page.waitForURL((url) => isCallback(url), { waitUntil: 'load' }), page.getByRole('button', { name: 'Sign and continue' }).click()]);
  expect(wallet.signed).toHaveLength(1);
  expect(wallet.signed[0]).toContain(`/identities/${claimsIdentity}/claims/${kyc.claim_id}`);
  expect(wallet.signed[0]).not.toContain(accredited.claim_id);
  expect(problems.all).toEqual([]);
}, 60_000);

test('two wallets announced by EIP-6963: the person picks one, and it is asked to switch chains before signing', async () => {
  const owner = h.chain.accounts[0]!;
  const other = h.chain.accounts[2]!;
  const page = await newPage();
  const problems = await watchProblems(page);
  // Neither defines window.ethereum: only discovery finds them. Beta starts on mainnet.
  const alpha = await injectWallet(page, other, h.chain.anvil.chainId, { announce: { name: 'Alpha Wallet', rdns: 'example.alpha' }, windowEthereum: false });
  const beta = await injectWallet(page, owner, h.chain.anvil.chainId, {
    announce: { name: 'Beta Wallet', rdns: 'example.beta' },
    windowEthereum: false,
    startChainId: 1,
  });
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const request = await websiteRequest();
  await page.goto(request.url.href);
  expect(await page.evaluate(() => 'ethereum' in window)).toBe(false);

  await page.getByRole('button', { name: 'Connect wallet' }).click();
  const picker = page.getByRole('group', { name: 'Choose a wallet:' });
  expect(await picker.getByRole('button').allInnerTexts()).toEqual(['Alpha Wallet', 'Beta Wallet']);
  await picker.getByRole('button', { name: 'Beta Wallet' }).click();
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  expect(await page.locator('#wallet').evaluate((element) => element.firstChild?.textContent)).toBe('Beta Wallet: ');
  expect(alpha.calls).toEqual([]);
  expect(beta.switches).toEqual([]);

  await Promise.all([page.waitForURL((url) => isCallback(url), { waitUntil: 'load' }), page.getByRole('button', { name: 'Sign and continue' }).click()]);
  // Asked to switch to the configured chain before it signed.
  expect(beta.switches).toEqual([h.chain.anvil.chainId]);
  expect(beta.calls).toEqual(['eth_requestAccounts', 'eth_chainId', 'wallet_switchEthereumChain', 'eth_chainId', 'personal_sign']);
  expect(beta.signed).toHaveLength(1);
  expect(alpha.calls).toEqual([]);
  expect(problems.all).toEqual([]);
}, 60_000);

test('a wallet that cannot switch to the chain is not asked to sign, and the page says why', async () => {
  const owner = h.chain.accounts[0]!;
  const page = await newPage();
  const problems = await watchProblems(page);
  // The configured chain is unknown to this wallet: it knows only chain 1.
  const wallet = await injectWallet(page, owner, 999_999, { startChainId: 1 });
  await fakeWebsite(page, WEBSITE_ORIGIN);
  await page.goto((await websiteRequest()).url.href);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  await page.getByRole('button', { name: 'Sign and continue' }).click();
  await page.locator('#status.error').waitFor();
  expect(await page.locator('#status').textContent()).toBe(`Your wallet does not know chain ${h.chain.anvil.chainId}: add that network to it, then try again.`);
  expect(wallet.signed).toEqual([]);
  expect(await page.getByRole('button', { name: 'Sign and continue' }).isEnabled()).toBe(true);
  expect(problems.all).toEqual([]);
}, 60_000);

test('verified data: listed apart from the profile, with the website’s purpose escaped, kept or unticked claim by claim', async () => {
  const owner = h.chain.accounts[3]!;
  const verifiedIdentity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), verifiedIdentity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  await h.signet.profiles.set(verifiedIdentity, { given_name: 'Eri' });
  const issued = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({
      identity: verifiedIdentity,
      topic: 'kyc',
      data: {
        verified_claims: {
          verification: { trust_framework: 'de_aml', time: '2026-01-15T10:00:00Z' },
          claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12' },
        },
      },
    }),
  });
  expect(issued.status).toBe(201);
  const kyc = (await issued.json()) as { claim_id: string };

  const page = await newPage();
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, h.chain.anvil.chainId);
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const config = await discover(h.issuer, WEBSITE);
  const verifier = oidc.randomPKCECodeVerifier();
  const why = 'We must know your age <b>by law</b> & "AML"';
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: 'verified-state',
    purpose: 'To open your account <i>today</i>',
    claims: JSON.stringify({
      userinfo: {
        verified_claims: {
          verification: { trust_framework: { value: 'de_aml' }, time: null },
          claims: { family_name: { essential: true }, birthdate: { purpose: why } },
        },
      },
    }),
  });
  await page.goto(url.href);

  // The website's reason, as text (never markup), and the verified fields in their own list.
  expect(await page.locator('#request-purpose').textContent()).toBe('Test Website says why it asks: To open your account <i>today</i>');
  expect(await page.locator('#request-purpose i').count()).toBe(0);
  expect(await page.getByRole('heading', { name: 'Verified data requested' }).isVisible()).toBe(true);
  expect(await page.locator('fieldset.verified .verified-field > p:first-child').allTextContents()).toEqual([
    'Your last name, as a claim issuer verified it required',
    'Your date of birth, as a claim issuer verified it',
  ]);
  expect(await page.locator('.verified-field[data-claim="birthdate"] .purpose').textContent()).toBe(`Why Test Website asks: ${why}`);
  expect(await page.locator('.verified-field b').count()).toBe(0);
  // The self-asserted profile fields stay in the other list.
  expect(await page.locator('fieldset.fields:not(.verified) label').allTextContents()).toEqual([
    'Your first name',
    'Your last name',
    'The address of your website',
  ]);

  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  const issuer = h.chain.suite.claimIssuer;
  const birthdate = page.getByRole('checkbox', { name: `Date of birth, verified by ${issuer} under the German AML rules`, exact: true });
  const familyName = page.getByRole('checkbox', { name: `Last name, verified by ${issuer} under the German AML rules`, exact: true });
  expect([await birthdate.isChecked(), await birthdate.isEnabled()]).toEqual([true, true]);
  // Required by the website: it stays.
  expect([await familyName.isChecked(), await familyName.isEnabled()]).toEqual([true, false]);
  // An issuer without a display name: its address, shortened, between the words.
  const birthdateText = page.locator('.verified-list[data-claim="birthdate"] .field-text');
  expect(await birthdateText.locator('label').textContent()).toBe('Date of birth, verified by');
  expect(await birthdateText.locator('.addr-cut').textContent()).toBe(`${issuer.slice(0, 6)}…${issuer.slice(-4)}`);
  expect(await birthdateText.textContent()).toMatch(/ under the German AML rules$/);
  expect(await page.locator('#challenge').textContent()).toContain('date of birth verified by');

  // Untick the date of birth: the text no longer names it.
  await birthdate.uncheck();
  await page.locator('#challenge').filter({ hasNotText: 'date of birth' }).filter({ hasText: 'Resources:' }).waitFor();
  const shown = (await page.locator('#challenge').textContent())!;
  expect(shown).toContain(`last name verified by ${issuer} under the German AML rules`);
  expect(shown).toContain(`- ${h.issuer}/identities/${verifiedIdentity}/claims/${kyc.claim_id}#/verified_claims/claims/family_name`);
  expect(shown).not.toContain('#/verified_claims/claims/birthdate');
  await page.screenshot({ path: join(outputDir, 'consent-page-verified.png'), fullPage: true });

  await Promise.all([page.waitForURL((next) => isCallback(next), { waitUntil: 'load' }), page.getByRole('button', { name: 'Sign and continue' }).click()]);
  expect(wallet.signed).toEqual([shown]);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: 'verified-state' });
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
  expect(userinfo.verified_claims).toEqual({
    verification: { trust_framework: 'de_aml', time: '2026-01-15T10:00:00Z' },
    claims: { family_name: 'Mustermann' },
  });
  expect(userinfo.given_name).toBe('Eri');
  expect(problems.all).toEqual([]);
}, 60_000);
