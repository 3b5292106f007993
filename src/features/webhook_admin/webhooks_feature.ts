// The webhook queue's operator side: the admin API over its dead letters. (The queue itself
// is built by the process, which runs its worker; owners' webhooks belong to the account.)
import type { Config } from '../../config/config.js';
import type { WebhookQueue } from '../../domain/webhooks/webhook_queue.js';
import { webhookAdminRoutes } from './webhook_admin_routes.js';

export function createWebhooksFeature(deps: { queue: WebhookQueue; config: Pick<Config, 'adminToken'> }) {
  return { routes: webhookAdminRoutes(deps.queue, deps.config.adminToken) };
}
