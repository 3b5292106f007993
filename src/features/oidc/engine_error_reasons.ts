// The engine's own JSON error answers (/token, /me, introspection, revocation, CIBA's
// /backchannel, …) carry a `reason` like Signet's: the OAuth error code (`invalid_grant`,
// `invalid_client`, `authorization_pending`, …), which the OAuth and OpenID specifications
// already define as stable. A Signet error met inside the engine (an outage, a refusal of one
// of Signet's hooks) has put its own, more specific reason there already and keeps it.
// Redirects to the website (errors in the query) and pages are left as the engine makes them.
import type Provider from 'oidc-provider';

type EngineErrorBody = { error: string; reason?: string };

function isErrorBody(body: unknown): body is EngineErrorBody {
  return typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && typeof (body as { error?: unknown }).error === 'string';
}

export function reasonEngineErrors(provider: Provider): void {
  // provider.use runs around every engine route, after its own error handling set the answer.
  provider.use(async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (ctx.status >= 400 && isErrorBody(body) && body.reason === undefined) body.reason = body.error;
  });
}
