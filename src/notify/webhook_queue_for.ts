// The webhook queue a Signet process runs: on Redis when one is configured (server, cluster or Sentinel), else in memory, with
// the services' targets from configuration and the owners' from the store.
import type { Config } from '../config.js';
import { createLogHash } from '../observability/log_hash.js';
import { redisConnectionOf } from '../store/redis_connection.js';
import type { Store } from '../store/store.js';
import { createMemoryWebhookQueue } from './memory_webhook_queue.js';
import { createOwnerWebhooks } from './owner_webhooks.js';
import { createRedisWebhookQueue } from './redis_webhook_queue.js';
import type { WebhookQueue, WebhookQueueOptions } from './webhook_queue.js';
import { webhookTargets } from './webhook_targets.js';

export function createWebhookQueueFor(config: Config, store: Store, tuning: Partial<WebhookQueueOptions> = {}): WebhookQueue {
  const options: WebhookQueueOptions = {
    targetOf: webhookTargets(config.clients, createOwnerWebhooks(store).targetOf),
    retryDelaysMs: config.grants.webhookRetryDelaysMs,
    allowPrivateTargets: config.webhooks.allowPrivate,
    timeoutMs: config.webhooks.timeoutMs,
    concurrency: config.webhooks.concurrency,
    perTargetConcurrency: config.webhooks.perTargetConcurrency,
    logHash: createLogHash(config.logHashKey),
    ...tuning,
  };
  const connection = redisConnectionOf(config);
  return connection ? createRedisWebhookQueue(connection, { ...options, redis: config.redis }) : createMemoryWebhookQueue(options);
}
