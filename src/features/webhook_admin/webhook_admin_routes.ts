// The admin API of the webhook queue, as route declarations: list the dead letters, put one
// back for delivery.
import { z } from 'zod';
import type { WebhookQueue } from '../../domain/webhooks/webhook_queue.js';
import { adminToken } from '../../http/authenticators.js';
import { type AnyRoute, route } from '../../http/route.js';
import { dateTime } from '../../http/schemas.js';

const TAG = 'Admin: webhooks';

const webhookEvent = z
  .object({ id: z.string(), type: z.string(), service: z.string(), created_at: dateTime, data: z.record(z.string(), z.unknown()) })
  .meta({ id: 'WebhookEvent' });

const deadLetter = z
  .object({
    event: webhookEvent,
    attempts: z.number().int(),
    last_error: z.string().meta({ description: 'Why the last delivery failed' }),
    dead_at: dateTime,
  })
  .meta({ id: 'DeadLetter' });

const deadLetterPath = z.object({ id: z.string().min(1).max(128).meta({ description: 'The event id' }) });

export function webhookAdminRoutes(queue: WebhookQueue, token: string | undefined): AnyRoute[] {
  const auth = adminToken(token);
  return [
    route({
      method: 'get',
      path: '/admin/webhooks/dead-letters',
      summary: 'Webhook events whose delivery was given up',
      tag: TAG,
      auth,
      responses: { 200: { description: 'The dead letters', schema: z.object({ dead_letters: z.array(deadLetter) }) } },
      async handle() {
        return { body: { dead_letters: await queue.deadLetters() } };
      },
    }),

    route({
      method: 'post',
      path: '/admin/webhooks/dead-letters/{id}/replay',
      summary: 'Put a dead letter back in the queue for delivery',
      tag: TAG,
      auth,
      params: deadLetterPath,
      responses: { 202: { description: 'Queued again', schema: z.object({ id: z.string(), status: z.literal('queued') }) } },
      refusals: ['dead_letter_not_found'],
      async handle({ params }) {
        await queue.replay(params.id);
        return { body: { id: params.id, status: 'queued' } };
      },
    }),
  ];
}
