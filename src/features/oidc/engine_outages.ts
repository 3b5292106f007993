// The engine answers errors in its own routes, and one it does not know becomes `500
// server_error`. An outage of a part Signet needs (Redis) met inside the engine is answered
// as what it is: 503 temporarily_unavailable with its reason, JSON or a page, like Signet's routes.
import type { Context } from 'koa';
import type Provider from 'oidc-provider';
import { SignetError } from '../../base/errors.js';
import type { RenderPage } from '../../http/pages.js';
import type { Logger } from '../../infra/observability/logger.js';
import { routeOf } from '../../infra/observability/request_observer.js';

/** The outage behind an error, following its causes: a SignetError with status 503. */
export function outageIn(error: unknown): SignetError | undefined {
  for (let at = error, depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    if (at instanceof SignetError) return at.status === 503 ? at : undefined;
  }
  return undefined;
}

/** Answers an outage: JSON for API callers, the unavailable page for a browser. */
export function answerOutage(ctx: Context, outage: SignetError, renderPage: RenderPage): void {
  ctx.status = outage.status;
  if (outage.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(outage.retryAfterSeconds))));
  ctx.set('Cache-Control', 'no-store');
  if (ctx.accepts('json', 'html') === 'html') {
    renderPage(ctx, 'unavailable', { error: outage.code, reason: outage.reason ?? '', description: outage.message });
  } else {
    ctx.body = outage.toJSON();
  }
}

/**
 * The engine reports every unknown error as `server_error`, after it set its 500 answer, and
 * before the response leaves: an outage's answer replaces it there. (Pages go through the
 * engine's renderError, which calls answerOutage itself.)
 */
export function answerEngineOutages(provider: Provider, renderPage: RenderPage, logger: Logger): void {
  provider.on('server_error', (ctx: Context, error: unknown) => {
    const outage = outageIn(error);
    if (!outage) {
      // Signet's own refusals thrown from an engine hook are answered by keepSignetErrors.
      if (!(error instanceof SignetError)) logger.error(`${ctx.method} ${routeOf(ctx)}: the engine failed`, error);
      return;
    }
    logger.error(`${ctx.method} ${routeOf(ctx)}: ${outage.message}`, outage.cause);
    if (ctx.status !== outage.status) answerOutage(ctx, outage, renderPage);
  });
}
