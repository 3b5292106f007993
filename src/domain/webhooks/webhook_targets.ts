// Where each service's webhooks go: the webhook_url and webhook_secret of its client (from the
// client registry, CLIENTS' or added at run time); an owner's go where the owner asked
// (owner_webhooks.ts).
import type { SignedTarget, WebhookTarget } from './webhook_queue.js';

/** Services' targets (their clients'), then the owners' own (from the store). */
export function webhookTargets(
  serviceTargetOf: (service: string) => Promise<SignedTarget | undefined>,
  ownerTargetOf?: (service: string) => Promise<WebhookTarget | undefined>,
): (service: string) => Promise<WebhookTarget | undefined> {
  return async (service) => (await serviceTargetOf(service)) ?? ownerTargetOf?.(service);
}
