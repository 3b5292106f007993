// Credentials through Signet's pages in a real browser (Debian's Chromium, an injected EIP-1193
// wallet): the owner asks for an offer on the account's credentials page and reads the QR code,
// the link and the transaction code there; an independent wallet (@openid4vc/openid4vci)
// redeems it with that code; the owner revokes the credential on the same page and a verifier
// reading the status list sees it. Then a wallet's own authorization request goes through the
// consent page, where the owner signs a text naming the credential and what it carries.

import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setGlobalConfig } from '@openid4vc/utils';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Address } from 'viem';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { severeAccessibilityViolations } from '../support/accessibility.js';
import { fakeWebsite, injectWallet, launchBrowser, type PageProblems, watchProblems } from '../support/browser.js';
import { credentialIssuerSettings, WALLET_APP } from '../support/credential_issuer_settings.js';
import { authorizationCodeWallet, receive, statusOf, verifier } from '../support/credential_wallet.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output');
const ADMIN_TOKEN = 'admin-token-for-the-credential-page-tests';
const WALLET_ORIGIN = new URL(WALLET_APP.redirect_uris[0]!).origin;

let h: Harness;
let browser: Browser | undefined;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  setGlobalConfig({ allowInsecureUrls: true });
  h = await startSignet({
    clients: [WALLET_APP],
    configure: (chain) => credentialIssuerSettings(chain, ADMIN_TOKEN),
  });
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

/** An identity for the account, holding a KYC claim whose verified data has this date of birth. */
async function identityWithKyc(account: number, birthdate: string): Promise<Address> {
  const owner = h.chain.accounts[account]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const issued = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({
      identity,
      topic: 'kyc',
      data: {
        verified_claims: {
          verification: { trust_framework: 'de_aml', time: '2026-10-01T10:00:00Z' },
          claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate, nationalities: ['DE'] },
        },
      },
    }),
  });
  expect(issued.status).toBe(201);
  return identity;
}

async function openPage(account: number): Promise<{ page: Page; problems: PageProblems }> {
  const context = await browser!.newContext();
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = await watchProblems(page);
  await injectWallet(page, h.chain.accounts[account]!, h.chain.anvil.chainId, { chain: h.chain });
  return { page, problems };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true });

test('the owner gets an offer on the credentials page, a wallet redeems it with the code shown there, and the owner revokes it there', async () => {
  await identityWithKyc(4, '1980-02-29');
  const { page, problems } = await openPage(4);
  await page.goto(`${h.issuer}/account`);
  await page.getByRole('button', { name: 'Connect wallet and sign in' }).click();
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await heading(page, 'Your identity').waitFor();
  await Promise.all([
    page.waitForURL(`${h.issuer}/account/wallet-credentials`),
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Credentials', exact: true }).click(),
  ]);
  await heading(page, 'Credentials in your wallet').waitFor();
  expect(await page.getByText('No credential has been issued to your wallets.').isVisible()).toBe(true);

  await page.getByLabel('Credential').selectOption({ label: 'Age proofs' });
  await page.getByRole('button', { name: 'Show the offer' }).click();
  await page.getByRole('heading', { level: 2, name: 'Scan with your wallet: Age proofs' }).waitFor();
  expect(await page.getByRole('img', { name: 'QR code of the credential offer' }).locator('svg').count()).toBe(1);
  const link = (await page.getByRole('link', { name: 'Open in your wallet' }).getAttribute('href'))!;
  expect(link).toMatch(
    new RegExp(`^openid-credential-offer://\\?credential_offer_uri=${encodeURIComponent(`${h.issuer}/credential-offers/`)}[A-Za-z0-9_-]{32}$`),
  );
  const txCode = (await page.locator('#tx-code').textContent())!;
  expect(txCode).toMatch(/^\d{6}$/);
  expect(link).not.toContain(txCode);
  await page.screenshot({ path: join(outputDir, 'credential-offer.png'), fullPage: true });
  expect(await severeAccessibilityViolations(page)).toEqual([]);

  // The wallet, elsewhere, with the link and the code the owner reads to it.
  const { response } = await receive(link, txCode);
  const credential = (response.credentialResponse.credentials as { credential: string }[])[0]!.credential;
  expect((await (await verifier(h.issuer)).verify(credential)).payload.age_equal_or_over).toEqual({ '18': true, '21': true });

  await page.goto(`${h.issuer}/account/wallet-credentials`);
  const row = page.locator('tbody tr');
  expect(await row.locator('td').allInnerTexts()).toEqual([
    'Age proofs',
    expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    'valid',
    expect.stringContaining('Revoke'),
  ]);
  await Promise.all([page.waitForURL(`${h.issuer}/account/wallet-credentials?done=revoked`), row.getByRole('button', { name: /^Revoke/ }).click()]);
  expect(await page.getByRole('status').first().textContent()).toBe('The credential is revoked: verifiers checking its status see it.');
  expect(await page.locator('tbody tr td').nth(3).textContent()).toBe('revoked: you revoked it');
  // In French (the switcher), the state reads in French.
  await page.goto(`${h.issuer}/language?lang=fr&back=${encodeURIComponent('/account/wallet-credentials')}`);
  expect(await page.locator('tbody tr td').nth(3).textContent()).toBe("révoqué : vous l'avez révoqué");
  expect(await statusOf(h.issuer, credential)).toBe(1);
  expect(problems.all).toEqual([]);
}, 60_000);

test("a wallet's own request goes through the consent page: the owner reads and signs a text naming the credential", async () => {
  await identityWithKyc(5, '1999-12-31');
  const { page, problems } = await openPage(5);
  await fakeWebsite(page, WALLET_ORIGIN);
  const wallet = await authorizationCodeWallet(h.issuer, WALLET_APP.client_id, WALLET_APP.redirect_uris[0]!, 'age');

  await page.goto(wallet.authorizationRequestUrl);
  await heading(page, 'Pocket Wallet asks you to sign in').waitFor();
  const box = page.getByRole('checkbox', { name: /^A credential for your wallet that answers yes or no to 18 or over, 21 or over/ });
  expect(await box.isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await page.locator('#challenge').waitFor({ state: 'visible' });
  const shown = (await page.locator('#challenge').textContent())!;
  expect(shown).toContain(
    'Pocket Wallet (wallet.example) asks you to sign in with your identity. By signing you share: age proofs credential for your wallet (18 or over, 21 or over).',
  );
  expect(shown).toContain(`- ${h.issuer}/credentials/types/age`);
  await page.screenshot({ path: join(outputDir, 'credential-consent.png'), fullPage: true });
  await Promise.all([
    page.waitForURL((url) => url.origin === WALLET_ORIGIN, { waitUntil: 'load' }),
    page.getByRole('button', { name: 'Sign and continue' }).click(),
  ]);
  const code = new URL(page.url()).searchParams.get('code')!;

  const { credential } = await wallet.redeem(code);
  expect((await (await verifier(h.issuer)).verify(credential)).payload.age_equal_or_over).toEqual({ '18': true, '21': true });
  expect(problems.on(`${h.issuer}/interaction/`)).toEqual([]);
}, 60_000);
