// The consent page in the owner's language, in Chromium: a website that registered itself
// sends ui_locales=ar and gets an Arabic page, right to left, naming it, the host its answer goes
// to, its links on its site, and that nobody reviewed it; the owner signs the same ASCII text and
// the login completes. Every language passes axe-core in each state of the page (before the
// wallet, the wallet's error, the text to sign with its explanation); the whole login works by
// keyboard alone; German's long words fit 375 px; the account pages follow Accept-Language.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { LANGUAGES } from '../../src/base/languages.js';
import { projectRoot } from '../../src/base/project_root.js';
import type { ClientConfig } from '../../src/config/config.js';
import { severeAccessibilityViolations } from '../support/accessibility.js';
import { browserForEachTest, fakeWebsite, injectWallet, watchProblems } from '../support/browser.js';
import { authorizationRequest } from '../support/login_driver.js';
import { noSidewaysScroll } from '../support/page_layout.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const outputDir = join(projectRoot, 'test-output');
const SHOP = 'https://corner-shop.example';
const OPERATOR = 'Example Identity Services';

let h: Harness;
const browser = browserForEachTest();
let shop: { client_id: string; client_secret: string; redirect_uris: string[] };

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE],
    configure: () => ({
      clientRegistration: 'open',
      operatorName: OPERATOR,
      // The operator's texts, given per language.
      claims: {
        topics: [
          {
            name: 'kyc',
            topic: 1,
            description: { en: 'Your identity was checked by a KYC provider', fr: 'Votre identité a été vérifiée par un prestataire KYC' },
          },
        ],
        trustedIssuers: [],
      },
      displayNames: { topics: [{ topic: 'kyc', name: { en: 'KYC check', fr: 'Vérification KYC' } }] },
    }),
  });
  const identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  const registered = await fetch(`${h.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Corner Shop',
      'client_name#ar': 'متجر الزاوية',
      'client_name#ja': '街角の店',
      redirect_uris: [`${SHOP}/callback`],
      policy_uri: `${SHOP}/privacy`,
      tos_uri: `${SHOP}/terms`,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    }),
  });
  expect(registered.status).toBe(201);
  shop = (await registered.json()) as typeof shop;
  mkdirSync(outputDir, { recursive: true });
}, 60_000);

afterAll(async () => {
  await h?.close();
});

/** An authorization URL of `client`, in the languages `uiLocales` asks for. */
async function authorizationUrl(client: Pick<ClientConfig, 'client_id' | 'client_secret' | 'redirect_uris'>, uiLocales?: string, scope?: string) {
  return (await authorizationRequest(h.issuer, client, { scope, extra: uiLocales ? { ui_locales: uiLocales } : {} })).url.href;
}

async function newPage(options: { locale?: string; width?: number } = {}): Promise<Page> {
  const context = await browser().newContext({
    ...(options.locale ? { locale: options.locale } : {}),
    viewport: { width: options.width ?? 1000, height: 900 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const severe = async (page: Page, state: string) => ({ state, violations: await severeAccessibilityViolations(page) });

/** Presses Tab until the element with this id has the focus (keyboard only), at most 80 times. */
async function tabTo(page: Page, id: string) {
  for (let presses = 0; presses < 80; presses++) {
    if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`#${id} never had the focus`);
}

test('ui_locales=ar: an Arabic page, right to left, naming the website, its host and links, marked as not reviewed; the same ASCII text is signed and the login completes', async () => {
  const page = await newPage();
  const problems = await watchProblems(page);
  await injectWallet(page, h.chain.accounts[0]!, h.chain.anvil.chainId);
  const website = await fakeWebsite(page, SHOP);
  await page.goto(await authorizationUrl(shop, 'tlh ar-EG en'));

  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('يطلب منك متجر الزاوية تسجيل الدخول');
  expect(await page.locator('#redirect-host').textContent()).toBe('corner-shop.example');
  expect(await page.locator('#unreviewed').textContent()).toBe(`سجّل هذا الموقع نفسه بنفسه؛ ولم يراجعه ${OPERATOR}. تحقّق من العنوان أعلاه قبل أن تشارك أي شيء.`);
  expect(await page.locator('#client-links a').evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('href')]))).toEqual([
    ['سياسة الخصوصية', `${SHOP}/privacy`],
    ['شروط الاستخدام', `${SHOP}/terms`],
  ]);
  // Right to left where it matters: the text runs from the right, the signed text stays left to right.
  expect(
    await page
      .locator('.lead')
      .first()
      .evaluate((element) => getComputedStyle(element).direction),
  ).toBe('rtl');
  await page.screenshot({ path: join(outputDir, 'consent-ar.png'), fullPage: true });

  await page.getByRole('button', { name: 'صِل المحفظة' }).click();
  const challenge = page.locator('#challenge');
  await challenge.filter({ hasText: 'Resources:' }).waitFor();
  const text = (await challenge.textContent())!;
  // ERC-4361 as before: ASCII English, naming the client (quoted: it registered itself) and its host.
  expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
  expect(text).toContain(
    "\n'Corner Shop' (corner-shop.example) asks you to sign in with your identity. By signing you share: first name, last name, website, email address.\n",
  );
  expect(await challenge.evaluate((element) => getComputedStyle(element).direction)).toBe('ltr');
  // Explained line by line in Arabic, beside it.
  const explained = await page.locator('#challenge-explained li').allInnerTexts();
  expect(explained.length).toBeGreaterThanOrEqual(10);
  expect(explained.some((line) => line.includes('رمز يُستخدم مرة واحدة'))).toBe(true);
  await page.screenshot({ path: join(outputDir, 'consent-ar-text.png'), fullPage: true });

  await page.getByRole('button', { name: 'وقّع وتابع' }).click();
  await page.waitForURL((url) => url.origin === SHOP && url.pathname === '/callback');
  expect(website.visits.at(-1)?.searchParams.get('code')).toEqual(expect.any(String));
  expect(problems.on(h.issuer)).toEqual([]);
});

