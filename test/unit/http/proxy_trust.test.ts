// With an https issuer, TLS ends at a proxy in front of Signet: cookies are Secure on a request
// that reached Signet as plain http, whatever the proxy settings; with an http issuer they are not.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { cookiesAreSecure, secureCookiesFor } from '../../../src/http/proxy_trust.js';

async function setCookieOf(issuer: string, cookie: { secure?: boolean }) {
  const app = new Koa({ keys: ['k'] });
  secureCookiesFor(app, issuer);
  app.use((ctx) => {
    ctx.cookies.set('jar', 'v', { ...cookie, signed: false });
    ctx.body = { ok: true };
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: response.status, cookie: response.headers.getSetCookie()[0] };
  } finally {
    server.close();
  }
}

test('an https issuer: a cookie set over plain http is Secure, one asked Secure is allowed', async () => {
  expect(await setCookieOf('https://signet.example', {})).toEqual({ status: 200, cookie: expect.stringMatching(/^jar=v;.*; secure/) });
  expect(await setCookieOf('https://signet.example', { secure: true })).toEqual({ status: 200, cookie: expect.stringMatching(/; secure/) });
});

test('an http issuer: cookies are not Secure, and a Secure one is refused by the cookies library', async () => {
  const plain = await setCookieOf('http://localhost:3000', {});
  expect(plain.status).toBe(200);
  expect(plain.cookie).not.toMatch(/secure/i);
  expect((await setCookieOf('http://localhost:3000', { secure: true })).status).toBe(500);
});

test.each([
  ['https://signet.example', true],
  ['https://signet.example:8443/base', true],
  ['http://localhost:3000', false],
  ['http://signet.example', false],
])('cookies under the issuer %s are Secure: %s', (issuer, secure) => {
  expect(cookiesAreSecure(issuer)).toBe(secure);
});
