// The webhook queue a Signet process runs: on Redis when one is configured (server, cluster or Sentinel), else in memory, with
// the services' targets from their clients (the client registry) and the owners' from the store, and the signals'
// (logout tokens to "bcl:<client_id>", SETs to "ssf:<stream_id>": src/features/signals/signal_targets.ts).

import type { Config } from '../config/config.js';
import { createClientRegistry } from '../domain/clients/client_registry.js';
import { createMemoryWebhookQueue } from '../domain/webhooks/memory_webhook_queue.js';
import { createOwnerWebhooks } from '../domain/webhooks/owner_webhooks.js';
import { createRedisWebhookQueue } from '../domain/webhooks/redis_webhook_queue.js';
import type { WebhookQueue, WebhookQueueOptions } from '../domain/webhooks/webhook_queue.js';
import { webhookTargets } from '../domain/webhooks/webhook_targets.js';
import { createSignalSigner } from '../features/signals/signal_signer.js';
import { isSignalService, signalTargets } from '../features/signals/signal_targets.js';
import { createSsfStreams } from '../features/signals/ssf_streams.js';
import { signingKeysOf } from '../infra/keys/signing_keys.js';
import { createLogHash } from '../infra/observability/log_hash.js';
import { createClientRecords } from '../infra/store/client_records.js';
import { redisConnectionOf } from '../infra/store/redis_connection.js';
import type { Store } from '../infra/store/store.js';

export function createWebhookQueueFor(config: Config, store: Store, tuning: Partial<WebhookQueueOptions> = {}): WebhookQueue {
  const clients = createClientRegistry(
    createClientRecords(store),
    config.clients.map((client) => client.client_id),
  );
  const webhooks = webhookTargets(clients.webhookOf, createOwnerWebhooks(store).targetOf);
  const signals = signalTargets({
    clients,
    streams: createSsfStreams(store),
    signer: createSignalSigner(config.issuer, signingKeysOf(config)),
  });
  const options: WebhookQueueOptions = {
    targetOf: (service) => (isSignalService(service) ? signals(service) : webhooks(service)),
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
