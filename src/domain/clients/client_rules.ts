// Signet's rules for a client added at run time (the admin API, dynamic registration), on top of
// the engine's own validation: the rules every client meets (client_metadata.ts), https redirect
// URIs in production, and every URL Signet or the engine will call or fetch for it (webhook_url,
// backchannel_logout_uri, jwks_uri, sector_identifier_uri…) passing the one address check of
// src/infra/outbound/. CLIENTS is the operator's: its URLs are trusted. And what owners read of
// it (decision 81): its names (client_name, client_name#fr…) are no look-alike of Signet's or of
// the operator's clients and cannot pass for part of the signed text; its pages (client_uri,
// policy_uri, tos_uri) and logo are https URLs on its redirect URIs' hosts.
import { SignetError } from '../../base/errors.js';
import { type ClientFields, type ClientProblem, clientProblem } from '../../config/client_metadata.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import { CLIENT_LINK_FIELDS, LOCALIZED_NAME_FIELDS, ownPageProblem, redirectHostsOf, runTimeNameProblem } from './client_presentation.js';

export type RunTimeClient = ClientFields & {
  redirect_uris?: readonly string[];
  post_logout_redirect_uris?: readonly string[];
  sector_identifier_uri?: string;
  backchannel_client_notification_endpoint?: string;
  client_name?: string;
  client_uri?: string;
  policy_uri?: string;
  tos_uri?: string;
  logo_uri?: string;
} & { [localizedName: `client_name#${string}`]: unknown };

/** The first rule the client breaks, or undefined (a resolver that fails throws its 503 dns_unavailable). */
export type ClientRules = (client: RunTimeClient) => Promise<ClientProblem | undefined>;

/**
 * A client's URLs that Signet posts to (webhook_url, backchannel_logout_uri) or the engine
 * fetches (jwks_uri; sector_identifier_uri, at registration too; the CIBA ping endpoint, were
 * ping mode offered). A field added here is checked for every run-time client.
 */
export const OUTBOUND_URL_FIELDS = [
  'webhook_url',
  'backchannel_logout_uri',
  'jwks_uri',
  'sector_identifier_uri',
  'backchannel_client_notification_endpoint',
] as const;

const isHttps = (uri: string) => URL.parse(uri)?.protocol === 'https:';

/** The URLs of CLIENTS that the engine fetches (their jwks_uri…): the operator's, trusted by its fetch. */
export function configuredOutboundUrls(clients: readonly Record<string, unknown>[]): Set<string> {
  // Only the documents the engine fetches by GET (a key set, a list of redirect URIs): a stranger
  // who names one of them gets that harmless document read, never a configured webhook or logout URI.
  const fetched = ['jwks_uri', 'sector_identifier_uri'] as const;
  const urls = clients.flatMap((client) => fetched.map((field) => client[field]).filter((url): url is string => typeof url === 'string'));
  return new Set(urls.flatMap((url) => URL.parse(url)?.href ?? []));
}

/** The first problem of what owners read of the client: its names, its pages, its logo. */
export function shownMetadataProblem(client: RunTimeClient, reservedNames: readonly string[]): ClientProblem | undefined {
  for (const field of ['client_name', ...LOCALIZED_NAME_FIELDS] as const) {
    const name = client[field];
    if (name === undefined) continue;
    if (typeof name !== 'string') return { field, problem: 'must be text' };
    const problem = runTimeNameProblem(name, reservedNames);
    if (problem) return { field, problem };
  }
  const hosts = redirectHostsOf(client.redirect_uris ?? []);
  for (const field of [...CLIENT_LINK_FIELDS, 'logo_uri'] as const) {
    const uri = client[field];
    if (uri === undefined) continue;
    const problem = typeof uri === 'string' ? ownPageProblem(uri, hosts) : 'must be an https URL';
    if (problem) return { field, problem };
  }
  return undefined;
}

/** `reservedNames`: names no run-time client may take or imitate (Signet, its built-in clients, CLIENTS' names). */
export function createClientRules(deps: { production: boolean; guard: UrlGuard; reservedNames: readonly string[] }): ClientRules {
  return async (client) => {
    const broken = clientProblem(client) ?? shownMetadataProblem(client, deps.reservedNames);
    if (broken) return broken;
    if (deps.production) {
      for (const field of ['redirect_uris', 'post_logout_redirect_uris'] as const) {
        if ((client[field] ?? []).some((uri) => !isHttps(uri))) return { field, problem: 'must be https URLs in production' };
      }
    }
    // Signet posts to these and the engine fetches them: they resolve to public addresses
    // (WEBHOOKS_ALLOW_PRIVATE lifts it in development), checked again at every connection.
    for (const field of OUTBOUND_URL_FIELDS) {
      const url = client[field];
      if (typeof url !== 'string') continue;
      const refused = await deps.guard.check(url, { what: field === 'webhook_url' ? 'webhook' : '' }).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof SignetError && error.status === 400) return error.message;
          throw error;
        },
      );
      if (refused) return { field, problem: `is refused: ${refused}` };
    }
    return undefined;
  };
}
