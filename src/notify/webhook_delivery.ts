// One delivery attempt of a webhook, shared by both queues: sign, POST, and decide what comes
// next (delivered, a retry at a due time, or a dead letter).
import { signWebhook } from './webhook_signature.js';
import type { DeadLetter, WebhookEvent, WebhookLogger, WebhookQueueOptions } from './webhook_queue.js';

/** An event on its way, with the attempts already made. */
export type WebhookJob = { event: WebhookEvent; attempts: number };

export type AttemptOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; job: WebhookJob; dueAt: number; error: string }
  | { kind: 'dead'; letter: DeadLetter };

export type WebhookDelivery = {
  attempt(job: WebhookJob): Promise<AttemptOutcome>;
  pollMs: number;
  now: () => number;
  logger: WebhookLogger;
};

const silent: WebhookLogger = { info: () => {}, error: () => {} };

/** The job a stream entry or retry holds (JSON), or undefined when it is not one. */
export function parseJob(text: string): WebhookJob | undefined {
  try {
    const job = JSON.parse(text) as WebhookJob;
    return typeof job?.event?.id === 'string' && typeof job.event.service === 'string' && Number.isInteger(job.attempts)
      ? job
      : undefined;
  } catch {
    return undefined;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  // Duck-typed: fetch's errors may come from another realm (a test VM), failing instanceof.
  const { name, message, cause } = (error ?? {}) as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  // fetch says "fetch failed"; the reason (ECONNREFUSED, a DNS failure) is in the cause.
  const detail = cause?.code ?? cause?.message;
  const text = message ?? String(error);
  return detail ? `${text} (${detail})` : text;
}

export function createWebhookDelivery(options: WebhookQueueOptions): WebhookDelivery {
  const { targetOf, retryDelaysMs } = options;
  const now = options.now ?? Date.now;
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 5000;
  const pollMs = options.pollMs ?? 500;
  const logger = options.logger ?? silent;
  if (!retryDelaysMs.every((delay) => Number.isFinite(delay) && delay >= 0)) {
    throw new Error('webhook queue: retryDelaysMs must be non-negative numbers');
  }
  if (!(pollMs > 0) || !(timeoutMs > 0)) throw new Error('webhook queue: pollMs and timeoutMs must be positive');

  /** Undefined on a 2xx answer, otherwise why the attempt failed. */
  const post = async (url: string, secret: string, event: WebhookEvent): Promise<string | undefined> => {
    const body = JSON.stringify(event);
    try {
      const response = await send(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'signet-event-id': event.id,
          'signet-event-type': event.type,
          'signet-signature': signWebhook(secret, body, Math.floor(now() / 1000)),
        },
        body,
        // A redirect is a failure: following it would POST the event somewhere not configured.
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The answer's body is not needed; dropping it frees the connection.
      await response.body?.cancel().catch(() => {});
      if (response.status >= 200 && response.status < 300) return undefined;
      return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    } catch (error) {
      return describeFailure(error, timeoutMs);
    }
  };

  const failed = (job: WebhookJob, error: string): AttemptOutcome => {
    const { event } = job;
    const attempts = job.attempts + 1;
    const delay = retryDelaysMs[attempts - 1];
    if (delay !== undefined) {
      logger.info(`webhook ${event.id} to ${event.service}: attempt ${attempts} failed (${error}), retry in ${delay} ms`);
      return { kind: 'retry', job: { event, attempts }, dueAt: now() + delay, error };
    }
    logger.error(`webhook ${event.id} to ${event.service}: attempt ${attempts} failed (${error}), now a dead letter`);
    return { kind: 'dead', letter: { event, attempts, last_error: error, dead_at: new Date(now()).toISOString() } };
  };

  const attempt = async (job: WebhookJob): Promise<AttemptOutcome> => {
    const { event } = job;
    let target: Awaited<ReturnType<typeof targetOf>>;
    try {
      target = await targetOf(event.service);
    } catch (thrown) {
      // A failing lookup counts as a failed attempt, so the event is retried rather than lost.
      return failed(job, `no target: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
    if (!target) {
      logger.info(`webhook ${event.id} (${event.type}): service ${event.service} has no webhook URL, dropped`);
      return { kind: 'delivered' };
    }
    const error = await post(target.url, target.secret, event);
    return error === undefined ? { kind: 'delivered' } : failed(job, error);
  };

  return { attempt, pollMs, now, logger };
}
