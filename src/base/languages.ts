// The languages Signet's pages speak (docs/decisions.md, 80): each has its catalog,
// locales/<code>.json. A base module: the settings check the default language against it and
// the pages choose among them.

export const LANGUAGES = ['en', 'fr', 'de', 'es', 'ja', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, as the switcher shows it. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  ja: '日本語',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar']);

export const directionOf = (language: Language): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr');

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** The supported language a BCP 47 tag asks for ("fr-CA": fr), by its primary subtag; undefined when none. */
export function languageOfTag(tag: string): Language | undefined {
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase();
  return isLanguage(primary) ? primary : undefined;
}

/** The first supported language of a space-separated list (OpenID Connect `ui_locales`, Core 3.1.2.1). */
export function firstOfUiLocales(uiLocales: unknown): Language | undefined {
  if (typeof uiLocales !== 'string') return undefined;
  for (const tag of uiLocales.split(' ').slice(0, 20)) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return undefined;
}

/** The supported language an Accept-Language header prefers most (RFC 9110 12.5.4: by weight, then order). */
export function firstOfAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .slice(0, 30)
    .map((part, order) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), order };
    })
    .filter(({ tag, weight }) => tag && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const { tag } of ranked) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return undefined;
}

/** A text an operator may give per language: a plain string (every language), or { "en": "...", "fr": "..." }. */
export type LocalizedText = string | Partial<Record<Language, string>>;

/** The text in this language, else in English, else in the first language given. */
export function textIn(text: LocalizedText, language: Language): string {
  if (typeof text === 'string') return text;
  return text[language] ?? text.en ?? Object.values(text).find((value) => typeof value === 'string') ?? '';
}
