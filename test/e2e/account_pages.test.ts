// The owner's account pages in a real browser: Debian's Chromium, an injected EIP-1193 wallet
// backed by viem local accounts on anvil (signatures and transactions made in the test
// process), and a real Signet that deploys identities through the IdFactory and issues claims.
// Each scenario checks what the pages show and what the backend and the chain then hold;
// every page is screenshotted into test-output/, checked with axe-core, and watched for
// console errors, page errors and CSP violations.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { type Address, encodeFunctionData, getAddress, type Hex, type LocalAccount, zeroAddress } from 'viem';
import { identityAbi, KeyPurpose, KeyType, keyOf } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { severeAccessibilityViolations } from '../support/accessibility.js';
import { type InjectedWallet, injectWallet, launchBrowser, type PageProblems, watchProblems } from '../support/browser.js';
import { kycIssuedBySignet } from '../support/kyc_claims.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output');

const ADMIN_TOKEN = 'admin-token-for-the-account-page-tests';
const KYC = 1;
const LAST_MANAGEMENT_KEY = 'the last MANAGEMENT key cannot be removed: add another one first, or the identity is lost';

let h: Harness;
let browser: Browser | undefined;
let analyticsKey: string;
let chainId: number;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    configure: (chain) => ({
      identityDeployerKey: DEPLOYER_KEY,
      adminToken: ADMIN_TOKEN,
      ...kycIssuedBySignet(chain),
    }),
  });
  chainId = h.chain.anvil.chainId;
  analyticsKey = (await h.signet.apiKeys.create('analytics', 'account page tests')).key;
  browser = await launchBrowser();
  mkdirSync(outputDir, { recursive: true });
}, 60_000);

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

type OwnerPage = { page: Page; problems: PageProblems; wallet: InjectedWallet };

/** A page in a fresh browser context (its own cookies), watched, with the owner's wallet. */
async function openPage(owner: LocalAccount, options: { startChainId?: number } = {}): Promise<OwnerPage> {
  const context = await browser!.newContext();
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, chainId, { chain: h.chain, ...options });
  return { page, problems, wallet };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const tab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name, exact: true });
const cells = (row: Locator) => row.locator('td').allInnerTexts();
/** The text the page shows in an element (playwright's innerText, not the DOM property). */
// biome-ignore lint/performance/useDomNodeTextContent: a playwright Locator, where innerText is the rendered text wanted here
const shown = (locator: Locator) => locator.innerText();
const screenshot = (page: Page, name: string) => page.screenshot({ path: join(outputDir, `${name}.png`), fullPage: true });
const subjectOf = (identity: Address) => `eip155:${chainId}:${getAddress(identity)}`;
/** The line Chromium logs for a response with an error status: the request's, not a script's. */
const refused = (status: string, path: string) => `console: Failed to load resource: the server responded with a status of ${status} [${h.issuer}${path}]`;
const problemLines = (problems: PageProblems) => problems.all.map((problem) => `${problem.kind}: ${problem.text}`);
/** Each wallet row: its full address, whether it is the signed-in wallet, and its key in words. */
const walletRows = (page: Page) =>
  page
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector('.addr-full')?.textContent,
        row.querySelector('.tag')?.textContent === 'this wallet',
        row.querySelectorAll('td')[1]?.textContent,
      ]),
    );

/** Signs in at /account with the injected wallet and waits for the page it leads to. */
async function signIn({ page }: OwnerPage, landing: 'Your identity' | 'Create your identity') {
  await page.goto(`${h.issuer}/account`);
  await heading(page, 'Your Signet account').waitFor();
  await page.getByRole('button', { name: 'Connect wallet and sign in' }).click();
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await heading(page, landing).waitFor();
}

async function openTab(page: Page, name: string, path: string, title = name) {
  await Promise.all([page.waitForURL(`${h.issuer}${path}`), tab(page, name).click()]);
  await heading(page, title).waitFor();
}

