// The consent page with two chains, in Chromium: the wallet has an identity on each (the same
// address, through the IdFactory's CREATE2), the page offers the choice by the chains' names,
// the owner picks the second chain, the wallet is asked to switch to it before it signs, and
// the website's subject names that chain.
import * as oidc from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { type Address, encodeFunctionData } from 'viem';
import { identityAbi, KeyPurpose, KeyType, keyOf } from '../../src/infra/chain/contracts.js';
import { fakeWebsite, injectWallet, launchBrowser, watchProblems } from '../support/browser.js';
import { discover } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const WEBSITE_ORIGIN = 'https://website.example';
const CALLBACK = `${WEBSITE_ORIGIN}/callback`;
const FIRST = 31337;
const SECOND = 31338;

let h: Harness;
let browser: Browser | undefined;

beforeAll(async () => {
  h = await startSignet({ otherChains: [SECOND] });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
});

async function newPage(): Promise<Page> {
  const page = await browser!.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

test('the owner chooses the second chain on the consent page; the wallet switches to it and signs; the subject names it', async () => {
  const owner = h.chain.accounts[0]!;
  const [onFirst, onSecond] = await Promise.all([h.chain.createIdentityFor(owner.address, 'page'), h.otherChains[0]!.createIdentityFor(owner.address, 'page')]);
  expect(onSecond).toBe(onFirst);
  const page = await newPage();
  const problems = await watchProblems(page);
  // The wallet starts on the first chain and knows the second.
  const wallet = await injectWallet(page, owner, SECOND, { startChainId: FIRST });
  await fakeWebsite(page, WEBSITE_ORIGIN);
  const config = await discover(h.issuer, WEBSITE);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: CALLBACK,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  await page.goto(url.href);
  const interactionUrl = page.url();

  // The chains by name, "every chain" first.
  expect(await page.getByLabel('Chain of your identity').locator('option').allInnerTexts()).toEqual([
    'Find it on every chain',
    `Test chain ${FIRST} (chain id ${FIRST})`,
    `Test chain ${SECOND} (chain id ${SECOND})`,
  ]);
  // Connected, the wallet is looked up on every chain: two identities, the owner's choice.
  const [lookup] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${interactionUrl}/challenge`),
    page.getByRole('button', { name: 'Connect wallet' }).click(),
  ]);
  expect(await lookup.json()).toMatchObject({ choose: [{ chain_id: FIRST }, { chain_id: SECOND }] });
  const choices = page.getByRole('group', { name: 'Your identities, one per chain' }).getByRole('button');
  await choices.first().waitFor({ state: 'visible' });
  expect(await choices.allInnerTexts()).toEqual([`Test chain ${FIRST}: ${onFirst}`, `Test chain ${SECOND}: ${onSecond}`]);

  const [asked] = await Promise.all([page.waitForResponse((response) => response.url() === `${interactionUrl}/challenge`), choices.nth(1).click()]);
  expect(asked.request().postDataJSON()).toMatchObject({ chain_id: SECOND, identity: onSecond });
  await page.waitForFunction(() => document.getElementById('challenge')?.textContent?.includes('Chain ID'));
  expect(await page.locator('#challenge').textContent()).toContain(`Chain ID: ${SECOND}`);
  expect(await page.locator('#status').textContent()).toBe(`Your identity on Test chain ${SECOND}. Read the text, then sign it with your wallet.`);

  await Promise.all([
    page.waitForURL((at) => at.origin === WEBSITE_ORIGIN && at.pathname === '/callback', { waitUntil: 'load' }),
    page.getByRole('button', { name: 'Sign and continue' }).click(),
  ]);
  // Asked to switch to the identity's chain before signing.
  expect(wallet.switches).toEqual([SECOND]);
  const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), { pkceCodeVerifier: verifier, expectedState: state });
  expect(tokens.claims()!.sub).toBe(`eip155:${SECOND}:${onSecond}`);
  expect(problems.all).toEqual([]);
}, 90_000);

test('the owner signs in to the account pages on the second chain: the pages show that identity, and the wallet switches to it before it sends a key change', async () => {
  const owner = h.chain.accounts[1]!;
  const other = h.chain.accounts[2]!;
  const secondChain = h.otherChains[0]!;
  const [onFirst, onSecond] = await Promise.all([h.chain.createIdentityFor(owner.address, 'account'), secondChain.createIdentityFor(owner.address, 'account')]);
  expect(onSecond).toBe(onFirst);
  // The first chain's identity at the same address has a profile; the second chain's has none.
  await h.signet.profiles.set(onFirst, { given_name: 'First-chain Ada' });
  const page = await newPage();
  const problems = await watchProblems(page);
  const wallet = await injectWallet(page, owner, SECOND, { startChainId: FIRST, chain: secondChain });
  await page.goto(`${h.issuer}/account`);
  expect(await page.getByLabel('Chain of your identity').locator('option').allInnerTexts()).toEqual([
    'Find it on every chain',
    `Test chain ${FIRST} (chain id ${FIRST})`,
    `Test chain ${SECOND} (chain id ${SECOND})`,
  ]);
  const [lookup] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${h.issuer}/account/challenge`),
    page.getByRole('button', { name: 'Connect wallet and sign in' }).click(),
  ]);
  expect(await lookup.json()).toMatchObject({ choose: [{ chain_id: FIRST }, { chain_id: SECOND }] });
  const choices = page.getByRole('group', { name: 'Your identities, one per chain' }).getByRole('button');
  await choices.first().waitFor({ state: 'visible' });
  expect(await choices.allInnerTexts()).toEqual([`Test chain ${FIRST}: ${onFirst}`, `Test chain ${SECOND}: ${onSecond}`]);
  const [asked] = await Promise.all([page.waitForResponse((response) => response.url() === `${h.issuer}/account/challenge`), choices.nth(1).click()]);
  expect(asked.request().postDataJSON()).toMatchObject({ chain_id: SECOND, identity: onSecond });
  expect(await page.locator('#signin-text').textContent()).toContain(`Chain ID: ${SECOND}`);
  await page.getByRole('button', { name: 'Sign', exact: true }).click();
  await page.getByRole('heading', { name: 'Your identity' }).waitFor();
  // Asked to switch to the identity's chain before signing.
  expect(wallet.switches).toEqual([SECOND]);
  expect(await page.locator('.facts').textContent()).toContain(`Test chain ${SECOND} (chain id ${SECOND})`);
  expect(await page.locator('.summary').textContent()).toContain('0 fields filled in');

  // The wallet moves back to the first chain meanwhile; the page asks it to switch before it sends.
  await page.evaluate(
    (chainId) =>
      (window as unknown as { ethereum: { request(r: unknown): Promise<unknown> } }).ethereum.request({
        method: 'wallet_switchEthereumChain',
        params: [{ chainId: `0x${chainId.toString(16)}` }],
      }),
    FIRST,
  );
  await Promise.all([
    page.waitForURL(`${h.issuer}/account/wallets`),
    page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Wallets' }).click(),
  ]);
  await page.getByLabel('Wallet address').fill(other.address);
  await page.getByLabel('Key').selectOption('action');
  await page.getByRole('button', { name: 'Add wallet' }).click();
  await page.locator('tbody tr').nth(1).waitFor();
  expect(wallet.switches).toEqual([SECOND, FIRST, SECOND]);
  expect(wallet.sent).toEqual([
    {
      from: owner.address,
      to: onSecond,
      data: encodeFunctionData({ abi: identityAbi, functionName: 'addKey', args: [keyOf(other.address), KeyPurpose.ACTION, KeyType.ECDSA] }),
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    },
  ]);
  // The key is on the second chain's identity, not on the first chain's at the same address.
  const actionKeys = (chain: { client: { readContract(args: unknown): Promise<unknown> } }, identity: Address) =>
    chain.client.readContract({ address: identity, abi: identityAbi, functionName: 'getKeysByPurpose', args: [KeyPurpose.ACTION] });
  expect(await actionKeys(secondChain, onSecond)).toEqual([keyOf(other.address)]);
  expect(await actionKeys(h.chain, onFirst)).toEqual([]);
  expect(problems.all).toEqual([]);
}, 90_000);
