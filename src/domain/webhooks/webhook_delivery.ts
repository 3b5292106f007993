// One delivery attempt of a webhook, shared by both queues: sign, POST, and decide what comes
// next (delivered, a retry at a due time, or a dead letter).
import { defaultNumber } from '../../config/config.js';
import { createLogHash } from '../../infra/observability/log_hash.js';
import { type Logger, silentLogger } from '../../infra/observability/logger.js';
import { postPinned } from '../../infra/outbound/pinned_request.js';
import { createUrlGuard } from '../../infra/outbound/url_guard.js';
import { OWNER_SERVICE_PREFIX } from './owner_webhooks.js';
import type { DeadLetter, ProtocolTarget, WebhookEvent, WebhookQueueOptions, WebhookTarget } from './webhook_queue.js';
import { signWebhook } from './webhook_signature.js';

/** An event on its way, with the attempts already made. */
export type WebhookJob = { event: WebhookEvent; attempts: number };

export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; job: WebhookJob; dueAt: number; error: string }
  | { kind: 'dead'; letter: DeadLetter }
  /** A stop cut the attempt: it counts for nothing, and the job goes back on the queue. */
  | { kind: 'interrupted' };

export type WebhookDelivery = {
  attempt(job: WebhookJob, stopping?: AbortSignal): Promise<AttemptOutcome>;
  pollMs: number;
  timeoutMs: number;
  stopTimeoutMs: number;
  concurrency: number;
  perTargetConcurrency: number;
  now: () => number;
  logger: Logger;
};

/** The job a stream entry or retry holds (JSON), or undefined when it is not one. */
export function parseJob(text: string): WebhookJob | undefined {
  try {
    const job = JSON.parse(text) as WebhookJob;
    return typeof job?.event?.id === 'string' && typeof job.event.service === 'string' && Number.isInteger(job.attempts) ? job : undefined;
  } catch {
    return undefined;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  // Duck-typed: errors may come from another realm (a test VM), failing instanceof.
  const { name, message, code } = (error ?? {}) as { name?: string; message?: string; code?: string };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  // A SignetError of the address check says why in its message; socket errors carry a code.
  if (name === 'SignetError') return message ?? String(error);
  return code ? `connection failed (${code})` : (message ?? String(error));
}

export function createWebhookDelivery(options: WebhookQueueOptions): WebhookDelivery {
  const { targetOf, retryDelaysMs } = options;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? defaultNumber('webhooks.timeoutMs');
  const pollMs = options.pollMs ?? 500;
  const stopTimeoutMs = options.stopTimeoutMs ?? timeoutMs;
  const concurrency = options.concurrency ?? defaultNumber('webhooks.concurrency');
  const perTargetConcurrency = options.perTargetConcurrency ?? defaultNumber('webhooks.perTargetConcurrency');
  const logger = options.logger ?? silentLogger;
  const logHash = options.logHash ?? createLogHash();
  // A service by its client id; an owner ("owner:<identity>") by the keyed hash of the identity.
  const recipient = (service: string) =>
    service.startsWith(OWNER_SERVICE_PREFIX)
      ? { name: 'an owner', detail: { identity_hash: logHash(service.slice(OWNER_SERVICE_PREFIX.length)) } }
      : { name: service, detail: undefined };
  const guard = createUrlGuard({ allowPrivate: options.allowPrivateTargets ?? false, resolveHost: options.resolveHost });
  if (!retryDelaysMs.every((delay) => Number.isFinite(delay) && delay >= 0)) {
    throw new Error('webhook queue: retryDelaysMs must be non-negative numbers');
  }
  if (!(pollMs > 0) || !(timeoutMs > 0) || !(stopTimeoutMs >= 0))
    throw new Error('webhook queue: pollMs and timeoutMs must be positive, stopTimeoutMs not negative');

  /** Signet's webhook: the event as JSON, signed with the target's secret; any 2xx takes it. */
  const signed = (target: { secret: string }, event: WebhookEvent) => {
    const body = JSON.stringify(event);
    const headers = {
      'content-type': 'application/json',
      'signet-event-id': event.id,
      'signet-event-type': event.type,
      'signet-signature': signWebhook(target.secret, body, Math.floor(now() / 1000)),
    };
    return { headers, body, accepted: (status: number) => status >= 200 && status < 300 };
  };

  /** A protocol target's own body (a logout token, a SET), made for this attempt. */
  const rendered = async (target: ProtocolTarget, event: WebhookEvent) => {
    const { contentType, body, accept, authorization } = await target.render(event);
    const headers: Record<string, string> = { 'content-type': contentType };
    if (accept) headers.accept = accept;
    if (authorization) headers.authorization = authorization;
    return { headers, body, accepted: target.accepted };
  };

  /** Undefined on an answer the target takes (a 2xx for webhooks), otherwise why the attempt failed. */
  const post = async (target: WebhookTarget, event: WebhookEvent, signal: AbortSignal): Promise<string | undefined> => {
    try {
      // A URL from the operator is trusted; any other is checked now, again, and the connection
      // goes to the address the check approved (an earlier check at save proves nothing today).
      const pinned = target.trusted ? undefined : await guard.check(target.url, { signal });
      const { headers, body, accepted } = 'render' in target ? await rendered(target, event) : signed(target, event);
      const answer = await postPinned(target.url, { headers, body, signal, pinned });
      // A redirect (3xx) is a failure too: following it would POST the event somewhere not checked.
      if (accepted(answer.status)) return undefined;
      return `HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`;
    } catch (error) {
      return describeFailure(error, timeoutMs);
    }
  };

  const failed = (job: WebhookJob, error: string): AttemptOutcome => {
    const { event } = job;
    const attempts = job.attempts + 1;
    const delay = retryDelaysMs[attempts - 1];
    const to = recipient(event.service);
    if (delay !== undefined) {
      logger.info(`webhook ${event.id} to ${to.name}: attempt ${attempts} failed (${error}), retry in ${delay} ms`, to.detail);
      return { kind: 'retry', job: { event, attempts }, dueAt: now() + delay, error };
    }
    logger.error(`webhook ${event.id} to ${to.name}: attempt ${attempts} failed (${error}), now a dead letter`, to.detail);
    return { kind: 'dead', letter: { event, attempts, last_error: error, dead_at: new Date(now()).toISOString() } };
  };

  const attempt = async (job: WebhookJob, stopping?: AbortSignal): Promise<AttemptOutcome> => {
    const { event } = job;
    let target: Awaited<ReturnType<typeof targetOf>>;
    try {
      target = await targetOf(event.service);
    } catch (thrown) {
      // A failing lookup counts as a failed attempt, so the event is retried rather than lost.
      return failed(job, `no target: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
    if (!target) {
      const to = recipient(event.service);
      logger.info(`webhook ${event.id} (${event.type}): ${to.detail ? to.name : `service ${to.name}`} has no webhook URL, dropped`, to.detail);
      return { kind: 'delivered' };
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    const error = await post(target, event, stopping ? AbortSignal.any([deadline, stopping]) : deadline);
    if (error === undefined) return { kind: 'delivered' };
    return stopping?.aborted ? { kind: 'interrupted' } : failed(job, error);
  };

  const observed = async (job: WebhookJob, stopping?: AbortSignal): Promise<AttemptOutcome> => {
    const outcome = await attempt(job, stopping);
    options.onAttempt?.(outcome.kind);
    return outcome;
  };

  return { attempt: observed, pollMs, timeoutMs, stopTimeoutMs, concurrency, perTargetConcurrency, now, logger };
}
