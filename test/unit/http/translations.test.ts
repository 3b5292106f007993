// The pages' catalogs (locales/<language>.json): every message in every language with the same
// placeholders, every message the templates and scripts ask for present, and no English sentence
// left in a template outside a translation call.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { directionOf, firstOfAcceptLanguage, firstOfUiLocales, LANGUAGES, textIn } from '../../../src/base/languages.js';
import { projectRoot } from '../../../src/base/project_root.js';
import { DOORS } from '../../../src/domain/history/access_history.js';
import { createTranslations, readCatalogs } from '../../../src/http/translations.js';

const catalogs = readCatalogs(join(projectRoot, 'locales'));
const english = catalogs.en;

/** The argument names of a message, with their kind (argument, plural, select, number, date…). */
function placeholders(message: string, language: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: unknown[]) => {
    for (const node of nodes as { type: number; value?: string; options?: Record<string, { value: unknown[] }>; children?: unknown[] }[]) {
      if (node.type !== 0 && node.type !== 7 && typeof node.value === 'string') names.add(`${node.value}:${node.type}`);
      for (const option of Object.values(node.options ?? {})) walk(option.value);
      if (node.children) walk(node.children);
    }
  };
  walk(new IntlMessageFormat(message, language).getAst() as unknown[]);
  return [...names].sort();
}

test('every language has every message of English, and no other', () => {
  for (const language of LANGUAGES) {
    expect({ language, keys: Object.keys(catalogs[language]).sort() }).toEqual({ language, keys: Object.keys(english).sort() });
  }
});

test('every message has the placeholders of its English one, and none is left empty', () => {
  for (const language of LANGUAGES) {
    for (const [key, message] of Object.entries(catalogs[language])) {
      expect({ language, key, empty: message.trim() === '' }).toEqual({ language, key, empty: false });
      expect({ language, key, placeholders: placeholders(message, language) }).toEqual({ language, key, placeholders: placeholders(english[key]!, 'en') });
    }
  }
});

test("the scripts' messages hold only plain {names}: the page fills them without a formatter", () => {
  for (const language of LANGUAGES) {
    for (const [key, message] of Object.entries(catalogs[language]).filter(([k]) => k.startsWith('script.'))) {
      expect({ key, language, kinds: placeholders(message, language).filter((name) => !name.endsWith(':1')) }).toEqual({ key, language, kinds: [] });
    }
  }
});

const files = (dir: string, ext: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name), ext) : entry.name.endsWith(ext) ? [join(dir, entry.name)] : [],
  );

test('every message the templates and the page scripts ask for is in the catalogs', () => {
  const asked = new Set<string>();
  for (const file of files(join(projectRoot, 'views'), '.ejs')) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bt\('([a-z_.]+)'[,)]/g)) asked.add(match[1]!);
  }
  for (const file of files(join(projectRoot, 'public'), '.js')) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\btext\('([a-z_]+)'[,)]/g)) asked.add(`script.${match[1]}`);
  }
  for (const match of readFileSync(join(projectRoot, 'src/features/credentials/credential_pages.ts'), 'utf8').matchAll(/\bt\('([a-z_.]+)'[,)]/g)) {
    asked.add(match[1]!);
  }
  // The keys the account's page modules hand their templates (a credential's state, a notice).
  for (const file of ['src/features/credentials/credential_pages.ts', 'src/features/account/account_page_routes.ts']) {
    for (const match of readFileSync(join(projectRoot, file), 'utf8').matchAll(/'(account\.[a-z_]+\.[a-z_.]+)'/g)) asked.add(match[1]!);
  }
  // The words the pages build from a closed list: each door of the access history.
  for (const door of DOORS) asked.add(`door.${door}`);
  expect(asked.size).toBeGreaterThan(50);
  expect([...asked].filter((key) => !(key in english))).toEqual([]);
});

/**
 * The words a template shows outside translation calls: its text between tags and the values
 * of the attributes people read (aria-label, title, placeholder, alt), with every <% … %>
 * block taken out. Only "Signet", the product's name, may stay.
 */
