// A service's webhook endpoint for tests: a real HTTP server on loopback that checks each
// signature, can be told to fail the next N deliveries, and keeps what it accepted.
import { createServer, type Server } from 'node:http';
import type { WebhookEvent } from '../../src/domain/webhooks/webhook_queue.js';
import { verifyWebhookSignature } from '../../src/domain/webhooks/webhook_signature.js';
import { waitUntil } from './wait_until.js';

export type WebhookReceiver = {
  url: string;
  secret: string;
  /** Events accepted with a valid signature, in order. */
  events: WebhookEvent[];
  /** Deliveries seen, accepted or not. */
  attempts: number;
  /** Answer 500 to the next `count` deliveries. */
  failNext(count: number): void;
  waitFor(predicate: (events: WebhookEvent[]) => boolean, timeoutMs?: number): Promise<WebhookEvent[]>;
  close(): Promise<void>;
};

export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  let failures = 0;
  const receiver = { events: [] as WebhookEvent[], attempts: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.attempts++;
      const body = Buffer.concat(chunks).toString();
      const header = String(request.headers['signet-signature'] ?? '');
      if (failures > 0) {
        failures--;
        response.writeHead(500).end('not now');
        return;
      }
      if (!verifyWebhookSignature(secret, header, body, Math.floor(Date.now() / 1000))) {
        response.writeHead(401).end('bad signature');
        return;
      }
      const event = JSON.parse(body) as WebhookEvent;
      // At least once: dedupe by event id.
      if (!receiver.events.some((seen) => seen.id === event.id)) receiver.events.push(event);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    secret,
    get events() {
      return receiver.events;
    },
    get attempts() {
      return receiver.attempts;
    },
    failNext: (count) => {
      failures = count;
    },
    async waitFor(predicate, timeoutMs = 5000) {
      await waitUntil('a matching webhook', () => predicate(receiver.events), timeoutMs).catch(() => {
        throw new Error(`no matching webhook within ${timeoutMs} ms: ${JSON.stringify(receiver.events)}`);
      });
      return receiver.events;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
