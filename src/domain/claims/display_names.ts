// The names people read instead of raw identifiers: a claim issuer's name instead of its
// address, a topic's name instead of its code, a trust framework's words instead of its
// identifier, a field's words instead of its OIDC name.
import { type Address, getAddress } from 'viem';
import { type Language, type LocalizedText, textIn } from '../../base/languages.js';
import type { Config } from '../../config/config.js';
import type { Translate } from '../../http/translations.js';
import { PROFILE_FIELDS } from '../fields/fields.js';
import { VERIFIED_FIELD_PREFIX, VERIFIED_FIELDS } from '../fields/verified_fields.js';
import { CLAIM_SCOPE_PREFIX } from './claim_topics.js';

/** Words for the trust frameworks most often met, which DISPLAY_NAMES may rename or add to. */
const KNOWN_TRUST_FRAMEWORKS: Record<string, string> = {
  de_aml: 'the German AML rules',
  eidas: 'eIDAS',
  nist_800_63A: 'NIST SP 800-63A',
  jp_aml: 'the Japanese AML rules',
};

/** What a page needs to word a field in its language: its catalog's messages and its language. */
export type PageWords = { t: Translate; has: (key: string) => boolean; language: Language };

export type DisplayNames = {
  /** The configured name of a claim issuer, if it has one. */
  issuer(address: string): string | undefined;
  /** A topic's configured name, else its code name (kyc). */
  topic(name: string): string;
  /** A trust framework in words ("the German AML rules"), else "trust framework <id>". */
  trustFramework(identifier: string): string;
  /** A field in words: "first name", "KYC check", "verified date of birth". */
  field(name: string): string;
  /** A field in a page's language: the catalogs' words for a profile or verified field, a topic's name as the operator gave it in that language, else `field`'s. */
  fieldIn(name: string, page: PageWords): string;
  /** Every configured issuer name by checksummed address, for page scripts. */
  issuers: Record<Address, string>;
  /** Every topic name by topic code name, for page scripts. */
  topics: Record<string, string>;
  /** The pages' forms: each issuer's and topic's name, and each topic's description, in every language the operator gave (decision 82). */
  localized: {
    issuers: Record<Address, LocalizedText>;
    topics: Record<string, LocalizedText>;
    descriptions: Record<string, LocalizedText>;
    /** Each Information Provider's name, by its English name (what the login's answers carry). */
    providers: Record<string, LocalizedText>;
  };
};

/** The settings display names come from; a trust framework's words may be left out. */
type NamesConfig = {
  claims: { topics: Config['claims']['topics']; trustedIssuers?: unknown };
  displayNames: Omit<Config['displayNames'], 'trustFrameworks'> & Partial<Pick<Config['displayNames'], 'trustFrameworks'>>;
  informationProviders?: readonly { name: string; names?: LocalizedText }[];
};

export function createDisplayNames(config: NamesConfig): DisplayNames {
  const issuers = Object.fromEntries(config.displayNames.issuers.map((entry) => [getAddress(entry.address), entry.name])) as Record<Address, string>;
  const topics: Record<string, string> = Object.fromEntries(config.claims.topics.map((topic) => [topic.name, topic.name]));
  for (const entry of config.displayNames.topics) topics[entry.topic] = entry.name;
  const profileWords = new Map<string, string>([...PROFILE_FIELDS, ...VERIFIED_FIELDS].map((field) => [field.name, field.label]));
  const frameworks = new Map(Object.entries(KNOWN_TRUST_FRAMEWORKS));
  for (const entry of config.displayNames.trustFrameworks ?? []) frameworks.set(entry.trust_framework, entry.name);
  const topic = (name: string) => topics[name] ?? name;
  const localized = {
    issuers: Object.fromEntries(config.displayNames.issuers.map((entry) => [getAddress(entry.address), entry.names ?? entry.name])) as Record<
      Address,
      LocalizedText
    >,
    topics: { ...topics, ...Object.fromEntries(config.displayNames.topics.flatMap((entry) => (entry.names ? [[entry.topic, entry.names]] : []))) } as Record<
      string,
      LocalizedText
    >,
    descriptions: Object.fromEntries(config.claims.topics.map((entry) => [entry.name, entry.descriptions ?? entry.description])) as Record<
      string,
      LocalizedText
    >,
    providers: Object.fromEntries((config.informationProviders ?? []).map((entry) => [entry.name, entry.names ?? entry.name])) as Record<string, LocalizedText>,
  };
  const field = (name: string) =>
    name.startsWith(CLAIM_SCOPE_PREFIX) ? topic(name.slice(CLAIM_SCOPE_PREFIX.length)) : (profileWords.get(name) ?? name.replaceAll('_', ' '));
  return {
    localized,
    issuer: (address) => {
      try {
        return issuers[getAddress(address)];
      } catch {
        return undefined;
      }
    },
    topic,
    trustFramework: (identifier) => frameworks.get(identifier) ?? `trust framework ${identifier}`,
    field,
    fieldIn: (name, { t, has, language }) => {
      if (has(`field_word.${name}`)) return t(`field_word.${name}`);
      const verified = name.startsWith(VERIFIED_FIELD_PREFIX) ? `verified_word.${name.slice(VERIFIED_FIELD_PREFIX.length)}` : undefined;
      if (verified && has(verified)) return t('field_word.verified', { what: t(verified) });
      const claimTopic = name.startsWith(CLAIM_SCOPE_PREFIX) ? name.slice(CLAIM_SCOPE_PREFIX.length) : undefined;
      if (claimTopic !== undefined) return textIn(localized.topics[claimTopic] ?? claimTopic, language);
      return field(name);
    },
    issuers,
    topics,
  };
}
