// Signet's rules for a client added at run time (the admin API, dynamic registration), on top of
// the engine's own validation: the rules every client meets (client_metadata.ts), https redirect
// URIs in production, and URLs Signet will call (webhook_url, backchannel_logout_uri) that pass
// the same address check as owners' webhooks. CLIENTS is the operator's: its URLs are trusted.
import { SignetError } from '../errors.js';
import type { WebhookUrlGuard } from '../notify/webhook_url_guard.js';
import { type ClientFields, type ClientProblem, clientProblem } from './client_metadata.js';

export type RunTimeClient = ClientFields & { redirect_uris?: readonly string[]; post_logout_redirect_uris?: readonly string[] };

/** The first rule the client breaks, or undefined (a resolver that fails throws its 503 dns_unavailable). */
export type ClientRules = (client: RunTimeClient) => Promise<ClientProblem | undefined>;

const isHttps = (uri: string) => URL.parse(uri)?.protocol === 'https:';

export function createClientRules(deps: { production: boolean; guard: WebhookUrlGuard }): ClientRules {
  return async (client) => {
    const broken = clientProblem(client);
    if (broken) return broken;
    if (deps.production) {
      for (const field of ['redirect_uris', 'post_logout_redirect_uris'] as const) {
        if ((client[field] ?? []).some((uri) => !isHttps(uri))) return { field, problem: 'must be https URLs in production' };
      }
    }
    // Signet posts to these: they resolve to public addresses (WEBHOOKS_ALLOW_PRIVATE lifts it in development).
    for (const field of ['webhook_url', 'backchannel_logout_uri'] as const) {
      const url = client[field];
      if (!url) continue;
      const refused = await deps.guard.check(url).then(
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
