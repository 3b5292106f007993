// The outermost middleware: gives each request its id (an incoming sane X-Request-Id, else a
// new one), returns it as X-Request-Id, runs the request inside that context so every log line
// carries it, then writes one access line and the HTTP metrics. Lines name the route template,
// never the raw path or query (they hold codes, states, identity addresses).
import type { Context, Middleware } from 'koa';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { requestContext, requestIdFrom } from './request_context.js';

// The engine's endpoints (mounted at the root, outside Signet's routers).
const ENGINE_ROUTES: [RegExp, string][] = [
  [/^\/\.well-known\/openid-configuration$/, '/.well-known/openid-configuration'],
  [/^\/auth(\/[^/]+)?$/, '/auth'],
  [/^\/token$/, '/token'],
  [/^\/token\/introspection$/, '/token/introspection'],
  [/^\/token\/revocation$/, '/token/revocation'],
  [/^\/me$/, '/me'],
  [/^\/jwks$/, '/jwks'],
  [/^\/session\/end(\/[^/]+)?$/, '/session/end'],
  [/^\/backchannel$/, '/backchannel'],
  [/^\/challenge$/, '/challenge'],
  [/^\/credential$/, '/credential'],
  [/^\/(healthz|readyz|openapi\.json)$/, ''],
];

/** A bounded label for the route: the router's template, an engine endpoint, or "unmatched". */
export function routeOf(ctx: Context): string {
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  for (const [pattern, name] of ENGINE_ROUTES) if (pattern.test(ctx.path)) return name || ctx.path;
  if (ctx.path.startsWith('/css/') || ctx.path.startsWith('/js/') || ctx.path.startsWith('/img/')) return '/static';
  return 'unmatched';
}

const SIGNATURE_ROUTE = '/interaction/:uid/signature';
// Probes arrive every few seconds from the container and the load balancer: debug when fine.
const PROBES = new Set(['/healthz', '/readyz']);

export function observeRequests(logger: Logger, metrics?: Metrics): Middleware {
  return (ctx, next) => {
    const requestId = requestIdFrom(ctx.get('x-request-id') || undefined);
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    // The Koa context holds the request's: the engine's store then holds the same object (request_context.ts).
    return requestContext.run(
      { request_id: requestId },
      async () => {
        const started = process.hrtime.bigint();
        try {
          await next();
        } finally {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          const route = routeOf(ctx);
          const status = ctx.status;
          const reason = (ctx.body as { reason?: unknown } | undefined)?.reason;
          const line = { method: ctx.method, route, status, duration_ms: Math.round(seconds * 1000 * 10) / 10 };
          if (status >= 500) logger.error('request', { ...line, ...(typeof reason === 'string' ? { reason } : {}) });
          else if (PROBES.has(route) && status < 400) logger.debug('request', line);
          else logger.info('request', line);
          if (metrics) {
            metrics.httpRequests.inc({ method: ctx.method, route, status: String(status) });
            metrics.httpDuration.observe({ method: ctx.method, route }, seconds);
            if (status === 429) metrics.rateLimitHits.inc({ route });
            if (route === SIGNATURE_ROUTE && ctx.method === 'POST') {
              metrics.loginOutcomes.inc(
                status === 200
                  ? { outcome: 'success', reason: 'none' }
                  : { outcome: 'failure', reason: typeof reason === 'string' ? reason : String((ctx.body as { error?: unknown })?.error ?? status) },
              );
            }
          }
        }
      },
      ctx,
    );
  };
}
