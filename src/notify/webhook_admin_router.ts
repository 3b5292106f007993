// The admin API of the webhook queue: list the dead letters, put one back for delivery.
// Behind the admin token like every /admin route.
import Router from '@koa/router';
import { adminAuth } from '../http/admin_auth.js';
import { BODY_LIMITS, jsonBody } from '../http/body.js';
import type { WebhookQueue } from './webhook_queue.js';

export function createWebhookAdminRouter(queue: WebhookQueue, adminToken: string | undefined): Router {
  const router = new Router({ prefix: '/admin/webhooks' });
  router.use(adminAuth(adminToken));
  // No route here takes a body; one sent anyway is still bounded like any other.
  router.use(jsonBody(BODY_LIMITS.api));

  router.get('/dead-letters', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { dead_letters: await queue.deadLetters() };
  });

  router.post('/dead-letters/:id/replay', async (ctx) => {
    const { id } = ctx.params as { id: string };
    await queue.replay(id);
    ctx.status = 202;
    ctx.body = { id, status: 'queued' };
  });

  return router;
}
