// A client's logo, fetched by Signet and served from its own origin (docs/decisions.md, 81), so
// the owner's browser contacts nobody but Signet before consenting. Only a logo_uri the consent
// page may show (https, on a redirect URI's host: client_presentation.ts) is fetched, through the
// one outbound guard (src/infra/outbound/), with no redirect followed, under a deadline and a
// byte bound, and kept only when its bytes are a PNG, JPEG, WebP or GIF (logo_image.ts). Each
// outcome, a refusal too, is kept per process for a few minutes: a page view costs the client's
// server at most one request per logo and process in that time.
import { LRUCache } from 'lru-cache';
import { bodyUpTo } from '../../infra/outbound/bounded_body.js';
import type { GuardedFetch } from '../../infra/outbound/guarded_fetch.js';
import { isOwnPage, redirectHostsOf } from './client_presentation.js';
import { type LogoType, logoTypeOf } from './logo_image.js';

export type Logo = { type: LogoType; bytes: Uint8Array };

export type ClientLogoSettings = {
  /** The largest logo served, in bytes. */
  maxBytes: number;
  /** How long Signet waits for the client's server. */
  timeoutMs: number;
  /** How long an outcome (a logo or a refusal) is kept. */
  keepMs: number;
};

export const CLIENT_LOGO_SETTINGS: ClientLogoSettings = { maxBytes: 100 * 1024, timeoutMs: 3000, keepMs: 5 * 60_000 };

/** The logos kept at once per process (bounded by bytes too). */
const KEPT_LOGOS = 500;
const KEPT_BYTES = 20 * 1024 * 1024;

export type ClientLogos = {
  /** The logo_uri the consent page may show of this client's metadata, or undefined. */
  shownUri(metadata: Record<string, unknown>): string | undefined;
  /** The client's logo, or undefined when there is none to serve (none given, refused, unreachable). */
  logoOf(metadata: Record<string, unknown>): Promise<Logo | undefined>;
};

export function createClientLogos(fetch: GuardedFetch, settings: ClientLogoSettings = CLIENT_LOGO_SETTINGS): ClientLogos {
  const fetchLogo = async (uri: string): Promise<Logo | false> => {
    try {
      const response = await fetch(uri, {
        headers: { accept: 'image/png, image/jpeg, image/webp, image/gif' },
        redirect: 'error',
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return false;
      }
      const bytes = await bodyUpTo(response, settings.maxBytes);
      const type = bytes && logoTypeOf(bytes);
      return bytes && type ? { type, bytes } : false;
    } catch {
      // Refused by the guard, unreachable, too slow, a redirect: no logo.
      return false;
    }
  };
  // `false`: a refusal, kept like a logo so a page view does not ask again.
  const kept = new LRUCache<string, Logo | false>({
    max: KEPT_LOGOS,
    maxSize: KEPT_BYTES,
    sizeCalculation: (logo) => (logo ? logo.bytes.byteLength : 1) || 1,
    ttl: settings.keepMs,
    fetchMethod: (uri) => fetchLogo(uri),
  });
  const shownUri = (metadata: Record<string, unknown>) => {
    const uri = metadata.logo_uri;
    return isOwnPage(uri, redirectHostsOf(Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [])) ? uri : undefined;
  };
  return {
    shownUri,
    async logoOf(metadata) {
      const uri = shownUri(metadata);
      if (!uri) return undefined;
      return (await kept.fetch(uri)) || undefined;
    },
  };
}
