// Every webhook delivery attempt is counted by outcome: a receiver that answers 200 is
// "delivered"; one that refuses gets "retry" until the last attempt, then "dead" (a dead letter).
import { createServer, type Server } from 'node:http';
import { createMemoryWebhookQueue } from '../../../../src/domain/webhooks/memory_webhook_queue.js';
import { createMetrics } from '../../../../src/infra/observability/metrics.js';
import { waitUntil } from '../../../support/wait_until.js';

let receiver: Server;
let url: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    res.writeHead(req.url === '/ok' ? 200 : 500).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});

afterAll(() => {
  receiver.close();
});

test('delivered, retried and dead attempts are counted', async () => {
  const metrics = createMetrics({ processMetrics: false });
  const queue = createMemoryWebhookQueue({
    targetOf: (service) => ({ url: `${url}/${service}`, secret: 'a-webhook-secret-0123456789', trusted: true }),
    retryDelaysMs: [10, 10],
    pollMs: 10,
    onAttempt: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
  });
  const event = (id: string, service: string) => ({ id, type: 'access_grant.granted', service, created_at: new Date().toISOString(), data: {} });
  queue.start();
  await queue.enqueue(event('e1', 'ok'));
  await queue.enqueue(event('e2', 'failing'));
  await waitUntil('the failing event is a dead letter', async () => (await queue.deadLetters()).length > 0);
  await queue.close();
  const values = Object.fromEntries((await metrics.webhookDeliveries.get()).values.map((v) => [v.labels.outcome, v.value]));
  expect(values).toEqual({ delivered: 1, retry: 2, dead: 1 });
});
