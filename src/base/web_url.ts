// The one rule for a URL Signet releases to a website (the profile's `website` claim) or draws
// as a link: an absolute http or https URL with a host, without a user name or password, and
// without spaces or control characters. Anything else (javascript:, data:, a relative path,
// https://bank.example@evil.example) is refused where it is given, and never released.

/** Longer than any website's address needs, short enough for every browser. */
export const WEB_URL_MAX_LENGTH = 2048;

/** What a refusal says of a value that breaks the rule. */
export const WEB_URL_RULE = 'must be a web address starting with https:// or http://, like https://example.com';

export function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > WEB_URL_MAX_LENGTH) return false;
  // The URL parser trims and drops some of these; the value kept and released must be the one checked.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (/[\u0000-\u0020\u007f]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
}
