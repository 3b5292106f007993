// A client's logo on the consent page (decision 81): Signet fetches it through the outbound
// guard from the client's logo_uri (https, on a redirect URI's host) and serves it from its own
// origin, its type read from its bytes; anything else is a 404 that no cache keeps, and the page
// then shows no logo. The client's site is a real TLS server on 127.0.0.1 standing in for public
// addresses (the test's DNS names them, the guard approves them, the socket goes here), with a
// certificate this process trusts for the test's host names.
import { createServer as createHttpServer } from 'node:http';
import type { ClientConfig } from '../../src/config/config.js';
import type { ResolveHost } from '../../src/infra/outbound/url_guard.js';
import { startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { startTrustedTlsSite, type TrustedTlsSite } from '../support/trusted_tls_site.js';

/** Public addresses (example.com's documentation) that the test's connections are taken from. */
const PUBLIC_SITE = '93.184.215.14';
const PUBLIC_DOWN = '93.184.215.15';
const SITE_HOSTS = ['logo-shop.example', 'other.example', 'down.example'];

/** The smallest PNG: its signature and the start of its header are what the check reads. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const BIG_PNG = Buffer.concat([PNG, Buffer.alloc(100 * 1024)]);

const resolveHost: ResolveHost = async (hostname) => {
  if (hostname === 'logo-shop.example' || hostname === 'other.example') return [{ address: PUBLIC_SITE, family: 4 }];
  if (hostname === 'down.example') return [{ address: PUBLIC_DOWN, family: 4 }];
  if (hostname === 'inner.example') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let h: Harness;
let site: TrustedTlsSite;
let port: number;
/** A port nothing listens on: the "down" host's. */
let closedPort: number;
/** Every request the client's site got, as "host path". */
const requests: string[] = [];

/** A website the operator configured, its answers going to logo-shop.example, with this logo_uri. */
const shop = (clientId: string, logoUri: string): ClientConfig => ({
  ...WEBSITE,
  client_id: clientId,
  client_name: `Shop ${clientId}`,
  redirect_uris: [`https://logo-shop.example:${port}/callback`],
  post_logout_redirect_uris: [],
  logo_uri: logoUri.replace('{port}', String(port)).replace('{closed}', String(closedPort)),
});

beforeAll(async () => {
  site = await startTrustedTlsSite(SITE_HOSTS, (request, response) => {
    requests.push(`${request.headers.host?.split(':')[0]} ${request.url}`);
    if (request.url === '/logo.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    // An SVG that says it is a PNG: the bytes decide.
    if (request.url === '/logo.svg') return response.writeHead(200, { 'content-type': 'image/png' }).end(SVG);
    if (request.url === '/big.png') return response.writeHead(200, { 'content-type': 'image/png' }).end(BIG_PNG);
    // Headers and never a body: only the deadline ends the wait.
    if (request.url === '/slow.png') return response.writeHead(200, { 'content-type': 'image/png' }).write(PNG.subarray(0, 8));
    if (request.url === '/moved.png') return response.writeHead(302, { location: '/logo.png' }).end();
    response.writeHead(404).end();
  });
  port = site.port;
  const closed = createHttpServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  h = await startSignet({
    clients: [
      WEBSITE,
      shop('png-shop', 'https://logo-shop.example:{port}/logo.png'),
      shop('svg-shop', 'https://logo-shop.example:{port}/logo.svg'),
      shop('big-shop', 'https://logo-shop.example:{port}/big.png'),
      shop('slow-shop', 'https://logo-shop.example:{port}/slow.png'),
      shop('moved-shop', 'https://logo-shop.example:{port}/moved.png'),
      shop('plain-shop', 'http://logo-shop.example:{port}/logo.png'),
      shop('cdn-shop', 'https://other.example:{port}/logo.png'),
      shop('down-shop', 'https://down.example:{closed}/logo.png'),
      shop('gone-shop', 'https://gone.example/logo.png'),
      shop('inner-shop', 'https://inner.example:{port}/logo.png'),
    ],
    resolveHost,
    dialAddress: (approved) => (approved.address === PUBLIC_SITE || approved.address === PUBLIC_DOWN ? { address: '127.0.0.1', family: 4 } : approved),
  });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await site?.close();
});

beforeEach(() => {
  requests.length = 0;
});

const logoOf = (clientId: string) => fetch(`${h.issuer}/clients/${clientId}/logo`);

test('a PNG on the redirect host is served from Signet with its checked type, nosniff, a closed CSP and a public max-age; fetched once', async () => {
  for (let i = 0; i < 2; i++) {
    const response = await logoOf('png-shop');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(PNG);
  }
  // The second answer came from the process's cache.
  expect(requests).toEqual(['logo-shop.example /logo.png']);
});

test.each([
  ['svg-shop', 'an SVG sent as image/png', ['logo-shop.example /logo.svg']],
  ['big-shop', 'an image over 100 KiB', ['logo-shop.example /big.png']],
  ['moved-shop', 'a redirect (not followed)', ['logo-shop.example /moved.png']],
  ['plain-shop', 'an http logo_uri (never fetched)', []],
  ['cdn-shop', 'a logo on another host than the redirect URIs (never fetched)', []],
  ['down-shop', 'a host that refuses the connection', []],
  ['gone-shop', 'a host that does not resolve', []],
  ['inner-shop', 'a host on a private address (refused by the guard, never connected)', []],
  ['nobody', 'a client that does not exist', []],
])('%s, %s: 404 client_logo_unavailable, no-store', async (clientId, _what, fetched) => {
  const response = await logoOf(clientId);
  expect(response.status).toBe(404);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(((await response.json()) as { reason: string }).reason).toBe('client_logo_unavailable');
  expect(requests).toEqual(fetched);
});

test('a site that never finishes its answer: 404 client_logo_unavailable once the 3 s deadline passes, not before', async () => {
  const started = performance.now();
  const response = await logoOf('slow-shop');
  const waited = performance.now() - started;
  expect(response.status).toBe(404);
  expect(((await response.json()) as { reason: string }).reason).toBe('client_logo_unavailable');
  expect(waited).toBeGreaterThanOrEqual(2900);
  expect(waited).toBeLessThan(6000);
  expect(requests).toEqual(['logo-shop.example /slow.png']);
});

test('the consent page shows the logo from Signet only when its logo_uri qualifies, and allows images from Signet only', async () => {
  const pageOf = async (clientId: string) => {
    const login = await startLogin(h.issuer, shop(clientId, ''), { scope: 'openid email' });
    const response = await login.agent.fetch(login.interactionUrl, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    return { html: await response.text(), csp: response.headers.get('content-security-policy') ?? '' };
  };
  const shown = await pageOf('png-shop');
  expect(shown.html).toContain('<img src="/clients/png-shop/logo" alt=""');
  expect(shown.csp).toContain("img-src 'self' data:;");
  for (const clientId of ['cdn-shop', 'plain-shop']) expect((await pageOf(clientId)).html).not.toMatch(/<img\b/);
  // Rendering the page fetched nothing: the browser asks Signet for the logo, Signet asks the site.
  expect(requests).toEqual([]);
});
