// The webhook a service gets when one of its access grants changes (the grant without the
// owner's signature), and the one an owner gets when a service asks for lasting access.
import { randomUUID } from 'node:crypto';
import { ownerService } from '../../domain/webhooks/owner_webhooks.js';
import type { WebhookEvent } from '../../domain/webhooks/webhook_queue.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import type { GrantEvent } from './access_grants.js';

export function webhookEventOf(event: GrantEvent, now: () => number): WebhookEvent {
  const { signature: _signature, challenge, ...grant } = event.grant;
  const toOwner = event.type === 'access_request.created';
  return {
    id: `evt_${randomUUID()}`,
    type: event.type,
    service: toOwner ? ownerService(identityKeyOf(event.grant.identity, event.grant.chain_id)) : event.grant.service,
    created_at: new Date(now()).toISOString(),
    // The owner gets the text to sign; a service never needs the owner's signature back.
    data: toOwner ? { grant: { ...grant, challenge } } : { grant },
  };
}
