// Server-rendered pages: ejs templates from views/, compiled once, rendered with the
// request's CSP nonce. A page may carry public/'s files in itself (`pageFiles`): the consent
// page does, so a browser that has never seen Signet shows it without a second round of requests.
// Every page speaks the request's language (page_language.ts): its templates get `t` (the
// catalog's messages), `lang` and `dir` for <html>, the switcher's links, `dates`/`numbers`
// through Intl, `localized` for the operator's texts given per language, and the scripts'
// messages as JSON.
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import ejs from 'ejs';
import type { Context } from 'koa';
import { directionOf, LANGUAGE_NAMES, LANGUAGES, type Language, type LocalizedText, textIn } from '../base/languages.js';
import { type LanguageHint, pageLanguage } from './page_language.js';
import { publicFiles } from './public_files.js';
import { pageNonce } from './security_headers.js';
import { createTranslations, readCatalogs } from './translations.js';

export type RenderPage = (ctx: Context, view: string, data: Record<string, unknown> & { languageHint?: LanguageHint }) => void;

/** public/'s scripts and stylesheet as text, by file name, and its icon as a data: URL. */
export type PageFiles = Record<string, string>;

export type PageSettings = { localesDir: string; defaultLanguage: Language; operatorName?: string };

function readPageFiles(publicDir: string): PageFiles {
  const files: PageFiles = {};
  for (const { name, body } of publicFiles(publicDir)) {
    const text = body.toString('utf8');
    if (extname(name) === '.svg') files[name] = `data:image/svg+xml;base64,${Buffer.from(text).toString('base64')}`;
    // Inside <script> or <style>, a closing tag in the text would end the element early.
    else if (/<\/(script|style)/i.test(text)) throw new Error(`public/${name} holds a closing tag and cannot be carried in a page`);
    else files[name] = text;
  }
  return files;
}

/** JSON safe inside a <script> element: no "<" can close it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Where the switcher sends the owner back: this page's path and query when it was a GET, its path otherwise. */
const backOf = (ctx: Context) => (ctx.method === 'GET' ? ctx.originalUrl : ctx.path);

/** Dates (in UTC, named as such) and numbers in a language's own forms, through Intl. */
function languageFormats(lang: Language) {
  const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const clock = { hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' } as const;
  const moment = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric', ...clock });
  const time = new Intl.DateTimeFormat(lang, clock);
  const number = new Intl.NumberFormat(lang);
  return {
    dates: {
      day: (iso: string) => day.format(new Date(iso)),
      moment: (iso: string) => moment.format(new Date(iso)),
      time: (iso: string) => time.format(new Date(iso)),
    },
    numbers: (value: number) => number.format(value),
  };
}

/** `shared`: values every page may read (the account's tabs). */
export function createPageRenderer(viewsDir: string, publicDir: string, settings: PageSettings, shared: Record<string, unknown> = {}): RenderPage {
  const pageFiles = readPageFiles(publicDir);
  const translations = createTranslations(readCatalogs(settings.localesDir));
  const compiled = new Map<string, ejs.TemplateFunction>();
  // What a page reads of its language alone is made once per language, not on every page.
  const languageParts = (lang: Language) => {
    const t = translations.translate(lang);
    return {
      ...languageFormats(lang),
      lang,
      dir: directionOf(lang),
      t,
      operatorName: settings.operatorName ?? t('operator.unnamed'),
      localized: (text: LocalizedText) => textIn(text, lang),
      scriptMessages: scriptJson({ lang, messages: translations.scriptMessages(lang) }),
    };
  };
  const parts = new Map<Language, ReturnType<typeof languageParts>>();
  const partsOf = (lang: Language) => {
    let made = parts.get(lang);
    if (!made) {
      made = languageParts(lang);
      parts.set(lang, made);
    }
    return made;
  };
  const template = (view: string) => {
    let fn = compiled.get(view);
    if (!fn) {
      const filename = join(viewsDir, `${view}.ejs`);
      fn = ejs.compile(readFileSync(filename, 'utf8'), { filename, async: false }) as ejs.TemplateFunction;
      compiled.set(view, fn);
    }
    return fn;
  };
  return (ctx, view, { languageHint, ...data }) => {
    const lang = pageLanguage(ctx, settings.defaultLanguage, languageHint);
    const back = backOf(ctx);
    const languages = LANGUAGES.map((code) => ({
      code,
      name: LANGUAGE_NAMES[code],
      current: code === lang,
      href: `/language?${new URLSearchParams({ lang: code, back, ...(languageHint?.loginUid ? { login: languageHint.loginUid } : {}) })}`,
    }));
    ctx.type = 'html';
    ctx.set('Content-Language', lang);
    ctx.body = template(view)({
      cspNonce: pageNonce(ctx),
      pageFiles,
      // `formToken`: the owner session's, when the request has one (its forms and scripts send it back).
      formToken: ctx.state.formToken,
      ...shared,
      ...partsOf(lang),
      hasText: translations.has,
      languages,
      ...data,
    });
  };
}
