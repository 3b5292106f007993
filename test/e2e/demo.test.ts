// The embedded demo, as someone new runs it: `npm start`'s boot (embedded anvil, the real
// ONCHAINID contracts, the in-memory store), then the /demo website in Chromium, logging in
// with the built-in demo wallet, with the demo claims shared.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/app.js';
import { type RunningDemo, startDemoServer } from '../../src/demo/demo_server.js';
import { launchBrowser, watchProblems } from '../support/browser.js';
import { freePort } from '../support/free_port.js';

const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output');

let running: RunningDemo;
let browser: Browser;

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
  expect(summary).toContain(`identity   ${running.demo!.identity} owned by wallet 0x70997970C51812dc3A010C7d01b50e0d17dc79C8`);
  expect(summary).toContain('add anvil account #1 to your wallet with private key 0x59c6995e');
  expect(summary).toContain(`demo site  ${running.config.issuer}/demo`);
});

test('a login on /demo with the built-in demo wallet shows the ID token claims and userinfo', async () => {
  const issuer = running.config.issuer;
  const page = await browser.newPage();
  const problems = await watchProblems(page);
  await page.goto(`${issuer}/demo`);
  await page.getByRole('link', { name: 'Log in with identity' }).click();
  await page.waitForURL(new RegExp(`^${issuer}/interaction/`));
  await page.getByRole('heading', { name: 'Signet demo asks you to sign in' }).waitFor();

  await page.getByRole('button', { name: 'Use the demo wallet' }).click();
  await page.locator('#challenge').filter({ hasText: 'Resources:' }).waitFor();
  await page.locator('#claims-box').waitFor();
  const claimLabels = await page.locator('#claims label').allTextContents();
  expect(claimLabels).toHaveLength(2);
  expect(claimLabels[0]).toMatch(/^kyc claim by 0x[0-9a-fA-F]{40} \(valid\)$/);
  expect(claimLabels[1]).toMatch(/^accredited claim by 0x[0-9a-fA-F]{40} \(valid, until \d{4}-\d{2}-\d{2}\)$/);
  // Untick the phone number: it must not reach the website.
  await page.getByLabel('Your phone number').uncheck();
  await page.locator('#challenge').filter({ hasNotText: 'phone' }).filter({ hasText: 'Resources:' }).waitFor();
  await page.screenshot({ path: join(outputDir, 'demo-consent.png'), fullPage: true });

  await page.getByRole('button', { name: 'Sign and continue' }).click();
  await page.waitForURL(`${issuer}/demo/callback?**`);
  await page.getByRole('heading', { name: 'You are logged in' }).waitFor();
  const userinfo = JSON.parse((await page.locator('#userinfo').textContent())!) as Record<string, unknown>;
  const idToken = JSON.parse((await page.locator('#id-token-claims').textContent())!) as Record<string, unknown>;
  await page.screenshot({ path: join(outputDir, 'demo-logged-in.png'), fullPage: true });

  const sub = `eip155:31337:${running.demo!.identity}`;
  expect(userinfo).toMatchObject({ sub, given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  expect(userinfo.phone_number).toBeUndefined();
  const claims = userinfo.onchain_claims as Record<string, unknown>[];
  expect(claims.map((claim) => [claim.topic_name, claim.valid])).toEqual([
    ['kyc', true],
    ['accredited', true],
  ]);
  expect(claims[0]!.data).toMatchObject({ level: 'basic', checked_by: 'Signet demo issuer' });
  expect(idToken).toMatchObject({ sub, iss: issuer, aud: 'demo', given_name: 'Ada' });
  expect(problems.all).toEqual([]);
  await page.close();
});
