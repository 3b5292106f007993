// Which of a chain's endpoints may be asked, and how each failure moves it: a failed endpoint is
// down and asked again in the background (eth_blockNumber every probeMs) until it answers; a
// rate-limited one rests until its Retry-After; an answer brings either back up.
import { RpcRequestError, TimeoutError } from 'viem';
import type { Logger } from '../observability/logger.js';
import { rateLimitOf } from './provider_limits.js';
import type { Endpoint, EndpointCall, EndpointState } from './rpc_endpoint.js';

/** A timeout over a window at least this long says the endpoint is not answering (a shorter one: the request's budget was nearly spent). */
const SLOW_ENDPOINT_MS = 500;
/** How long a 429 without Retry-After rests its endpoint. */
const DEFAULT_REST_MS = 1000;

/** answer: the node's own answer, for the caller; short: out of time in a window too short to blame the endpoint. */
export type Failure = { kind: 'answer' | 'short' } | { kind: 'rate_limited'; retryAfterMs?: number } | { kind: 'failed' | 'timeout' };

/** What an attempt's error says about its endpoint. */
export function failureOf(error: unknown, windowMs: number): Failure {
  const limited = rateLimitOf(error);
  if (limited) return { kind: 'rate_limited', retryAfterMs: limited.retryAfterMs };
  if (error instanceof RpcRequestError) return { kind: 'answer' };
  if (error instanceof TimeoutError) return windowMs >= SLOW_ENDPOINT_MS ? { kind: 'timeout' } : { kind: 'short' };
  return { kind: 'failed' };
}

export type EndpointHealthOptions = {
  chainId: number;
  callTimeoutMs: number;
  probeMs: number;
  logger?: Logger;
  /** Each endpoint's state as it changes (the metrics). */
  onState?: (label: string, state: EndpointState) => void;
  now: () => number;
};

export type EndpointHealth = {
  /** Up, or rate limited with its Retry-After past. */
  usable(endpoint: Endpoint): boolean;
  /** An answer: the endpoint is up. */
  recovered(endpoint: Endpoint): void;
  /** A failure: the endpoint rests or goes down (an answer or a short window changes nothing). */
  failed(endpoint: Endpoint, failure: Failure): void;
  /**
   * The endpoints to try, in order: those up; then, as a last resort, a request (which has a
   * person waiting) tries rate-limited and failed ones too, while background work never asks an
   * endpoint before its Retry-After.
   */
  candidates(background: boolean): Endpoint[];
  /** Stops the probes and the rests' timers. */
  close(): void;
};

export function createEndpointHealth(endpoints: readonly Endpoint[], call: EndpointCall, options: EndpointHealthOptions): EndpointHealth {
  const { now } = options;
  const log = options.logger;
  let closed = false;

  const setState = (endpoint: Endpoint, state: EndpointState) => {
    if (endpoint.state === state) return;
    endpoint.state = state;
    endpoint.since = now();
    options.onState?.(endpoint.label, state);
  };
  const usable = (endpoint: Endpoint) => endpoint.state === 'up' || (endpoint.state === 'rate_limited' && endpoint.retryAt <= now());

  const probeLater = (endpoint: Endpoint) => {
    if (closed || endpoint.probe) return;
    endpoint.probe = setTimeout(async () => {
      endpoint.probe = undefined;
      if (endpoint.state !== 'down') return;
      try {
        await call(endpoint, 'eth_blockNumber', [], now() + options.callTimeoutMs);
        recovered(endpoint);
      } catch {
        probeLater(endpoint);
      }
    }, options.probeMs);
    endpoint.probe.unref();
  };

  const recovered = (endpoint: Endpoint) => {
    if (endpoint.state === 'up') return;
    if (endpoint.state === 'down') log?.info(`chain ${options.chainId}: RPC endpoint ${endpoint.label} answers again and takes requests`);
    setState(endpoint, 'up');
  };

  const failed = (endpoint: Endpoint, failure: Failure) => {
    if (failure.kind === 'answer' || failure.kind === 'short') return;
    if (failure.kind === 'rate_limited') {
      const restMs = failure.retryAfterMs ?? DEFAULT_REST_MS;
      endpoint.retryAt = now() + restMs;
      // Its rest over, it is up again (the metrics say so) without waiting for a call.
      clearTimeout(endpoint.rest);
      endpoint.rest = setTimeout(() => {
        if (endpoint.state === 'rate_limited' && usable(endpoint)) setState(endpoint, 'up');
      }, restMs);
      endpoint.rest.unref();
      if (endpoint.state !== 'rate_limited') {
        log?.warn(
          `chain ${options.chainId}: RPC endpoint ${endpoint.label} answered 429; it is not asked by background work for ${Math.ceil(restMs / 1000)} s`,
        );
      }
      setState(endpoint, 'rate_limited');
      return;
    }
    if (endpoint.state !== 'down') {
      const next = endpoints.find((other) => other !== endpoint && usable(other));
      log?.warn(
        `chain ${options.chainId}: RPC endpoint ${endpoint.label} failed (${failure.kind === 'timeout' ? 'no answer in time' : 'error'}); ${next ? `calls go to ${next.label}` : 'no other endpoint is up'}, and it is asked again every ${options.probeMs} ms`,
      );
    }
    setState(endpoint, 'down');
    probeLater(endpoint);
  };

  return {
    usable,
    recovered,
    failed,
    candidates(background) {
      const up = endpoints.filter(usable);
      const resting = endpoints.filter((each) => each.state === 'rate_limited' && !usable(each)).sort((a, b) => a.retryAt - b.retryAt);
      const down = endpoints.filter((each) => each.state === 'down');
      return background ? [...up, ...down] : [...up, ...resting, ...down];
    },
    close() {
      closed = true;
      for (const each of endpoints) {
        clearTimeout(each.probe);
        clearTimeout(each.rest);
      }
    },
  };
}
