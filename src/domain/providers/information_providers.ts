// The Information Providers the operator lists (INFORMATION_PROVIDERS): which one holds a claim's
// data (its `uri` lies under the provider's URL), and which URLs Signet trusts as the operator's.
import type { Config } from '../../config/config.js';

export type InformationProvider = Config['informationProviders'][number];

export type InformationProviders = {
  readonly all: readonly InformationProvider[];
  /** The provider whose URL the claim's `uri` lies under (at a path boundary), if any. */
  of(uri: string): InformationProvider | undefined;
  byName(name: string): InformationProvider | undefined;
  /** A URL of a listed provider's origin: reached without the address check, as CLIENTS' own URLs are. */
  trusts(href: string): boolean;
};

export function informationProviders(list: readonly InformationProvider[]): InformationProviders {
  const origins = new Set(list.map((provider) => new URL(provider.url).origin));
  return {
    all: list,
    of: (uri) => list.find((provider) => uri.startsWith(`${provider.url}/`)),
    byName: (name) => list.find((provider) => provider.name === name),
    trusts: (href) => origins.has(URL.parse(href)?.origin ?? ''),
  };
}
