// The names people read instead of raw identifiers: a claim issuer's name instead of its
// address, a topic's name instead of its code, a field's words instead of its OIDC name.
import { type Address, getAddress } from 'viem';
import type { Config } from '../config.js';
import { CLAIM_SCOPE_PREFIX } from './claim_topics.js';
import { PROFILE_FIELDS } from '../fields/fields.js';

export type DisplayNames = {
  /** The configured name of a claim issuer, if it has one. */
  issuer(address: string): string | undefined;
  /** A topic's configured name, else its code name (kyc). */
  topic(name: string): string;
  /** A field in words: "first name", "KYC check". */
  field(name: string): string;
  /** Every configured issuer name by checksummed address, for page scripts. */
  issuers: Record<Address, string>;
  /** Every topic name by topic code name, for page scripts. */
  topics: Record<string, string>;
};

export function createDisplayNames(config: Pick<Config, 'displayNames' | 'claims'>): DisplayNames {
  const issuers = Object.fromEntries(config.displayNames.issuers.map((entry) => [getAddress(entry.address), entry.name])) as Record<Address, string>;
  const topics: Record<string, string> = Object.fromEntries(config.claims.topics.map((topic) => [topic.name, topic.name]));
  for (const entry of config.displayNames.topics) topics[entry.topic] = entry.name;
  const profileWords = new Map<string, string>(PROFILE_FIELDS.map((field) => [field.name, field.label]));
  const topic = (name: string) => topics[name] ?? name;
  return {
    issuer: (address) => {
      try {
        return issuers[getAddress(address)];
      } catch {
        return undefined;
      }
    },
    topic,
    field: (name) =>
      name.startsWith(CLAIM_SCOPE_PREFIX) ? topic(name.slice(CLAIM_SCOPE_PREFIX.length)) : (profileWords.get(name) ?? name.replaceAll('_', ' ')),
    issuers,
    topics,
  };
}
