// The pages' language on the wire: discovery lists ui_locales_supported; a page follows
// Accept-Language, else DEFAULT_LANGUAGE; the switcher remembers the pick in a cookie and goes
// back only to a path on Signet's own origin.
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startSignet({ clients: [WEBSITE], configure: () => ({ defaultLanguage: 'es' }) });
}, 60_000);

afterAll(async () => h?.close());

const page = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${h.issuer}${path}`, { headers, redirect: 'manual' });
  const html = await response.text();
  return { status: response.status, lang: /<html lang="([a-z]+)" dir="(ltr|rtl)">/.exec(html)?.slice(1), language: response.headers.get('content-language') };
};

test('discovery lists the six languages', async () => {
  const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  expect(discovery.ui_locales_supported).toEqual(['en', 'fr', 'de', 'es', 'ja', 'ar']);
});

test('a page follows Accept-Language by weight, else the default language', async () => {
  expect(await page('/', { 'accept-language': 'pt-BR, ar;q=0.9, fr;q=0.8' })).toEqual({ status: 200, lang: ['ar', 'rtl'], language: 'ar' });
  expect(await page('/account', { 'accept-language': 'de-CH' })).toEqual({ status: 200, lang: ['de', 'ltr'], language: 'de' });
  expect(await page('/', { 'accept-language': 'pt-BR' })).toEqual({ status: 200, lang: ['es', 'ltr'], language: 'es' });
});

test('the switcher: a year-long cookie, back to the page; a pick beats Accept-Language', async () => {
  const response = await fetch(`${h.issuer}/language?lang=ja&back=${encodeURIComponent('/account?x=1')}`, { redirect: 'manual' });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/account?x=1');
  const cookie = response.headers.get('set-cookie')!;
  expect(cookie).toMatch(/^signet_lang=ja; path=\/; expires=.+; samesite=lax; httponly$/);
  expect(await page('/', { cookie: 'signet_lang=ja', 'accept-language': 'fr' })).toEqual({ status: 200, lang: ['ja', 'ltr'], language: 'ja' });
});

test('the switcher goes back only to a path of this site, and takes only a language Signet speaks', async () => {
  for (const back of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '/a b']) {
    const response = await fetch(`${h.issuer}/language?lang=fr&back=${encodeURIComponent(back)}`, { redirect: 'manual' });
    expect({
      back,
      status: response.status,
      reason: ((await response.json()) as { reason: string }).reason,
      cookie: response.headers.get('set-cookie'),
    }).toEqual({
      back,
      status: 400,
      reason: 'invalid_query',
      cookie: null,
    });
  }
  const unknown = await fetch(`${h.issuer}/language?lang=pt&back=/`, { redirect: 'manual' });
  expect(unknown.status).toBe(400);
});
