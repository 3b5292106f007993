// A registration (RFC 7591) or its update (RFC 7592) whose sector_identifier_uri the engine
// could not fetch because Signet's URL guard refused it (src/infra/outbound/) is answered the
// standard 400 invalid_client_metadata, with the guard's reason added to the engine's sentence
// ("could not load sector_identifier_uri response: the URL resolves to a non-public address (loopback): …").
// A resolver that failed is an outage, answered as one (503 dns_unavailable). Other causes (a
// connection refused, a timeout) add nothing: they would tell a stranger which of Signet's
// neighbours listen.
import type Provider from 'oidc-provider';
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { SignetError } from '../../base/errors.js';
import type { RenderPage } from '../../http/pages.js';
import { answerOutage } from './engine_outages.js';

/** The guard's refusal behind an engine error, following its causes. */
function refusalBehind(error: unknown): SignetError | undefined {
  let at = (error as { cause?: unknown } | undefined)?.cause;
  for (let depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    if (at instanceof SignetError) return at;
  }
  return undefined;
}

export function explainRefusedFetches(provider: Provider, renderPage: RenderPage): void {
  const explain = (ctx: KoaContextWithOIDC, error: unknown) => {
    if (!(error instanceof errors.InvalidClientMetadata)) return;
    const refusal = refusalBehind(error);
    if (!refusal) return;
    if (refusal.status === 503) return answerOutage(ctx, refusal, renderPage);
    const body = ctx.body as { error_description?: unknown } | undefined;
    if (typeof body?.error_description === 'string') body.error_description = `${body.error_description}: ${refusal.message}`;
  };
  provider.on('registration_create.error', explain);
  provider.on('registration_update.error', explain);
}
