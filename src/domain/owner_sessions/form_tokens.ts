// The form token of an owner session: what the account's pages send with every request that
// changes something (the X-CSRF-Token header, or a form's hidden csrf_token field), so that a
// request another page makes a browser send, cookie and all, is told apart. It is an HMAC of the
// session's id under a secret derived from COOKIE_KEYS: nothing is stored, it lasts as long as
// the session, and a page of another origin can neither read it nor work it out. Every cookie
// key is tried, so a rotation keeps open sessions' pages working.
import { createHmac, hkdfSync } from 'node:crypto';
import { sameSecret } from '../../http/authenticators.js';

export const FORM_TOKEN_HEADER = 'x-csrf-token';
export const FORM_TOKEN_FIELD = 'csrf_token';

export type FormTokens = {
  /** The token of a session's pages, under the current key. */
  of(sessionId: string): string;
  /** Whether `given` is the session's token under any of the keys. */
  matches(sessionId: string, given: string | undefined): boolean;
};

export function createFormTokens(cookieKeys: readonly string[]): FormTokens {
  const secrets = cookieKeys.map((key) => Buffer.from(hkdfSync('sha256', key, 'signet', 'account form token secret', 32)));
  const under = (secret: Buffer, sessionId: string) => createHmac('sha256', secret).update(sessionId).digest('base64url');
  return {
    of: (sessionId) => under(secrets[0]!, sessionId),
    matches(sessionId, given) {
      return !!given && secrets.some((secret) => sameSecret(given, under(secret, sessionId)));
    },
  };
}
