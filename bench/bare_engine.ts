// The bare engine: `oidc-provider` on Signet's Redis adapter (src/infra/store/oidc_adapter.ts) and
// nothing else of Signet's: no Koa stack (request ids, logs, metrics, request context, rate
// limits, security headers, body limits), no route table, an account model that reads nothing.
// Its login interaction finishes at once for a fixed account, as the engine floor's does. What
// Signet's userinfo costs above it is what Signet's middleware and account model add.
// With BENCH_SIGNET_MIDDLEWARE=1 the same engine is served through Signet's Koa stack
// (src/http/http_app.ts: request ids, access lines, metrics, request context, security headers,
// limits, body guard; no routes of its own): the difference is the middleware's cost alone.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import Provider, { type JWKS } from 'oidc-provider';
import { projectRoot } from '../src/base/project_root.js';
import { loadConfig } from '../src/config/config.js';
import { createHttpApp } from '../src/http/http_app.js';
import { createPageRenderer } from '../src/http/pages.js';
import { createLogger } from '../src/infra/observability/logger.js';
import { createMetrics } from '../src/infra/observability/metrics.js';
import { createRateLimits } from '../src/infra/rate_limits/rate_limits.js';
import { createOidcAdapter } from '../src/infra/store/oidc_adapter.js';
import { createRedisStore } from '../src/infra/store/redis_store.js';

const env = process.env;
const account = `eip155:${env.CHAIN_ID}:${env.BENCH_FIXED_IDENTITY}`;
const [client] = JSON.parse(env.CLIENTS!) as { client_id: string; client_secret: string; redirect_uris: string[] }[];
const INTERACTION = /^\/interaction\/([\w-]+)$/;

const store = createRedisStore(env.REDIS_URL!);
const provider = new Provider(env.ISSUER!, {
  adapter: createOidcAdapter(store),
  clients: [{ ...client!, grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
  jwks: JSON.parse(env.JWKS!) as JWKS,
  cookies: { keys: [env.COOKIE_KEYS!] },
  claims: { openid: ['sub'], profile: ['given_name', 'family_name', 'name'], email: ['email', 'email_verified'] },
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  features: { userinfo: { enabled: true }, devInteractions: { enabled: false } },
  // Refresh tokens as Signet issues them (to every client allowed the grant, rotated at each
  // use), so that refreshes compare the same work.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  rotateRefreshToken: true,
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  // The same claims for every login, held in memory: the engine's own cost, no store read.
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, given_name: 'Bench', email: 'bench@signet.bench', email_verified: true }) }),
});
provider.proxy = true;

/** The engine inside Signet's HTTP stack, as Signet's own settings build it. */
function withSignetMiddleware() {
  const config = loadConfig();
  const app = createHttpApp({
    config,
    provider,
    routes: [],
    limits: createRateLimits(store, config.rateLimits),
    renderPage: createPageRenderer(join(projectRoot, 'views'), join(projectRoot, 'public'), {
      localesDir: join(projectRoot, 'locales'),
      defaultLanguage: config.defaultLanguage,
    }),
    logger: createLogger({ level: config.ops.logLevel }),
    metrics: createMetrics(),
  });
  return app.callback();
}

const engine = env.BENCH_SIGNET_MIDDLEWARE === '1' ? withSignetMiddleware() : provider.callback();

async function finishAtOnce(req: IncomingMessage, res: ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: account, clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  grant.addOIDCClaims(['given_name', 'email']);
  const grantId = await grant.save();
  const returnTo = await provider.interactionResult(req, res, { login: { accountId: account }, consent: { grantId } });
  res.writeHead(303, { location: returnTo, 'content-length': '0' }).end();
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && INTERACTION.test(req.url ?? '')) {
    finishAtOnce(req, res).catch((error: unknown) => {
      console.error('bare engine interaction failed', error);
      if (!res.headersSent) res.writeHead(500).end();
    });
    return;
  }
  void engine(req, res);
});
server.listen(Number(env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void store.close().finally(() => process.exit(0));
});
