// The admin API for services' API keys, under /admin/services/:serviceId/api-keys: create,
// list, rotate, revoke. Admin token required; no answer is cached.
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { notFound } from '../errors.js';
import { adminAuth } from '../http/admin_auth.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import { parseBody } from '../http/parse_body.js';
import type { ApiKeys } from './api_keys.js';

export type ApiKeysRouterDeps = {
  apiKeys: ApiKeys;
  /** True when a client with this client_id is configured. */
  serviceExists: (serviceId: string) => boolean;
  adminToken?: string;
};

const createBody = z.object({
  label: z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional(),
});

export function createApiKeysRouter(deps: ApiKeysRouterDeps): Router {
  const router = new Router({ prefix: '/admin/services/:serviceId/api-keys' });
  // Answers carry keys or key metadata: no cache keeps any of them, refusals included.
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });
  // The token before the body and the service: without it nobody learns which services exist.
  router.use(adminAuth(deps.adminToken));
  router.use(jsonBody(BODY_LIMITS.api));

  const serviceOf = (ctx: Context): string => {
    const { serviceId } = ctx.params as { serviceId: string };
    if (!deps.serviceExists(serviceId)) throw notFound(`no service "${serviceId}" is registered`);
    return serviceId;
  };

  router.post('/', async (ctx) => {
    const serviceId = serviceOf(ctx);
    const { label } = parseBody(ctx, createBody);
    ctx.status = 201;
    ctx.body = await deps.apiKeys.create(serviceId, label);
  });

  router.get('/', async (ctx) => {
    ctx.body = { api_keys: await deps.apiKeys.list(serviceOf(ctx)) };
  });

  router.post('/:keyId/rotations', async (ctx) => {
    const serviceId = serviceOf(ctx);
    ctx.status = 201;
    ctx.body = await deps.apiKeys.rotate(serviceId, (ctx.params as { keyId: string }).keyId);
  });

  router.delete('/:keyId', async (ctx) => {
    const serviceId = serviceOf(ctx);
    ctx.body = await deps.apiKeys.revoke(serviceId, (ctx.params as { keyId: string }).keyId);
  });

  return router;
}