/** Runs axe-core on the page as it is; no violation may be serious or critical. */
async function checkAccessibility(page: Page, label: string) {
  expect({ page: label, severe: await severeAccessibilityViolations(page) }).toEqual({ page: label, severe: [] });
}

async function readIdentity(identity: Address, functionName: 'getKeysByPurpose' | 'getClaimIdsByTopic', arg: bigint) {
  return (await h.chain.client.readContract({ address: identity, abi: identityAbi, functionName, args: [arg] })) as readonly Hex[];
}

async function issueKyc(owner: LocalAccount, identity: Address) {
  // Signet's key (the deployer) may add claims to the identity only as a CLAIM key.
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const response = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ identity, topic: 'kyc', data: { level: 'basic', checked_by: 'Account page tests' } }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { claim_id: Hex; added: boolean };
}

async function requestPersistentGrant(identity: Address, fields: string[]) {
  const response = await fetch(`${h.issuer}/identities/${identity}/profile/access-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': analyticsKey },
    body: JSON.stringify({ kind: 'persistent', fields }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; status: string; challenge: string };
}

async function grantAsService(id: string) {
  const response = await fetch(`${h.issuer}/access-grants/${id}`, { headers: { 'x-api-key': analyticsKey } });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

test('a fresh wallet creates its identity, fills in its profile, logs in to a website and revokes that login', async () => {
  const owner = h.chain.accounts[0]!;
  expect(await h.chain.factoryIdentityOf(owner.address)).toBe(zeroAddress);
  const session = await openPage(owner);
  const { page, problems, wallet } = session;

  // Sign in: a wallet without an identity lands on "Create your identity".
  await page.goto(`${h.issuer}/account`);
  expect(await page.title()).toBe('Sign in · Signet');
  expect(await page.locator('#signin-box').isHidden()).toBe(true);
  // The demo wallet is offered only in the demo.
  expect(await page.getByRole('button', { name: 'Use the demo wallet' }).count()).toBe(0);
  await page.getByRole('button', { name: 'Connect wallet and sign in' }).click();
  // The text comes first; the wallet signs it only on "Sign".
  await page.locator('#signin-text').filter({ hasText: 'Resources:' }).waitFor();
  expect(wallet.signed).toEqual([]);
  await screenshot(page, 'account-signin-text');
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await heading(page, 'Create your identity').waitFor();
  expect(await page.title()).toBe('Create your identity · Signet');
  expect(wallet.signed).toHaveLength(1);
  expect(wallet.signed[0]).toContain('Sign in to Signet with your wallet to create your onchain identity.');
  expect(wallet.signed[0]).toContain(`\n${owner.address}\n`);
  expect(wallet.signed[0]).toContain(`\nResources:\n- eip155:${chainId}:${owner.address}`);
  expect(await shown(page.locator('.lead'))).toBe(
    `Wallet ${owner.address} has no onchain identity yet. Signet deploys one through the identity factory; your wallet receives its management key, so only you control it.`,
  );
  expect(await page.locator('#status').textContent()).toBe('');
  await screenshot(page, 'account-create');

  // Create it: the page shows the deployment under way, then the overview.
  await page.getByRole('button', { name: 'Create my identity' }).click();
  const progress = page.locator('#status').filter({ hasText: /^Deploying your identity… transaction 0x[0-9a-f]{64}$/ });
  await progress.waitFor();
  const transaction = (await progress.textContent())!.split(' ').pop() as Hex;
  await heading(page, 'Your identity').waitFor();
  const identity = await h.chain.factoryIdentityOf(owner.address);
  expect(identity).not.toBe(zeroAddress);
  expect((await h.chain.client.getTransactionReceipt({ hash: transaction })).status).toBe('success');
  expect(await readIdentity(identity, 'getKeysByPurpose', KeyPurpose.MANAGEMENT)).toEqual([keyOf(owner.address)]);
  expect(await page.title()).toBe('Your identity · Signet');
  expect(await page.locator('.facts dd .addr-full').allTextContents()).toEqual([identity, owner.address]);
  expect(await page.locator('.facts dd .addr-cut').allTextContents()).toEqual([identity, owner.address].map((a) => `${a.slice(0, 6)}…${a.slice(-4)}`));
  expect(await shown(page.locator('.facts dd').nth(2))).toBe(`chain id ${chainId}`);
  expect(await page.locator('.summary li').allInnerTexts()).toEqual([
    'Profile: 0 fields filled in',
    'Wallets: 1 linked wallet',
    'Claims: 0',
    'Accesses: 0 active, 0 waiting for you',
  ]);
  expect(await tab(page, 'Overview').getAttribute('aria-current')).toBe('page');
  await screenshot(page, 'account-overview');

  // A second creation from the same session is refused: the wallet has its identity.
  // (With the session's form token, as the page's script sends it.)
  const formToken = (await page.locator('meta[name="csrf-token"]').getAttribute('content'))!;
  const again = await page.request.post(`${h.issuer}/account/identity`, { data: {}, headers: { 'x-csrf-token': formToken } });
  expect(again.status()).toBe(400);
  expect(await again.json()).toMatchObject({ error: 'invalid_request', reason: 'identity_exists' });
  expect(await h.chain.factoryIdentityOf(owner.address)).toBe(identity);

  // Profile: an invalid email is refused with a summary and the field's own error.
  await openTab(page, 'Profile', '/account/profile');
  expect(await page.locator('form input:not([type=hidden])').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(
    Array(10).fill(''),
  );
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill('ada.example.org');
  await Promise.all([page.waitForURL(`${h.issuer}/account/profile`), page.getByRole('button', { name: 'Save' }).click()]);
  const summary = page.getByRole('alert');
  await summary.waitFor();
  expect(await shown(summary.getByRole('heading', { level: 2 }))).toBe('Please correct this field');
  expect(await summary.getByRole('link').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
    ['Enter an email address like name@example.com', '#email'],
  ]);
  expect(await shown(page.locator('#email-error'))).toBe('Enter an email address like name@example.com');
  const email = page.getByRole('textbox', { name: 'Email' });
  expect(await email.getAttribute('aria-invalid')).toBe('true');
  expect(await email.getAttribute('aria-describedby')).toBe('email-error');
  expect(await page.locator('[aria-invalid]').count()).toBe(1);
  expect(await email.inputValue()).toBe('ada.example.org');
  expect(await page.getByLabel('First name').inputValue()).toBe('Ada');
  expect(await page.getByText('Your profile is saved.').count()).toBe(0);
  expect(await h.signet.profiles.get(identity)).toEqual({});
  await screenshot(page, 'account-profile-error');

  // Valid values are saved, and shown again.
  await email.fill('ada@example.org');
  await page.getByLabel('Phone').fill('+33612345678');
  await page.getByLabel('City').fill('London');
  await page.getByLabel('Country').fill('United Kingdom');
  await page.getByLabel('Website').fill('https://example.org/ada');
  await Promise.all([page.waitForURL(`${h.issuer}/account/profile?saved=1`), page.getByRole('button', { name: 'Save' }).click()]);
  expect(await shown(page.getByRole('status'))).toBe('Your profile is saved.');
  expect(await page.getByRole('alert').count()).toBe(0);
  expect(await email.inputValue()).toBe('ada@example.org');
  expect(await page.getByLabel('City').inputValue()).toBe('London');
  expect(await h.signet.profiles.get(identity)).toEqual({
    given_name: 'Ada',
    family_name: 'Lovelace',
    email: 'ada@example.org',
    phone_number: '+33612345678',
    website: 'https://example.org/ada',
    address: { locality: 'London', country: 'United Kingdom' },
  });
  await screenshot(page, 'account-profile');

  // The website logs the same wallet in, and reads what it was given.
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const { tokens, signed } = await logIn(login, owner);
  const sub = subjectOf(identity);
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toEqual({
    sub,
    given_name: 'Ada',
    family_name: 'Lovelace',
    website: 'https://example.org/ada',
    email: 'ada@example.org',
  });
  const [receipt] = await h.signet.receipts.listFor(identity);
  expect(receipt).toMatchObject({ client_id: 'website', message: signed.message, signature: signed.signature });

  // Accesses: the login, with the exact text the wallet signed.
  await openTab(page, 'Accesses', '/account/accesses');
  expect(await page.getByText('No requests are waiting.').isVisible()).toBe(true);
  const row = page.locator(`tr[id="grant-${receipt!.grant_id}"]`);
  expect(await page.locator('tbody tr').count()).toBe(1);
  const [service, kind, , when, lastRead, status] = await cells(row);
  expect([service, kind, status]).toEqual(['Test Website', 'login', 'active']);
  // In the page's language through Intl, in UTC and named so ("Dec 1, 2026, 10:46 PM UTC").
  expect(when).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} [AP]M UTC$/);
  // The website read the data at login and through userinfo: the last of those is shown.
  expect(lastRead).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} [AP]M UTC$/);
  await row.getByText('Consent receipt').click();
  const receiptText = row.locator('details pre');
  expect(await receiptText.isVisible()).toBe(true);
  expect(await receiptText.textContent()).toBe(signed.message);
  expect(await row.locator('details code').textContent()).toBe(signed.signature);
  expect(signed.message).toContain('By signing you share: first name, last name, website, email address.');
  await screenshot(page, 'account-accesses');

  // Revoke it: the page says so, the row shows it, and the website's token is refused.
  await Promise.all([
    page.waitForURL(`${h.issuer}/account/accesses?done=revoked`),
    row.getByRole('button', { name: 'Revoke the login of Test Website' }).click(),
  ]);
  expect(await shown(page.getByRole('status').first())).toBe('The grant is revoked: no more reads under it.');
  expect((await cells(row))[5]).toBe('revoked');
  expect(await row.getByRole('button').count()).toBe(0);
  expect(await h.signet.provider.Grant.find(receipt!.grant_id)).toBeUndefined();
  await expect(oidc.fetchUserInfo(login.config, tokens.access_token, sub)).rejects.toMatchObject({ status: 401 });

  // Nothing went wrong in the pages; the only line is the browser's for the refused form (400).
  expect(problemLines(problems)).toEqual([refused('400 (Bad Request)', '/account/profile')]);
}, 45_000);

test('wallets: a second wallet added as an ACTION key logs in; the last MANAGEMENT key is kept', async () => {
  const owner = h.chain.accounts[1]!;
  const second = h.chain.accounts[2]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  // The owner's wallet starts on mainnet: it is asked to switch before it signs.
  const session = await openPage(owner, { startChainId: 1 });
  const { page, problems, wallet } = session;
  await signIn(session, 'Your identity');
  expect(wallet.switches).toEqual([chainId]);
  expect(wallet.calls).toEqual(['eth_requestAccounts', 'eth_chainId', 'wallet_switchEthereumChain', 'eth_chainId', 'personal_sign']);
  await openTab(page, 'Wallets', '/account/wallets');

  const rows = page.locator('tbody tr');
  expect(await rows.count()).toBe(1);
  const MANAGEMENT = 'MANAGEMENT full control: adds and removes keys and claims';
  const ACTION = 'ACTION signs in and approves sharing, nothing more';
  expect(await walletRows(page)).toEqual([[owner.address, true, MANAGEMENT]]);

  // Add the second wallet: Signet prepares the transaction, the owner's wallet sends it.
  await page.getByLabel('Wallet address').fill(second.address);
  await page.getByLabel('Key').selectOption('action');
  await page.getByRole('button', { name: 'Add wallet' }).click();
  await rows.nth(1).waitFor();
  expect(wallet.sent).toEqual([
    {
      from: owner.address,
      to: identity,
      data: encodeFunctionData({ abi: identityAbi, functionName: 'addKey', args: [keyOf(second.address), KeyPurpose.ACTION, KeyType.ECDSA] }),
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    },
  ]);
  expect((await h.chain.client.getTransactionReceipt({ hash: wallet.sent[0]!.hash })).status).toBe('success');
  expect(await readIdentity(identity, 'getKeysByPurpose', KeyPurpose.ACTION)).toEqual([keyOf(second.address)]);
  expect(await rows.count()).toBe(2);
  expect(await walletRows(page)).toEqual([
    [owner.address, true, MANAGEMENT],
    [second.address, false, ACTION],
  ]);
  expect(
    await rows
      .nth(1)
      .getByRole('button', { name: `Remove ACTION key of ${second.address}` })
      .isVisible(),
  ).toBe(true);
  await screenshot(page, 'account-wallets');

  // The second wallet logs in to the website for the identity.
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const { tokens, signed } = await logIn(login, second, { identity });
  expect(tokens.claims()!.sub).toBe(subjectOf(identity));
  expect(signed.message).toContain(`\n${second.address}\n`);
  expect((await h.signet.receipts.listFor(identity)).map((receipt) => receipt.wallet)).toEqual([second.address]);

  // Removing the last MANAGEMENT key is refused before any transaction.
  await page.getByRole('button', { name: `Remove MANAGEMENT key of ${owner.address}` }).click();
  const status = page.locator('#status.error');
  await status.waitFor();
  expect(await status.textContent()).toBe(LAST_MANAGEMENT_KEY);
  expect(wallet.sent).toHaveLength(1);
  expect(await readIdentity(identity, 'getKeysByPurpose', KeyPurpose.MANAGEMENT)).toEqual([keyOf(owner.address)]);
  expect(await page.getByRole('button', { name: `Remove MANAGEMENT key of ${owner.address}` }).isEnabled()).toBe(true);

  // The only thing logged is the browser's own line for the refused request (409).
  expect(problemLines(problems)).toEqual([refused('409 (Conflict)', '/account/wallets/transactions')]);
}, 60_000);

test('claims: the owner removes a claim a website was given, and its userinfo stops carrying it', async () => {
  const owner = h.chain.accounts[3]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const issued = await issueKyc(owner, identity);
  expect(issued.added).toBe(true);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid claim:kyc' });
  const { tokens } = await logIn(login, owner);
  const sub = subjectOf(identity);
  const before = await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
  expect((before.onchain_claims as { claim_id: string; valid: boolean }[]).map((claim) => [claim.claim_id, claim.valid])).toEqual([[issued.claim_id, true]]);

  const session = await openPage(owner);
  const { page, problems, wallet } = session;
  await signIn(session, 'Your identity');
  expect(await shown(page.locator('.summary li').nth(2))).toBe('Claims: 1');
  await openTab(page, 'Claims', '/account/claims');
  const rows = page.locator('tbody tr');
  expect(await rows.count()).toBe(1);
  expect((await cells(rows.first())).filter((_, i) => i !== 1 && i !== 4)).toEqual(['kyc', 'valid', 'never']);
  // No display name configured for this issuer: its address, shortened, with the full value.
  expect(await rows.first().locator('td').nth(1).locator('.addr-full').textContent()).toBe(h.chain.suite.claimIssuer);
  await screenshot(page, 'account-claims');

  await rows.first().getByRole('button', { name: 'Remove the kyc claim' }).click();
  await page.getByText('Your identity holds no claims of the topics Signet knows.').waitFor();
  expect(await rows.count()).toBe(0);
  expect(wallet.sent).toEqual([
    {
      from: owner.address,
      to: identity,
      data: encodeFunctionData({ abi: identityAbi, functionName: 'removeClaim', args: [issued.claim_id] }),
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    },
  ]);
  expect(await readIdentity(identity, 'getClaimIdsByTopic', BigInt(KYC))).toEqual([]);
  expect(await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).toEqual({ sub, onchain_claims: [] });

  expect(problems.all).toEqual([]);
}, 60_000);

test('inbox: the owner approves one lasting-access request and denies another', async () => {
  const owner = h.chain.accounts[4]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Grace', family_name: 'Hopper', email: 'grace@example.org' });
  const first = await requestPersistentGrant(identity, ['given_name', 'email']);
  const second = await requestPersistentGrant(identity, ['email']);
  expect([first.status, second.status]).toEqual(['pending', 'pending']);

  const session = await openPage(owner);
  const { page, problems, wallet } = session;
  await signIn(session, 'Your identity');
  expect(await shown(page.locator('.summary li').nth(3))).toBe('Accesses: 0 active, 2 waiting for you');
  await openTab(page, 'Accesses', '/account/accesses');
  const firstRequest = page.locator(`li[id="request-${first.id}"]`);
  const secondRequest = page.locator(`li[id="request-${second.id}"]`);
  const inbox = page.getByRole('list', { name: 'Waiting for you' });
  expect(await inbox.getByRole('listitem').count()).toBe(2);
  expect(await shown(firstRequest.locator('p').first())).toBe('Analytics Co asks for lasting access to first name, email address.');
  expect(await shown(secondRequest.locator('p').first())).toBe('Analytics Co asks for lasting access to email address.');
  expect(await firstRequest.locator('pre').textContent()).toBe(first.challenge);
  expect(await page.getByText('You have not shared anything yet.').isVisible()).toBe(true);
  await screenshot(page, 'account-accesses-inbox');

  // Approve: the wallet signs the very text shown, and the grant is active for the service.
  await firstRequest.getByRole('button', { name: 'Approve' }).click();
  // The text is shown first; the wallet signs it on "Sign".
  const sign = firstRequest.getByRole('button', { name: 'Sign', exact: true });
  await sign.waitFor();
  expect(await firstRequest.locator('pre').isVisible()).toBe(true);
  expect(wallet.signed).toHaveLength(1);
  await sign.click();
  await firstRequest.waitFor({ state: 'detached' });
  expect(wallet.signed.at(-1)).toBe(first.challenge);
  expect(await grantAsService(first.id)).toEqual({
    status: 200,
    json: expect.objectContaining({
      id: first.id,
      kind: 'persistent',
      status: 'active',
      service: 'analytics',
      signer: owner.address,
      fields: ['given_name', 'email'],
    }),
  });
  const firstRow = page.locator(`tr[id="grant-${first.id}"]`);
  expect((await cells(firstRow)).filter((_, i) => i !== 2 && i !== 3 && i !== 4 && i !== 6)).toEqual(['Analytics Co', 'lasting access', 'active']);
  expect(await firstRow.getByRole('button', { name: 'Revoke the lasting access of Analytics Co' }).isEnabled()).toBe(true);
  const read = await fetch(`${h.issuer}/identities/${identity}/profile`, { headers: { 'x-api-key': analyticsKey } });
  expect(await read.json()).toEqual({ identity, fields: ['given_name', 'email'], values: { given_name: 'Grace', email: 'grace@example.org' } });

  // Deny the other: the page says so, and the service sees it denied.
  await Promise.all([page.waitForURL(`${h.issuer}/account/accesses?done=denied`), secondRequest.getByRole('button', { name: 'Deny' }).click()]);
  expect(await shown(page.getByRole('status').first())).toBe('The request is denied.');
  expect(await page.getByText('No requests are waiting.').isVisible()).toBe(true);
  expect((await cells(page.locator(`tr[id="grant-${second.id}"]`)))[5]).toBe('denied');
  expect(await grantAsService(second.id)).toEqual({
    status: 200,
    json: expect.objectContaining({ id: second.id, status: 'denied', denied_at: expect.any(String) }),
  });
  expect(wallet.signed).toHaveLength(2);

  expect(problems.all).toEqual([]);
}, 60_000);

test('accessibility: no serious or critical axe violation on any account page, and the profile form works by keyboard', async () => {
  const owner = h.chain.accounts[5]!;
  const session = await openPage(owner);
  const { page, problems } = session;
  const checked: string[] = [];
  const check = async (label: string) => {
    await checkAccessibility(page, label);
    checked.push(label);
  };

  await page.goto(`${h.issuer}/account`);
  await check('sign in');
  await page.getByRole('button', { name: 'Connect wallet and sign in' }).click();
  await page.locator('#signin-text').filter({ hasText: 'Resources:' }).waitFor();
  await check('sign in, text to sign');
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await heading(page, 'Create your identity').waitFor();
  await check('create');
  await page.getByRole('button', { name: 'Create my identity' }).click();
  await heading(page, 'Your identity').waitFor();
  const identity = await h.chain.factoryIdentityOf(owner.address);

  // Something on every page: a claim, a website login and a request waiting.
  await issueKyc(owner, identity);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email claim:kyc' }), owner);
  await requestPersistentGrant(identity, ['email']);
  await page.reload();
  await check('overview');

  await openTab(page, 'Profile', '/account/profile');
  await check('profile');
  // By keyboard from the top: the language switcher, the tabs, then each field in order, then Save.
  const focused: string[] = [];
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('Tab');
    focused.push(
      await page.evaluate(() => {
        const element = document.activeElement as HTMLElement;
        return element.id ? `${element.tagName.toLowerCase()}#${element.id}` : `${element.tagName.toLowerCase()}:${element.textContent?.trim()}`;
      }),
    );
  }
  expect(focused).toEqual([
    ...['English', 'Français', 'Deutsch', 'Español', '日本語', 'العربية'].map((name) => `a:${name}`),
    'a:Overview',
    'a:Profile',
    'a:Wallets',
    'a:Claims',
    'a:Accesses',
    'a:Credentials',
    'a:Your data',
    'button:Sign out',
    ...['given_name', 'family_name', 'email', 'phone_number', 'street_address', 'locality', 'region', 'postal_code', 'country', 'website'].map(
      (id) => `input#${id}`,
    ),
    'button:Save',
  ]);
  await page.getByLabel('Phone').fill('0612');
  await page.getByLabel('Website').fill('example.org');
  await page.getByLabel('Website').press('Enter');
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').getByRole('link').allInnerTexts()).toEqual([
    'Enter the phone number in international format, like +33612345678',
    'Enter a web address starting with https:// or http://, like https://example.com',
  ]);
  await check('profile with errors');

  await openTab(page, 'Wallets', '/account/wallets');
  await check('wallets');
  await openTab(page, 'Claims', '/account/claims');
  expect(await page.locator('tbody tr').count()).toBe(1);
  await check('claims');
  await openTab(page, 'Accesses', '/account/accesses');
  expect(await page.locator('li.request').count()).toBe(1);
  expect(await page.locator('tbody tr').count()).toBe(1);
  for (const summary of await page.locator('summary').all()) await summary.click();
  await check('accesses');
  await openTab(page, 'Credentials', '/account/wallet-credentials', 'Credentials in your wallet');
  await check('credentials');
  await openTab(page, 'Your data', '/account/data');
  await check('your data');

  expect(checked).toEqual([
    'sign in',
    'sign in, text to sign',
    'create',
    'overview',
    'profile',
    'profile with errors',
    'wallets',
    'claims',
    'accesses',
    'credentials',
    'your data',
  ]);

  // Readable on a phone: at 375 px wide no page scrolls sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow: Record<string, number> = {};
  for (const path of [
    '/account',
    '/account/profile',
    '/account/wallets',
    '/account/claims',
    '/account/accesses',
    '/account/wallet-credentials',
    '/account/data',
  ]) {
    await page.goto(`${h.issuer}${path}`);
    overflow[path] = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  await screenshot(page, 'account-accesses-phone');
  expect(overflow).toEqual({
    '/account': 0,
    '/account/profile': 0,
    '/account/wallets': 0,
    '/account/claims': 0,
    '/account/accesses': 0,
    '/account/wallet-credentials': 0,
    '/account/data': 0,
  });
  expect(problemLines(problems)).toEqual([refused('400 (Bad Request)', '/account/profile')]);
}, 60_000);

