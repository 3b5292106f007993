// What the consent page shows of a client, and what a run-time client may not claim to be
// (docs/decisions.md, 81). Who asks is named by the host its answer goes to (the redirect URI's
// host), beside a name it chose. Its own links (policy_uri, tos_uri, client_uri, logo_uri) are
// shown only when they are https URLs on one of its redirect URIs' hosts: the same host, not
// the same registrable domain, because telling "shop.example.co.uk" from "example.co.uk" needs
// the public suffix list, which Signet does not carry; a client serves its pages from the host
// its logins return to, or registers without them.
import { LANGUAGES, type Language } from '../../base/languages.js';

/** The client's own pages, in the order the consent page lists them. */
export const CLIENT_LINK_FIELDS = ['client_uri', 'policy_uri', 'tos_uri'] as const;
export type ClientLinkField = (typeof CLIENT_LINK_FIELDS)[number];

/** Dynamic Client Registration 1.0 §2.1: `client_name#fr`; Signet keeps one per language it speaks. */
export const LOCALIZED_NAME_FIELDS = LANGUAGES.map((language) => `client_name#${language}` as const);

/** The hosts of the client's redirect URIs (where its answers go). */
export const redirectHostsOf = (redirectUris: readonly unknown[]): string[] =>
  redirectUris.flatMap((uri) => (typeof uri === 'string' && URL.parse(uri)?.hostname) || []);

/** Why a client's page URL may not be shown (nor registered at run time), or undefined: https, on one of the redirect URIs' hosts, no credentials in it. */
export function ownPageProblem(uri: string, redirectHosts: readonly string[]): string | undefined {
  const url = URL.parse(uri);
  if (url?.protocol !== 'https:') return 'must be an https URL';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (!redirectHosts.includes(url.hostname)) return `must be on the host of a redirect URI (${redirectHosts.join(', ') || 'none registered'})`;
  return undefined;
}

/** Whether a client's page URL may be shown: the rule registration holds run-time clients to (ownPageProblem). */
export const isOwnPage = (uri: unknown, redirectHosts: readonly string[]): uri is string =>
  typeof uri === 'string' && ownPageProblem(uri, redirectHosts) === undefined;

/** The client's name in the page's language (client_name#<language>), else its client_name. */
export function clientNameIn(record: Record<string, unknown>, language: Language, fallback: string): string {
  const tagged = record[`client_name#${language}`];
  if (typeof tagged === 'string' && tagged.trim()) return tagged;
  return typeof record.client_name === 'string' && record.client_name.trim() ? record.client_name : fallback;
}

// Letters that look alike across scripts, mapped to the Latin letter they pass for (the common
// ones of Unicode's confusables: Cyrillic, Greek, and digits used as letters).
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  в: 'b',
  н: 'h',
  т: 't',
  к: 'k',
  м: 'm',
  α: 'a',
  ε: 'e',
  ο: 'o',
  ρ: 'p',
  υ: 'u',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  τ: 't',
  χ: 'x',
  β: 'b',
  γ: 'y',
  η: 'n',
  μ: 'u',
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '9': 'g',
  $: 's',
  '@': 'a',
  '|': 'l',
  '!': 'i',
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
};

/**
 * A name's skeleton, for comparing names people could mistake for each other: NFKC, case folded,
 * accents removed, look-alike letters mapped, "rn" read as "m", "i" and "l" as one, every
 * space, mark and punctuation dropped.
 */
export function nameSkeleton(name: string): string {
  const folded = name.normalize('NFKC').toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '');
  const mapped = Array.from(folded, (char) => CONFUSABLES[char] ?? char).join('');
  return mapped
    .replace(/[^\p{L}\p{N}]/gu, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/l/g, 'i');
}

/** What a run-time client's name may hold: letters, digits, spaces, and & ' - _ ( ) +, a "." only inside a word. */
const NAME_CHARACTERS = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} &'_()+-]*(?:\.[\p{L}\p{N}][\p{L}\p{M}\p{N} &'_()+-]*)*$/u;
/** Phrases of the text owners sign: a name holding one could pass for part of it. */
const SIGNED_TEXT_PHRASES = ['by signing', 'you share', 'sign in', 'asks you', 'the answer goes to'];

/** Why a run-time client may not go by this name, or undefined. `reserved`: Signet's and its own clients' names. */
export function runTimeNameProblem(name: string, reserved: readonly string[]): string | undefined {
  if (!NAME_CHARACTERS.test(name) || /\s{2}/.test(name) || name.trim() !== name) {
    return 'may hold only letters, digits, single spaces and & \' - _ ( ) +, with a "." only inside a word';
  }
  const lower = name.normalize('NFKC').toLowerCase();
  const phrase = SIGNED_TEXT_PHRASES.find((each) => lower.includes(each));
  if (phrase) return `must not hold "${phrase}": it could pass for the text owners sign`;
  const skeleton = nameSkeleton(name);
  const taken = reserved.find((each) => {
    const other = nameSkeleton(each);
    return other.length > 0 && (skeleton === other || (other.length >= 4 && skeleton.includes(other)));
  });
  if (taken) return `is too close to "${taken}", a name of this Signet or of a website its operator configured`;
  return undefined;
}
