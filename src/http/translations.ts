// The pages' words, one catalog per language (locales/<code>.json, flat keys to ICU
// MessageFormat messages, formatted by FormatJS's intl-messageformat): plurals, numbers and
// dates follow each language's rules through Intl. A message missing from a catalog falls back to
// English (the catalogs' test keeps every key in every language). Messages under `script.` go to
// the page scripts too, as JSON (their placeholders are plain {names}).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { LANGUAGES, type Language } from '../base/languages.js';

export type Catalog = Record<string, string>;
export type Catalogs = Record<Language, Catalog>;
export type Translate = (key: string, values?: Record<string, unknown>) => string;

export function readCatalogs(localesDir: string): Catalogs {
  const catalogs = {} as Catalogs;
  for (const language of LANGUAGES) {
    catalogs[language] = JSON.parse(readFileSync(join(localesDir, `${language}.json`), 'utf8')) as Catalog;
  }
  return catalogs;
}

/** Each language's translate function and its scripts' messages, compiled once per message. */
export function createTranslations(catalogs: Catalogs): {
  translate(language: Language): Translate;
  /** Whether the catalogs hold this message (English holds every one). */
  has(key: string): boolean;
  scriptMessages(language: Language): Catalog;
} {
  const compiled = new Map<string, IntlMessageFormat>();
  const formatOf = (language: Language, key: string) => {
    const id = `${language}\u0000${key}`;
    let format = compiled.get(id);
    if (!format) {
      const message = catalogs[language][key] ?? catalogs.en[key];
      if (message === undefined) throw new Error(`locales: no message "${key}"`);
      format = new IntlMessageFormat(message, language);
      compiled.set(id, format);
    }
    return format;
  };
  return {
    has: (key) => key in catalogs.en,
    translate: (language) => (key, values) => String(formatOf(language, key).format(values as never)),
    // Made once per language by the page renderer (pages.ts), which keeps its JSON.
    scriptMessages(language) {
      const messages: Catalog = {};
      for (const [key, text] of Object.entries(catalogs.en)) {
        if (key.startsWith('script.')) messages[key.slice('script.'.length)] = catalogs[language][key] ?? text;
      }
      return messages;
    },
  };
}
