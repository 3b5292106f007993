// The Content-Security-Policy: a page gets a nonce of its own in it, drawn when the page asks
// for it; an answer that renders no page gets the policy without one, the same every time.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { pageNonce, securityHeaders } from '../../../src/http/security_headers.js';

async function headersOf(page: boolean) {
  const app = new Koa();
  app.use(securityHeaders());
  app.use((ctx) => {
    ctx.body = page ? `<script nonce="${pageNonce(ctx)}" src="/js/x.js"></script><style nonce="${pageNonce(ctx)}"></style>` : { ok: true };
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { headers: response.headers, body: await response.text() };
  } finally {
    server.close();
  }
}

test('a page gets a fresh nonce in its policy, the one it used', async () => {
  const [first, second] = [await headersOf(true), await headersOf(true)];
  const nonceOf = (answer: typeof first) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(answer.headers.get('content-security-policy')!)?.[1];
  expect(nonceOf(first)).toBeDefined();
  expect(first.body).toContain(`nonce="${nonceOf(first)}"`);
  expect(nonceOf(second)).not.toBe(nonceOf(first));
});

test('an answer that renders no page gets the policy without a nonce, and the other headers', async () => {
  const { headers } = await headersOf(false);
  expect(headers.get('content-security-policy')).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  );
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('x-frame-options')).toBe('DENY');
});
