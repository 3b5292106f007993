// The webhook a service gets when one of its access grants changes: the event type, and the
// grant as the API shows it (without the owner's signature).
import { randomUUID } from 'node:crypto';
import type { WebhookEvent } from '../notify/webhook_queue.js';
import type { GrantEvent } from './access_grants.js';

export function webhookEventOf(event: GrantEvent, now: () => number): WebhookEvent {
  const { signature: _signature, challenge: _challenge, ...grant } = event.grant;
  return {
    id: `evt_${randomUUID()}`,
    type: event.type,
    service: event.grant.service,
    created_at: new Date(now()).toISOString(),
    data: { grant },
  };
}