test('your data: the owner sees who read what, downloads all of it, and erases it with one signature', async () => {
  const owner = h.chain.accounts[6]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Katherine', family_name: 'Johnson', email: 'katherine@example.org' });
  // A website logs in and reads userinfo; a service reads the profile under a lasting grant.
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const { tokens } = await logIn(login, owner, { fields: ['given_name', 'email'] });
  await oidc.fetchUserInfo(login.config, tokens.access_token, subjectOf(identity));
  const request = await requestPersistentGrant(identity, ['family_name']);
  const validated = await fetch(`${h.issuer}/access-grants/${request.id}/validations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ signature: await owner.signMessage({ message: request.challenge }) }),
  });
  expect(validated.status).toBe(200);
  expect((await fetch(`${h.issuer}/identities/${identity}/profile`, { headers: { 'x-api-key': analyticsKey } })).status).toBe(200);

  const session = await openPage(owner);
  const { page, problems, wallet } = session;
  await signIn(session, 'Your identity');
  await openTab(page, 'Your data', '/account/data');
  // Newest first: the service's read, then the website's userinfo and its login.
  const rows = page.locator('tbody tr');
  expect(await rows.count()).toBe(3);
  const what = async (i: number) => (await cells(rows.nth(i))).filter((_, column) => column !== 0 && column !== 4);
  expect(await what(0)).toEqual(['Analytics Co', 'last name', 'access grant', 'sent']);
  expect(await what(1)).toEqual(['Test Website', 'first name, email address', 'profile request (userinfo)', 'sent']);
  expect(await what(2)).toEqual(['Test Website', 'first name, email address', 'at login (ID token)', 'sent']);
  // Filtered by service.
  await page.getByLabel('Service').selectOption('analytics');
  await Promise.all([page.waitForURL(`${h.issuer}/account/data?client=analytics`), page.getByRole('button', { name: 'Show' }).click()]);
  expect(await rows.count()).toBe(1);
  await checkAccessibility(page, 'your data');
  await screenshot(page, 'account-data');
  // In French (the switcher), the history's words and the grant's are French: the field, the door, the outcome.
  const inLanguage = (lang: string, back: string) => page.goto(`${h.issuer}/language?lang=${lang}&back=${encodeURIComponent(back)}`);
  await inLanguage('fr', '/account/data?client=analytics');
  expect(await what(0)).toEqual(['Analytics Co', 'nom de famille', "autorisation d'accès", 'envoyé']);
  await inLanguage('fr', '/account/accesses');
  const grant = await cells(page.locator(`#grant-${request.id}`));
  expect([grant[1], grant[2]?.split('\n')[0], grant[5]]).toEqual(['accès durable', 'nom de famille', 'actif']);
  await inLanguage('en', '/account/data');

  // Download my data: one JSON file with the profile and both grants.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^signet-export-\d{4}-\d{2}-\d{2}\.json$/);
  const { readFile } = await import('node:fs/promises');
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
  expect(exported).toMatchObject({ format: 'signet-export', version: 1, identity, profile: { given_name: 'Katherine' } });
  expect(exported.grants).toHaveLength(2);

  // Erase: the text is shown, signed on "Sign", and the page follows the job to its end.
  await page.getByRole('button', { name: 'Erase my data…' }).click();
  const sign = page.getByRole('button', { name: 'Sign', exact: true });
  await sign.waitFor();
  const text = await page.locator('#erase-text').textContent();
  expect(text).toContain('Erase what Signet holds about this identity');
  await screenshot(page, 'account-data-erase');
  await sign.click();
  await page.getByText('Your data is erased.').waitFor();
  expect(wallet.signed.at(-1)).toBe(text);
  expect(await h.signet.profiles.get(identity)).toEqual({});
  expect((await fetch(`${h.issuer}/identities/${identity}/profile`, { headers: { 'x-api-key': analyticsKey } })).status).toBe(403);
  await expect(oidc.fetchUserInfo(login.config, tokens.access_token, subjectOf(identity))).rejects.toMatchObject({ status: 401 });
  // Signed out: the account pages ask for a signature again.
  await page.goto(`${h.issuer}/account/data`);
  await heading(page, 'Your Signet account').waitFor();
  expect(problems.all).toEqual([]);
}, 60_000);
