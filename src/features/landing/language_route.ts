// The language switcher every page shows (docs/decisions.md, 80): a plain link, so it works
// without scripts and by keyboard. It remembers the pick in a cookie a year and sends the owner
// back to the page they were on; picked on a consent page, it also marks that login, so the pick
// wins over the website's `ui_locales` there.
import { z } from 'zod';
import { LANGUAGES } from '../../base/languages.js';
import { anyone } from '../../http/authenticators.js';
import { LANGUAGE_COOKIE, LOGIN_LANGUAGE_COOKIE } from '../../http/page_language.js';
import { type AnyRoute, route } from '../../http/route.js';
import { LOGIN_ID_PATTERN } from '../../http/schemas.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A path on Signet's own origin: one leading slash, never "//" or "/\" (another host), no control characters. */
const localPath = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])[^\s\\]*$/, 'must be a path on this site');

const languageQuery = z.object({
  lang: z.enum(LANGUAGES),
  back: localPath.optional(),
  /** The login whose consent page the pick was made on. */
  login: z.string().regex(LOGIN_ID_PATTERN).optional(),
});

export function languageRoute(deps: { secureCookies: boolean }): AnyRoute {
  return route({
    method: 'get',
    path: '/language',
    summary: 'Picks the language of the pages and goes back to the page the owner was on',
    tag: 'Pages',
    auth: anyone,
    query: languageQuery,
    undocumented: true,
    responses: { 303: { description: 'Back to the page, now in the language picked' } },
    async handle({ ctx, query }) {
      const options = { httpOnly: true, sameSite: 'lax' as const, secure: deps.secureCookies, path: '/', signed: false, overwrite: true };
      ctx.cookies.set(LANGUAGE_COOKIE, query.lang, { ...options, maxAge: YEAR_MS });
      if (query.login) ctx.cookies.set(LOGIN_LANGUAGE_COOKIE, query.login, options);
      ctx.redirect(query.back ?? '/');
      ctx.status = 303;
      return {};
    },
  });
}
