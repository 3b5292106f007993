// The contract of the webhook notification queue that tells services about access grants;
// two backends keep it: Redis Streams (production) and memory (the demo).
import type { LogHash } from '../../infra/observability/log_hash.js';
import type { Logger } from '../../infra/observability/logger.js';
import type { ResolveHost } from '../../infra/outbound/url_guard.js';

/** One notification; `service` is the client_id it goes to, `id` lets the receiver dedupe. */
export type WebhookEvent = { id: string; type: string; service: string; created_at: string; data: Record<string, unknown> };

/** `trusted`: the operator configured the URL (CLIENTS), so it skips the public-address check. */
export type SignedTarget = { url: string; secret: string; trusted?: boolean };

/** Where a service's events go: Signet's signed JSON webhook, or another protocol's receiver. */
export type WebhookTarget = SignedTarget | ProtocolTarget;

/** What a protocol target posts instead of Signet's signed JSON: a body of its own media type. */
export type RenderedBody = { contentType: string; body: string; accept?: string; authorization?: string };

/**
 * A receiver of another protocol (OpenID back-channel logout, SSF push): the queue's retries,
 * lanes and address checks, but its body is made at each attempt from the event (so a logout
 * token signed then is fresh, and a key or header changed meanwhile is used), and `accepted`
 * says which statuses mean it was taken (a logout: 200 or 204; a SET push: 202).
 */
export type ProtocolTarget = {
  url: string;
  trusted?: boolean;
  render(event: WebhookEvent): Promise<RenderedBody>;
  accepted(status: number): boolean;
};

export type DeadLetter = { event: WebhookEvent; attempts: number; last_error: string; dead_at: string };

export type WebhookQueue = {
  /** Durable once it resolves (in Redis; the memory queue until the process ends). */
  enqueue(event: WebhookEvent): Promise<void>;
  /** Starts the delivery worker; a second call does nothing. */
  start(): void;
  /** Stops the worker: deliveries in flight may finish (up to stopTimeoutMs), and every entry read
   * but not settled goes back on the queue. The queue still takes events. */
  stop(): Promise<void>;
  deadLetters(): Promise<DeadLetter[]>;
  /** Events not yet settled: waiting, being delivered, or waiting for a retry (the metrics' gauge). */
  depth(): Promise<number>;
  /** Puts a dead letter back for delivery with its attempts reset; not_found if unknown. */
  replay(eventId: string): Promise<void>;
  /** Stops the worker and releases the connections: the last call on a queue. */
  close(): Promise<void>;
};

export type WebhookQueueOptions = {
  /** Where a service's events go; without a target an event is dropped as delivered (logged). */
  targetOf: (service: string) => WebhookTarget | undefined | Promise<WebhookTarget | undefined>;
  /** Delay before each retry: attempts = 1 + retryDelaysMs.length, then a dead letter. */
  retryDelaysMs: number[];
  /** How often the worker looks for work and due retries (default 500). */
  pollMs?: number;
  /** Epoch milliseconds: retry due times, dead_at, the signature's timestamp. */
  now?: () => number;
  /** Per delivery attempt, address check included (default 5000). */
  timeoutMs?: number;
  /** Deliveries at once in all (default 16), and to one target (default 2). */
  concurrency?: number;
  perTargetConcurrency?: number;
  /** How long a stop waits for deliveries in flight before it cuts them (default timeoutMs). */
  stopTimeoutMs?: number;
  /** Lets untrusted targets resolve to private addresses: development only (default false). */
  allowPrivateTargets?: boolean;
  /** DNS for untrusted targets (default: the system resolver). */
  resolveHost?: ResolveHost;
  logger?: Logger;
  /** The keyed hash that names an owner in log lines instead of the identity (default: a per-process key). */
  logHash?: LogHash;
  /** Told the outcome of every delivery attempt (the metrics count them). */
  onAttempt?: (outcome: 'delivered' | 'retry' | 'dead' | 'interrupted') => void;
};
