// Which language a page speaks (docs/decisions.md, 80): the website's `ui_locales` (first
// supported tag), then the language the owner picked with the switcher (a cookie), then the
// browser's Accept-Language, then the default (DEFAULT_LANGUAGE). A pick made on a consent page
// wins over that login's `ui_locales`: the owner asked for it on this very page.
import type { Context } from 'koa';
import { firstOfAcceptLanguage, firstOfUiLocales, isLanguage, type Language } from '../base/languages.js';

/** The owner's pick, remembered a year (a preference, no personal data). */
export const LANGUAGE_COOKIE = 'signet_lang';
/** The login whose consent page the pick was made on (its interaction uid), for as long as the browser runs. */
export const LOGIN_LANGUAGE_COOKIE = 'signet_lang_login';

/** What a page knows of its request beyond the headers: the login's `ui_locales` and its uid. */
export type LanguageHint = { uiLocales?: unknown; loginUid?: string };

export function pageLanguage(ctx: Context, fallback: Language, hint: LanguageHint = {}): Language {
  const cookie = ctx.cookies.get(LANGUAGE_COOKIE);
  const picked = isLanguage(cookie) ? cookie : undefined;
  if (picked && hint.loginUid !== undefined && ctx.cookies.get(LOGIN_LANGUAGE_COOKIE) === hint.loginUid) return picked;
  return firstOfUiLocales(hint.uiLocales) ?? picked ?? firstOfAcceptLanguage(ctx.get('accept-language')) ?? fallback;
}
