// The OIDC engine's own events, logged at their level and counted: its server errors are
// Signet's faults (error); a client's or user's refused request is a warning; grants issued
// and revoked are worth an info line. Only ids and OAuth error codes are logged: never a
// token, a code or a claim value.
import type { EventEmitter } from 'node:events';
import type Provider from 'oidc-provider';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

// Events the engine emits as (ctx, error) when it refuses a request.
const REFUSAL_EVENTS = [
  'authorization.error',
  'grant.error',
  'backchannel.error',
  'introspection.error',
  'revocation.error',
  'userinfo.error',
  'end_session.error',
  'discovery.error',
  'jwks.error',
  'pushed_authorization_request.error',
  'registration_create.error',
] as const;

type EngineError = Error & { error?: string; error_description?: string; status?: number; statusCode?: number };
type EngineContext = { oidc?: { client?: { clientId?: string } } } | undefined;

function clientOf(ctx: EngineContext): string | undefined {
  return ctx?.oidc?.client?.clientId;
}

export function observeEngine(engine: Provider, logger: Logger, metrics?: Metrics): void {
  // The engine's typings list only some of its events; it is a plain EventEmitter.
  const provider = engine as unknown as EventEmitter;
  provider.on('server_error', (ctx: EngineContext, error: EngineError) => {
    metrics?.engineErrors.inc({ event: 'server_error', error: 'server_error' });
    logger.error('engine server_error', { event: 'server_error', client_id: clientOf(ctx), err: error });
  });
  for (const event of REFUSAL_EVENTS) {
    provider.on(event, (ctx: EngineContext, error: EngineError) => {
      const code = error.error ?? error.name;
      metrics?.engineErrors.inc({ event, error: code });
      // A 5xx inside the engine is still Signet's fault, whatever event carries it.
      const status = error.status ?? error.statusCode ?? 400;
      const line = { event, error: code, error_description: error.error_description, client_id: clientOf(ctx) };
      if (status >= 500) logger.error(`engine ${event}`, line);
      else logger.warn(`engine ${event}`, line);
    });
  }
  provider.on('grant.success', (ctx: EngineContext) => {
    logger.info('engine grant.success', { event: 'grant.success', client_id: clientOf(ctx) });
  });
  provider.on('grant.revoked', (_ctx: EngineContext, grantId: string) => {
    logger.info('engine grant.revoked', { event: 'grant.revoked', grant_id: grantId });
  });
  provider.on('authorization.success', (ctx: EngineContext) => {
    logger.info('engine authorization.success', { event: 'authorization.success', client_id: clientOf(ctx) });
  });
}
