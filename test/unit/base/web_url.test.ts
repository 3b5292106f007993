// The one URL rule of what Signet releases or links: http and https with a host, nothing else.
import { isWebUrl, WEB_URL_MAX_LENGTH } from '../../../src/base/web_url.js';

test.each(['https://example.org', 'https://example.org/ada?tab=1#top', 'http://example.org:8080/', 'https://xn--bcher-kva.example/', 'https://[2001:db8::1]/'])(
  '%s is a web address',
  (value) => expect(isWebUrl(value)).toBe(true),
);

test.each([
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'ftp://example.org/',
  'file:///etc/passwd',
  '//example.org/',
  '/relative/path',
  'example.org',
  ' https://example.org',
  'https://example.org/\n',
  'java\tscript:alert(1)',
  'https://bank.example@evil.example/',
  'https://user:pass@example.org/',
  'https://',
  '',
  `https://example.org/${'a'.repeat(WEB_URL_MAX_LENGTH)}`,
])('%j is refused', (value) => expect(isWebUrl(value)).toBe(false));

test('only text is a web address', () => {
  for (const value of [undefined, null, 42, { href: 'https://example.org' }, ['https://example.org']]) expect(isWebUrl(value)).toBe(false);
});
