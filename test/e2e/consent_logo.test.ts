// The consent page with a client's logo, in Chromium (decision 81): the logo shows, and the
// page, logo included, makes no request to any origin but Signet's before the owner consents.
// The client's https site is a real TLS server standing in for a public address.
import type { Browser, Request } from 'playwright-core';
import * as oidc from 'openid-client';
import type { ClientConfig } from '../../src/config/config.js';
import { launchBrowser, watchProblems } from '../support/browser.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { startTrustedTlsSite, type TrustedTlsSite } from '../support/trusted_tls_site.js';

const PUBLIC_SITE = '93.184.215.14';
/** A 1×1 PNG Chromium decodes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

let h: Harness;
let site: TrustedTlsSite;
let browser: Browser | undefined;
let shop: ClientConfig;
const siteRequests: string[] = [];

beforeAll(async () => {
  site = await startTrustedTlsSite(['logo-shop.example'], (request, response) => {
    siteRequests.push(request.url ?? '');
    if (request.url === '/logo.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    response.writeHead(404).end();
  });
  shop = {
    ...WEBSITE,
    client_id: 'logo-shop',
    client_name: 'Logo Shop',
    redirect_uris: [`https://logo-shop.example:${site.port}/callback`],
    post_logout_redirect_uris: [],
    logo_uri: `https://logo-shop.example:${site.port}/logo.png`,
  };
  h = await startSignet({
    clients: [WEBSITE, shop],
    resolveHost: async (hostname) => {
      if (hostname === 'logo-shop.example') return [{ address: PUBLIC_SITE, family: 4 }];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    },
    dialAddress: (approved) => (approved.address === PUBLIC_SITE ? { address: '127.0.0.1', family: 4 } : approved),
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await h?.close();
  await site?.close();
});

test('the logo shows, served by Signet, and the page asks no other origin for anything', async () => {
  const config = await oidc.discovery(new URL(h.issuer), shop.client_id, shop.client_secret, undefined, { execute: [oidc.allowInsecureRequests] });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: shop.redirect_uris[0]!,
    scope: 'openid email',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: oidc.randomState(),
  });
  const context = await browser!.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems = await watchProblems(page);
  const origins: string[] = [];
  page.on('request', (request: Request) => origins.push(new URL(request.url()).origin));
  await page.goto(url.href, { waitUntil: 'load' });
  const logo = page.locator('#who-asks img');
  await logo.waitFor();
  expect(await logo.getAttribute('src')).toBe('/clients/logo-shop/logo');
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);
  expect([...new Set(origins)]).toEqual([new URL(h.issuer).origin]);
  // Signet, not the browser, asked the client's site.
  expect(siteRequests).toEqual(['/logo.png']);
  expect(problems.all).toEqual([]);
  await context.close();
});
