// The Koa application around Signet's route table and the engine, in the order every request
// meets them: observation (request id, access log, metrics), security headers, the error answer
// (a request nothing answered included), the chain budget, static files, the route table, then
// the engine with its own guards. Cookies are Secure behind an https issuer, set once for the
// app. Nothing here knows a feature.
import { join } from 'node:path';
import Koa, { type Middleware } from 'koa';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import { projectRoot } from '../base/project_root.js';
import type { Config } from '../config/config.js';
import { chainDeadline } from '../infra/chain/chain_deadline.js';
import { observeEngine } from '../infra/observability/engine_events.js';
import type { Logger } from '../infra/observability/logger.js';
import type { Metrics } from '../infra/observability/metrics.js';
import { observeRequests } from '../infra/observability/request_observer.js';
import type { RateLimits } from '../infra/rate_limits/rate_limits.js';
import { authorizationBounds } from './authorization_bounds.js';
import { authorizationLimits } from './authorization_limits.js';
import { clientAuthLimits } from './client_auth_limits.js';
import { engineBodyGuard } from './engine_body_guard.js';
import { errorHandler } from './error_handler.js';
import { routeTable } from './mount_routes.js';
import type { RenderPage } from './pages.js';
import { secureCookiesFor, trustProxies } from './proxy_trust.js';
import { registrationLimits } from './registration_limits.js';
import type { AnyRoute } from './route.js';
import { securityHeaders } from './security_headers.js';
import { staticFiles } from './static_files.js';

export type HttpAppParts = {
  config: Config;
  provider: Provider;
  routes: readonly AnyRoute[];
  limits: RateLimits;
  renderPage: RenderPage;
  logger: Logger;
  metrics?: Metrics;
  /** Middleware that sees what the engine answers, right around it (the leaving page). */
  aroundEngine?: readonly Middleware[];
};

/** A connection cut by its client, or by the server's timeout for a slow one (src/app/http_server.ts): the client's doing. */
const CLIENT_GONE = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

export function createHttpApp({ config, provider, routes, limits, renderPage, logger, metrics, aroundEngine = [] }: HttpAppParts): Koa {
  const app = new Koa({ keys: [...config.cookieKeys] });
  // What reaches Koa's own error event is what no answer could carry: the connection went. Koa
  // would print each with its stack on stderr, a line per slow client an attacker sends.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (CLIENT_GONE.has(error.code ?? '')) logger.debug(`a request's connection ended before its answer (${error.code})`);
    else logger.error('a request failed past its answer', error);
  });
  trustProxies(app, provider, config.trustProxy);
  secureCookiesFor(app, config.issuer);
  // Request id, access log line and HTTP metrics around everything else.
  app.use(observeRequests(logger, metrics));
  observeEngine(provider, logger, metrics);
  app.use(securityHeaders());
  app.use(errorHandler(renderPage, logger));
  // One chain budget per request: every route that reads the chain answers within it.
  app.use(chainDeadline(config.chainTimeouts.requestMs));
  app.use(staticFiles(join(projectRoot, 'public')));
  app.use(routeTable(routes, limits));
  app.use(clientAuthLimits(limits));
  app.use(registrationLimits(limits));
  app.use(authorizationLimits(limits));
  app.use(engineBodyGuard());
  app.use(authorizationBounds());
  for (const middleware of aroundEngine) app.use(middleware);
  app.use(mount(provider));
  return app;
}
