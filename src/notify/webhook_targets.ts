// Where each service's webhooks go: the webhook_url and webhook_secret of its client entry;
// an owner's go where the owner asked (owner_webhooks.ts).
import type { Config } from '../config.js';
import type { WebhookTarget } from './webhook_queue.js';

/** Services' targets from configuration, then the owners' own (from the store). */
export function webhookTargets(
  clients: Config['clients'],
  ownerTargetOf?: (service: string) => Promise<WebhookTarget | undefined>,
): (service: string) => WebhookTarget | undefined | Promise<WebhookTarget | undefined> {
  const targets = new Map<string, WebhookTarget>();
  for (const client of clients) {
    if (client.webhook_url && client.webhook_secret) {
      // The operator wrote these URLs: trusted, so they may point at an internal service.
      targets.set(client.client_id, { url: client.webhook_url, secret: client.webhook_secret, trusted: true });
    }
  }
  return (service) => targets.get(service) ?? ownerTargetOf?.(service);
}
