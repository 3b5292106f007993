// A Signet error thrown from inside an engine hook (an unreachable chain while the CIBA
// login_hint is checked, for one) keeps its status and body; the engine alone would answer
// 500 "server_error" to JSON callers.
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { SignetError } from '../../base/errors.js';

export function keepSignetErrors(provider: Provider): void {
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    // Pages (the engine's renderError) stay pages; JSON answers get Signet's body.
    // Outages (503) are answered by answerEngineOutages, pages included.
    if (!(error instanceof SignetError) || error.status === 503 || typeof ctx.body !== 'object' || ctx.body === null) return;
    ctx.status = error.status;
    ctx.body = error.toJSON();
    if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(error.retryAfterSeconds));
  });
}
