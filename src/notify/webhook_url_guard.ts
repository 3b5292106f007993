// Checks a webhook URL given at run time (an owner's) before Signet calls it: http(s), and every
// address its host resolves to is public (public_address.ts). The check returns the address it
// approved, and delivery connects to exactly that one, so a DNS answer that changes between the
// check and the connection (rebinding) cannot steer the request inward.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refuse } from '../errors.js';
import { refusedRange } from './public_address.js';

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** Every address a host name resolves to; injectable so a test can play a rebinding DNS. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

// Answers that say the name does not exist (the URL's fault), as opposed to a resolver that failed.
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export type WebhookUrlGuard = {
  /** The address to connect to; throws 400 webhook_url_not_public / webhook_url_unresolvable, or 503 dns_unavailable. */
  check(url: string): Promise<ResolvedAddress>;
};

export function createWebhookUrlGuard(options: { allowPrivate: boolean; resolveHost?: ResolveHost }): WebhookUrlGuard {
  const resolveHost = options.resolveHost ?? systemResolveHost;
  return {
    async check(url) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw refuse('webhook_url_not_public', 'the webhook URL must be http or https');
      }
      // URL keeps IPv6 literals in brackets; an IP literal needs no DNS.
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      const family = isIP(host);
      let addresses: ResolvedAddress[];
      if (family) addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
      else {
        try {
          addresses = await resolveHost(host);
        } catch (error) {
          const code = (error as { code?: string }).code ?? '';
          if (NO_SUCH_NAME.has(code)) {
            throw refuse('webhook_url_unresolvable', `the webhook host ${host} does not resolve`, { cause: error });
          }
          throw refuse('dns_unavailable', `the webhook host ${host} could not be resolved now`, { cause: error });
        }
      }
      if (addresses.length === 0) {
        throw refuse('webhook_url_unresolvable', `the webhook host ${host} does not resolve`);
      }
      // Every answer must be public: a name may list a public address beside an inner one.
      for (const { address } of addresses) {
        const range = refusedRange(address, options.allowPrivate);
        if (range) {
          throw refuse('webhook_url_not_public', `the webhook URL resolves to ${address} (${range}): only public addresses are called`);
        }
      }
      return addresses[0]!;
    },
  };
}
