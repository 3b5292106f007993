// The one hook that checks every answer of the test suite against /openapi.json: the harness
// puts it in front of every app it starts, and fails the test file (at close) on any answer
// that is off the document: a JSON answer of an undocumented route, an undocumented status,
// or a body off its schema.
import type { Middleware } from 'koa';
import type { OpenApiDocument } from '../../src/http/openapi.js';
import { openApiValidator } from './openapi_validator.js';

/** The engine's own endpoints: described by OIDC discovery, not by /openapi.json (matched in any case, as the engine's router does). */
const ENGINE_PATHS = [/^\/auth(\/|$)/i, /^\/token(\/|$)/i, /^\/me$/i, /^\/jwks$/i, /^\/\.well-known\//i, /^\/session\//i, /^\/backchannel$/i, /^\/request$/i, /^\/reg(\/|$)/i];

export type ContractCheck = { middleware: Middleware; violations: string[] };

export function contractCheck(document: OpenApiDocument): ContractCheck {
  const validator = openApiValidator(document);
  const violations: string[] = [];
  const middleware: Middleware = async (ctx, next) => {
    await next();
    if (ctx.respond === false || ENGINE_PATHS.some((pattern) => pattern.test(ctx.path))) return;
    const json = ctx.response.is('json') === 'json' && (ctx.body === null || typeof ctx.body === 'object') && !Buffer.isBuffer(ctx.body);
    const template = validator.templateOf(ctx.path);
    // Pages, static files and redirects of undocumented (HTML) routes are not JSON operations.
    if (!template && !json) return;
    if (!template) {
      // No route: Signet's own 404/405 answers are fine; any other JSON answer must be documented.
      const reason = (ctx.body as { reason?: string } | null)?.reason;
      if ((ctx.status === 404 && reason === 'route_not_found') || (ctx.status === 405 && reason === 'method_not_allowed')) return;
      violations.push(`${ctx.method} ${ctx.path} answered ${ctx.status} JSON, and is not in /openapi.json`);
      return;
    }
    if (!json && ctx.status !== 204 && ctx.status !== 202) return;
    try {
      validator.assertMatches(ctx.method === 'HEAD' ? 'GET' : ctx.method, ctx.path, ctx.status, json ? ctx.body : undefined);
    } catch (error) {
      if (ctx.status === 405) return;
      violations.push((error as Error).message);
    }
  };
  return { middleware, violations };
}