function englishLeftIn(template: string): string[] {
  const stripped = template
    .replace(/<%[\s\S]*?%>/g, ' ')
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<style[\s\S]*?<\/style>/g, ' ');
  const read = [...stripped.matchAll(/\b(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((match) => match[1]!);
  const text = stripped.replace(/<[^>]*>/g, ' ');
  return [...read, text].flatMap((part) => part.match(/[A-Za-z][A-Za-z']+(?: [A-Za-z][A-Za-z']*)*/g) ?? []).filter((words) => words !== 'Signet');
}

/** The demo website's page plays the relying party, not Signet: it speaks its own language. */
const NOT_SIGNETS = ['demo.ejs'];

test('no template holds an English sentence outside a translation call', () => {
  const left = files(join(projectRoot, 'views'), '.ejs')
    .filter((file) => !NOT_SIGNETS.includes(relative(join(projectRoot, 'views'), file)))
    .flatMap((file) => englishLeftIn(readFileSync(file, 'utf8')).map((words) => `${relative(projectRoot, file)}: ${words}`));
  expect(left).toEqual([]);
});

/** English words in a template's code: a string of two words or more inside a <% … %> block (keys and codes are one word). */
const englishInCode = (template: string): string[] =>
  [...template.matchAll(/<%[\s\S]*?%>/g)].flatMap(([block]) =>
    [...block.matchAll(/(["'])([^"'\n]*)\1/g)].map((match) => match[2]!).filter((text) => /[A-Za-z]+ [A-Za-z]+/.test(text)),
  );

test("no template's code builds an English phrase: what the server picks reaches it as a key or a code", () => {
  const left = files(join(projectRoot, 'views'), '.ejs')
    .filter((file) => !NOT_SIGNETS.includes(relative(join(projectRoot, 'views'), file)))
    .flatMap((file) => englishInCode(readFileSync(file, 'utf8')).map((words) => `${relative(projectRoot, file)}: ${words}`));
  expect(left).toEqual([]);
  expect(englishInCode("<% var w = e.claims.length ? 'a claim' : t('account.data.nothing'); %>")).toEqual(['a claim']);
  expect(englishInCode("<%= t('door.' + e.door) %> <p>'two words'</p>")).toEqual([]);
});

test('the scan finds English left in text and in read attributes, and passes translation calls', () => {
  expect(englishLeftIn('<p><%= t("a.b") %></p>')).toEqual([]);
  expect(englishLeftIn('<h1>Signet</h1><p>Sign in <%= name %></p>')).toEqual(['Sign in']);
  expect(englishLeftIn('<pre aria-label="The exact text"></pre>')).toEqual(['The exact text']);
  expect(englishLeftIn('<input placeholder="0x…" id="x" class="muted">')).toEqual([]);
});

test('messages format with the language’s own rules', () => {
  const translations = createTranslations(catalogs);
  expect(translations.translate('fr')('consent.heading', { name: 'Boutique' })).toBe('Boutique vous demande de vous connecter');
  expect(translations.translate('ar')('consent.title', { name: 'متجر' })).toBe('تسجيل الدخول إلى متجر');
  expect(translations.scriptMessages('de').copy).toBe('Kopieren');
  expect(() => translations.translate('en')('no.such.message')).toThrow('no message "no.such.message"');
});

test('the language: ui_locales first supported tag, Accept-Language by weight, direction', () => {
  expect(firstOfUiLocales('tlh ar-EG fr')).toBe('ar');
  expect(firstOfUiLocales('pt-BR')).toBeUndefined();
  expect(firstOfUiLocales(undefined)).toBeUndefined();
  expect(firstOfAcceptLanguage('pt-BR, de;q=0.5, ja;q=0.8')).toBe('ja');
  expect(firstOfAcceptLanguage('es-419,en;q=0.9')).toBe('es');
  expect(firstOfAcceptLanguage('*, fr;q=0')).toBeUndefined();
  expect(directionOf('ar')).toBe('rtl');
  expect(directionOf('ja')).toBe('ltr');
  expect(textIn({ en: 'Age', fr: 'Âge' }, 'fr')).toBe('Âge');
  expect(textIn({ en: 'Age', fr: 'Âge' }, 'ja')).toBe('Age');
  expect(textIn('KYC', 'ar')).toBe('KYC');
});
