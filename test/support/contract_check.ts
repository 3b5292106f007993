// The one hook that checks every answer of the test suite against /openapi.json: the harness
// puts it in front of every app it starts, and fails the test file (at close) on any answer
// that is off the document: a JSON answer of an undocumented route, an undocumented status,
// or a body off its schema. A page's form post (kept out of the document) may refuse in JSON, with a
// refusal its route declaration gives.
import type { Middleware } from 'koa';
import { statusOfCode } from '../../src/base/error_codes.js';
import { isReason, REASONS } from '../../src/base/reasons.js';
import { type OpenApiDocument, refusalsOf } from '../../src/http/openapi.js';
import type { AnyRoute } from '../../src/http/route.js';
import { openApiValidator } from './openapi_validator.js';

/** The engine's own endpoints: described by OIDC discovery, not by /openapi.json. */
const ENGINE_PATHS = [
  /^\/auth(\/|$)/i,
  /^\/token(\/|$)/i,
  /^\/me$/i,
  /^\/jwks$/i,
  /^\/\.well-known\//i,
  /^\/session\//i,
  /^\/backchannel$/i,
  /^\/request$/i,
  /^\/reg(\/|$)/i,
  // OpenID4VCI: the nonce and credential endpoints (described by the credential issuer metadata).
  /^\/challenge$/i,
  /^\/credential$/i,
];

export type ContractCheck = { middleware: Middleware; violations: string[] };

/**
 * A refusal by a route kept out of the document (a page's form post answers an API caller's
 * refusal in JSON): it must be one the route's declaration gives, with the reason's status.
 */
function undocumentedRefusals(routes: readonly AnyRoute[]) {
  const pages = routes
    .filter((route) => route.undocumented)
    .map((route) => ({ route, pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`) }));
  return (method: string, path: string, status: number, body: unknown): string | undefined => {
    const page = pages.find(({ route, pattern }) => route.method === method.toLowerCase() && pattern.test(path));
    if (!page) return `${method} ${path} answered ${status} JSON, and is not in /openapi.json`;
    const reason = (body as { reason?: unknown } | null)?.reason;
    if (reason === undefined) return `${method} ${page.route.path} answered ${status} JSON that is not a refusal, and is not in /openapi.json`;
    if (!isReason(reason) || !refusalsOf(page.route).includes(reason)) {
      return `${method} ${page.route.path} answered ${status} with reason ${String(reason)}, which its declaration does not give`;
    }
    if (statusOfCode(REASONS[reason].error) !== status) return `${method} ${page.route.path} answered ${reason} with ${status}`;
    return undefined;
  };
}

export function contractCheck(document: OpenApiDocument, routes: readonly AnyRoute[] = []): ContractCheck {
  const validator = openApiValidator(document);
  const refusalOffDeclaration = undocumentedRefusals(routes);
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
      // A page's form post may refuse in JSON, with a refusal its declaration gives.
      const violation = refusalOffDeclaration(ctx.method, ctx.path, ctx.status, ctx.body);
      if (violation) violations.push(violation);
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
