// The one check of every URL given at run time that Signet calls or fetches: owners' and
// services' webhooks, SSF push endpoints, back-channel logout URIs, and the URLs the engine
// fetches for a client (jwks_uri, sector_identifier_uri). http(s) only, and every address the host
// resolves to must be public (public_address.ts). The check returns the address it approved, and
// the connection goes to exactly that one (pinned_request.ts), so a DNS answer that changes
// between the check and the connection (rebinding) cannot steer it inward. A refused URL is
// answered before any connection is tried, so nothing tells an open port from a closed one.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refuse } from '../../base/errors.js';
import { refusedRange } from './public_address.js';

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** Every address a host name resolves to; injectable so a test can play a rebinding DNS. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

// Answers that say the name does not exist (the URL's fault), as opposed to a resolver that failed.
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export type CheckOptions = {
  /** What the URL is, for the sentences: "webhook" (the default) says "the webhook URL", "" says "the URL". */
  what?: string;
  /** Ends the wait for the resolver (DNS has no signal of its own). */
  signal?: AbortSignal;
};

export type UrlGuard = {
  /** The address to connect to; throws 400 webhook_url_not_public / webhook_url_unresolvable, or 503 dns_unavailable. */
  check(url: string, options?: CheckOptions): Promise<ResolvedAddress>;
};

/** Settles with `work`, or rejects with the signal's reason once it aborts. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

export function createUrlGuard(options: { allowPrivate: boolean; resolveHost?: ResolveHost }): UrlGuard {
  const resolveHost = options.resolveHost ?? systemResolveHost;
  return {
    async check(url, { what = 'webhook', signal } = {}) {
      const the = (noun: string) => (what ? `the ${what} ${noun}` : `the ${noun}`);
      const parsed = URL.parse(url);
      if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
        throw refuse('webhook_url_not_public', `${the('URL')} must be http or https`);
      }
      // URL keeps IPv6 literals in brackets; an IP literal needs no DNS.
      const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      const family = isIP(host);
      let addresses: ResolvedAddress[];
      if (family) addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
      else {
        try {
          addresses = await untilAborted(resolveHost(host), signal);
        } catch (error) {
          if (signal?.aborted) throw error;
          const code = (error as { code?: string }).code ?? '';
          if (NO_SUCH_NAME.has(code)) {
            throw refuse('webhook_url_unresolvable', `${the('host')} ${host} does not resolve`, { cause: error });
          }
          throw refuse('dns_unavailable', `${the('host')} ${host} could not be resolved now`, { cause: error });
        }
      }
      if (addresses.length === 0) {
        throw refuse('webhook_url_unresolvable', `${the('host')} ${host} does not resolve`);
      }
      // Every answer must be public: a name may list a public address beside an inner one.
      for (const { address } of addresses) {
        const range = refusedRange(address, options.allowPrivate);
        if (range) {
          throw refuse('webhook_url_not_public', `${the('URL')} resolves to a non-public address (${range}): only public addresses are called`);
        }
      }
      return addresses[0]!;
    },
  };
}