test('every language, each state of the consent page: no serious or critical axe violation; a configured website is not marked', async () => {
  for (const language of LANGUAGES) {
    // Before the wallet, then the error of a browser without one.
    const bare = await newPage();
    await fakeWebsite(bare, 'https://website.example');
    await bare.goto(await authorizationUrl(WEBSITE, language));
    expect(await bare.evaluate(() => document.documentElement.lang)).toBe(language);
    expect(await bare.locator('#unreviewed').count()).toBe(0);
    expect(await severe(bare, `${language}: before the wallet`)).toEqual({ state: `${language}: before the wallet`, violations: [] });
    await bare.locator('#connect').click();
    await bare.locator('#status.error').waitFor();
    expect(await severe(bare, `${language}: no wallet`)).toEqual({ state: `${language}: no wallet`, violations: [] });
    await bare.context().close();

    // The text to sign with its explanation, for a website that registered itself.
    const page = await newPage();
    await injectWallet(page, h.chain.accounts[0]!, h.chain.anvil.chainId);
    await fakeWebsite(page, SHOP);
    await page.goto(await authorizationUrl(shop, language));
    expect(await page.locator('#unreviewed').isVisible()).toBe(true);
    await page.locator('#connect').click();
    await page.locator('#challenge-explained li').first().waitFor();
    expect(await severe(page, `${language}: text to sign`)).toEqual({ state: `${language}: text to sign`, violations: [] });
    if (language === 'en') await page.screenshot({ path: join(outputDir, 'consent-en-run-time.png'), fullPage: true });
    await page.context().close();
  }
}, 240_000);

test('the whole login by keyboard alone', async () => {
  const page = await newPage();
  await injectWallet(page, h.chain.accounts[0]!, h.chain.anvil.chainId);
  const website = await fakeWebsite(page, SHOP);
  await page.goto(await authorizationUrl(shop, 'fr'));
  await tabTo(page, 'field-email');
  await page.keyboard.press('Space');
  expect(await page.locator('#field-email').isChecked()).toBe(false);
  await tabTo(page, 'connect');
  await page.keyboard.press('Enter');
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  expect(await page.locator('#challenge').textContent()).toContain('By signing you share: first name, last name, website.');
  await tabTo(page, 'sign');
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.origin === SHOP && url.pathname === '/callback');
  expect(website.visits.at(-1)?.searchParams.get('code')).toEqual(expect.any(String));
});

test('the switcher: the owner picks a language on the consent page, and it wins over the website’s ui_locales for that login', async () => {
  const page = await newPage();
  await fakeWebsite(page, SHOP);
  await page.goto(await authorizationUrl(shop, 'ar'));
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
  await page.getByRole('navigation', { name: 'اللغة' }).getByRole('link', { name: '日本語' }).click();
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('街角の店 がログインを求めています');
  expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
});

test("German at 375 px: no sideways scroll on the consent page and the account's sign-in page, which follows Accept-Language", async () => {
  const page = await newPage({ locale: 'de-DE', width: 375 });
  await fakeWebsite(page, SHOP);
  await page.goto(await authorizationUrl(shop, 'de'));
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Corner Shop bittet Sie, sich anzumelden');
  const consent = await noSidewaysScroll(page);
  expect(consent.scrollWidth).toBeLessThanOrEqual(consent.clientWidth);
  await page.screenshot({ path: join(outputDir, 'consent-de-phone.png'), fullPage: true });

  // No ui_locales, no pick: the browser's language.
  await page.goto(`${h.issuer}/account`);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ihr Signet-Konto');
  const account = await noSidewaysScroll(page);
  expect(account.scrollWidth).toBeLessThanOrEqual(account.clientWidth);
});

test("the operator's texts given per language: a claim topic's name and description in French", async () => {
  const page = await newPage();
  await fakeWebsite(page, SHOP);
  await page.goto(await authorizationUrl(shop, 'fr', 'openid email claim:kyc'));
  expect(await page.locator('#topic-kyc').textContent()).toBe('Vérification KYC: Votre identité a été vérifiée par un prestataire KYC');
});
