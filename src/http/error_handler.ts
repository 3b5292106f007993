// Turns every error into Signet's one answer (docs/decisions.md, 18): JSON { error, error_description } for API
// callers, the error page in words for browsers. Unknown errors are logged, never shown. A
// request nothing answered is refused here too (unrouted.ts).
import type { Context, Middleware } from 'koa';
import { errors as oidcErrors } from 'oidc-provider';
import { refuse, SignetError } from '../base/errors.js';
import type { Logger } from '../infra/observability/logger.js';
import { routeOf } from '../infra/observability/request_observer.js';
import type { RenderPage } from './pages.js';
import { answerUnrouted } from './unrouted.js';

// JSON unless the caller prefers HTML (a browser asking for a page).
function wantsJson(ctx: Context): boolean {
  return ctx.method !== 'GET' || ctx.accepts('json', 'html') === 'json';
}

/**
 * Engine errors thrown from Signet's own routes in Signet's words. (A missing or expired
 * interaction never gets here: the interaction cookie check refuses it with its own reasons.)
 */
function fromEngine(error: InstanceType<typeof oidcErrors.OIDCProviderError>): SignetError {
  return refuse('login_refused', error.error_description ?? error.message);
}

/** A body error raised by a library (http-errors, as raw-body throws) in Signet's words. */
function fromHttpError(error: unknown): SignetError | undefined {
  const { status, expose } = error as { status?: number; expose?: boolean };
  if (expose !== true) return undefined;
  if (status === 413) return refuse('body_too_large', 'the request body is too large');
  if (status === 415) return refuse('content_type_unsupported', 'the request body is in a form Signet does not read');
  if (status === 400) return refuse('unreadable_body', 'the request body cannot be read');
  return undefined;
}

export function errorHandler(renderPage: RenderPage, logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      answerUnrouted(ctx);
    } catch (thrown) {
      let error: SignetError;
      if (thrown instanceof SignetError) error = thrown;
      else if (thrown instanceof oidcErrors.OIDCProviderError) error = fromEngine(thrown);
      else error = fromHttpError(thrown) ?? refuse('server_error', 'Signet could not complete the request');
      // The route's template, never the raw path (it holds identity addresses, claim ids, codes).
      if (error.status >= 500) logger.error(`${ctx.method} ${routeOf(ctx)}: ${error.message}`, error.cause ?? thrown);
      ctx.status = error.status;
      if (error.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      if (wantsJson(ctx)) {
        ctx.body = error.toJSON();
      } else if (error.status === 503) {
        // An outage is not the visitor's doing: the page says so and that trying again will do.
        renderPage(ctx, 'unavailable', { error: error.code, reason: error.reason ?? '', description: error.message });
      } else {
        renderPage(ctx, 'error', { error: error.code, description: error.message });
      }
    }
  };
}
