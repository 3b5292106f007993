// The token request of a credential offer, before the engine sees it. Two things the engine
// does otherwise: a request without client_id is refused (it knows no anonymous client), and a
// wrong tx_code uses the code up and revokes its grant, so a mistyped code would cost the owner
// a new offer. Here a request without client_id is the wallet's client's, and a wrong tx_code is
// answered invalid_grant with the code left as it was, five times per offer; the sixth wrong
// one goes to the engine, which then ends the code (a six-digit code cannot be guessed in five).
import { createHash, randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { sameSecret } from '../../http/authenticators.js';
import { BODY_LIMITS, readRawBody } from '../../http/body.js';
import { isEnginePath } from '../../http/engine_path.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import { PRE_AUTHORIZED_GRANT, WALLET_CLIENT_ID } from './wallet_client.js';

/** Wrong transaction codes an offer survives. */
export const TX_CODE_ATTEMPTS = 5;

export function offerTokenCheck(deps: { provider: Provider; store: Store; offerSeconds: number }): Middleware {
  return async (ctx, next) => {
    // Every spelling of the path the engine answers as its token endpoint (`/token/`, `/TOKEN`).
    if (ctx.method !== 'POST' || !isEnginePath(ctx.path, '/token') || !ctx.is('application/x-www-form-urlencoded')) return next();
    const req = ctx.req as { body?: Buffer };
    req.body ??= await readRawBody(ctx, BODY_LIMITS.engine.bytes);
    // Every other token request (a website's code or refresh) goes on unparsed.
    if (!req.body.includes('pre-authorized_code')) return next();
    const form = new URLSearchParams(req.body.toString('utf8'));
    if (form.get('grant_type') !== PRE_AUTHORIZED_GRANT) return next();
    if (!form.get('client_id') && !ctx.get('authorization')) {
      form.set('client_id', WALLET_CLIENT_ID);
      req.body = Buffer.from(form.toString());
    }
    const value = form.get('pre-authorized_code');
    const given = form.get('tx_code');
    if (!value || given === null) return next();
    const code = await deps.provider.PreAuthorizedCode.find(value);
    if (!code?.txCode || sameSecret(given, code.txCode)) return next();
    const attempts = keys.txCodeAttempts(createHash('sha256').update(value).digest('base64url'));
    if (!(await deps.store.addToIndexWithin(attempts, randomUUID(), deps.offerSeconds, TX_CODE_ATTEMPTS))) return next();
    ctx.status = 400;
    ctx.set('cache-control', 'no-store');
    ctx.body = { error: 'invalid_grant', error_description: 'invalid tx_code provided; the offer still stands' };
  };
}
