// A chain's RPC endpoints, in the operator's order, as one JSON-RPC `request` for viem's custom
// transport (docs/decisions.md, 41). A call goes to the first endpoint that is up; an error, a
// timeout, a 429 or a 5xx moves it to the next, within the request's chain budget, and marks
// the endpoint: a failed one is asked again in the background (eth_blockNumber every probeMs)
// and rejoins when it answers; a rate-limited one rests until its Retry-After. A JSON-RPC error
// the node answered (a revert, a bad parameter) is an answer and goes back to the caller.
//
// eth_getLogs refused for its block range or its result size (provider_limits.ts) is split and
// asked again on the same endpoint; the range that worked is remembered per endpoint, and the
// chain watcher asks no larger ranges (logBlockRange). Errors, logs, metrics and /admin/readiness name
// an endpoint by its label, never by its URL, whose path or query may hold an API key.
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import type { Logger } from '../observability/logger.js';
import { chainBudgetDeadline } from './chain_deadline.js';
import { logsRefusalOf, rateLimitOf } from './provider_limits.js';
import { rpcFetch } from './rpc_fetch.js';

/** An endpoint as the settings give it: its URL and the name it goes by everywhere else. */
export type EndpointSetting = { url: string; label: string };

export type EndpointState = 'up' | 'down' | 'rate_limited';

/** What /admin/readiness shows of an endpoint. */
export type EndpointReport = {
  label: string;
  state: EndpointState;
  /** Since when it has been down or rate limited. */
  since?: string;
  /** Rate limited: when its Retry-After ends. */
  retry_at?: string;
  /** The most blocks one eth_getLogs may ask of it, as learned from its refusals. */
  log_block_range?: number;
};

/** How one attempt at one endpoint ended, for the metrics. */
export type AttemptOutcome = 'ok' | 'answered_error' | 'rate_limited' | 'failed' | 'timeout';

/** fetch with the attempt's deadline (epoch ms) on its init, for rpc_fetch. */
export type DeadlineInit = RequestInit & { deadline?: number };

export type RpcEndpointsOptions = {
  chainId: number;
  /** The longest one call may take (CHAIN_CALL_TIMEOUT_MS). */
  callTimeoutMs: number;
  /** How often a failed endpoint is asked whether it answers again. */
  probeMs: number;
  logger?: Logger;
  /** Each attempt's outcome and duration, by endpoint (the metrics). */
  onAttempt?: (attempt: { label: string; method: string; outcome: AttemptOutcome; seconds: number }) => void;
  /** Each endpoint's state as it changes (the metrics). */
  onState?: (label: string, state: EndpointState) => void;
  /** Wraps the HTTP call (the metrics by method, tests that count). */
  observe?: (fetchFn: typeof fetch) => typeof fetch;
  now?: () => number;
};

export type RpcEndpoints = {
  readonly labels: readonly string[];
  /** The JSON-RPC request every chain read and write goes through. */
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  report(): EndpointReport[];
  /** The most blocks one eth_getLogs should ask now (the endpoint calls go to first); undefined: none learned. */
  logBlockRange(): number | undefined;
  /** When every endpoint rests after a 429: the moment the first may be asked again (background work waits for it). */
  restingUntil(): number | undefined;
  /** Stops the background probes. */
  close(): void;
};

/** A timeout over a window at least this long says the endpoint is not answering (a shorter one: the request's budget was nearly spent). */
const SLOW_ENDPOINT_MS = 500;
/** How long a 429 without Retry-After rests its endpoint. */
const DEFAULT_REST_MS = 1000;
/** Methods that send a transaction: after a timeout the endpoint may hold it, so it is not sent again elsewhere. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);
/** Ranges are never learned below one block. */
const ONE = 1n;

type Endpoint = {
  url: string;
  label: string;
  /** The parts of its URL that may be an API key (path segments, query values): never in an error's text. */
  secrets: string[];
  state: EndpointState;
  since: number;
  retryAt: number;
  logRange?: number;
  probe?: NodeJS.Timeout;
  rest?: NodeJS.Timeout;
};

/** answer: the node's own answer, for the caller; short: out of time in a window too short to blame the endpoint. */
type Failure = { kind: 'answer' | 'short' } | { kind: 'rate_limited'; retryAfterMs?: number } | { kind: 'failed' | 'timeout' };

const baseFetch: typeof fetch = (input, init) => rpcFetch(input, init, (init as DeadlineInit | undefined)?.deadline);

const hex = (value: bigint) => `0x${value.toString(16)}`;

/** What an attempt's error says about its endpoint. */
function failureOf(error: unknown, windowMs: number): Failure {
  const limited = rateLimitOf(error);
  if (limited) return { kind: 'rate_limited', retryAfterMs: limited.retryAfterMs };
  if (error instanceof RpcRequestError) return { kind: 'answer' };
  if (error instanceof TimeoutError) return windowMs >= SLOW_ENDPOINT_MS ? { kind: 'timeout' } : { kind: 'short' };
  return { kind: 'failed' };
}

export function createRpcEndpoints(settings: readonly EndpointSetting[], options: RpcEndpointsOptions): RpcEndpoints {
  if (settings.length === 0) throw new Error('createRpcEndpoints: at least one endpoint');
  const now = options.now ?? Date.now;
  const log = options.logger;
  const fetchFn = options.observe ? options.observe(baseFetch) : baseFetch;
  const endpoints: Endpoint[] = settings.map(({ url, label }) => ({ url, label, state: 'up', since: now(), retryAt: 0, secrets: secretsOf(url) }));
  let ids = 0;
  let closed = false;

  const setState = (endpoint: Endpoint, state: EndpointState) => {
    if (endpoint.state === state) return;
    endpoint.state = state;
    endpoint.since = now();
    options.onState?.(endpoint.label, state);
  };
  const usable = (endpoint: Endpoint) => endpoint.state === 'up' || (endpoint.state === 'rate_limited' && endpoint.retryAt <= now());

  /** One JSON-RPC call to one endpoint, ended at `deadline`; errors name the endpoint by its label. */
  const call = async (endpoint: Endpoint, method: string, params: unknown, deadline: number): Promise<unknown> => {
    const body = { jsonrpc: '2.0', id: ++ids, method, params };
    const started = performance.now();
    let outcome: AttemptOutcome = 'failed';
    try {
      let response: Response;
      try {
        response = await fetchFn(endpoint.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          deadline,
        } as DeadlineInit);
      } catch (error) {
        if ((error as { name?: string }).name === 'TimeoutError') {
          outcome = 'timeout';
          throw new TimeoutError({ body, url: endpoint.label });
        }
        // Node's connection errors name the host and port at most; the path and query are taken out all the same.
        throw new HttpRequestError({ body, url: endpoint.label, details: redacted((error as Error).message, endpoint.secrets) });
      }
      const text = await response.text();
      // Some providers send their refusals of a request (a range too wide) as a 400 or 413 holding a
      // JSON-RPC error: an answer. A 401, 402 or 403 refuses the key or the plan: the endpoint fails.
      const refusal = response.status === 400 || response.status === 413 ? rpcErrorIn(text) : undefined;
      if (refusal) {
        outcome = 'answered_error';
        throw new RpcRequestError({ body, error: { ...refusal, message: redacted(refusal.message, endpoint.secrets) }, url: endpoint.label });
      }
      if (!response.ok) {
        outcome = response.status === 429 ? 'rate_limited' : 'failed';
        // A provider's error page may quote the key it was given.
        throw new HttpRequestError({
          body,
          url: endpoint.label,
          status: response.status,
          headers: response.headers,
          details: redacted(text.slice(0, 300), endpoint.secrets),
        });
      }
      let answer: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
      try {
        answer = JSON.parse(text);
      } catch {
        throw new HttpRequestError({ body, url: endpoint.label, status: response.status, details: 'the answer is not JSON' });
      }
      if (answer.error) {
        outcome = rateLimitOf(answer.error) ? 'rate_limited' : 'answered_error';
        throw new RpcRequestError({ body, error: { ...answer.error, message: redacted(String(answer.error.message), endpoint.secrets) }, url: endpoint.label });
      }
      outcome = 'ok';
      return answer.result;
    } finally {
      options.onAttempt?.({ label: endpoint.label, method, outcome, seconds: (performance.now() - started) / 1000 });
    }
  };

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

  /**
   * The endpoints to try, in order: those up; then, as a last resort, a request (which has a
   * person waiting) tries rate-limited and failed ones too, while background work never asks an
   * endpoint before its Retry-After.
   */
  const candidates = (background: boolean): Endpoint[] => {
    const up = endpoints.filter(usable);
    const resting = endpoints.filter((each) => each.state === 'rate_limited' && !usable(each)).sort((a, b) => a.retryAt - b.retryAt);
    const down = endpoints.filter((each) => each.state === 'down');
    return background ? [...up, ...down] : [...up, ...resting, ...down];
  };

  /**
   * Runs `attempt` on the candidates until one answers. Outside a request, one after another, each
   * within the call timeout. In a request, each within what is left of the budget; and when an
   * endpoint has not answered within its equal share of it, the next is asked beside it (the
   * first answer wins): a slow endpoint is not given up on, a silent one does not hold the request.
   * A transaction is sent to one endpoint at a time, and not to another after a timeout.
   */
  const acrossEndpoints = <T>(method: string, attempt: (endpoint: Endpoint, deadline: () => number) => Promise<T>): Promise<T> => {
    const requestEnd = chainBudgetDeadline();
    const order = candidates(requestEnd === undefined);
    if (order.length === 0) {
      return Promise.reject(
        new HttpRequestError({
          url: endpoints.map((each) => each.label).join(', '),
          status: 429,
          details: `every RPC endpoint of chain ${options.chainId} asked to wait (429); background work waits for the first Retry-After`,
          body: { method },
        }),
      );
    }
    const hedged = requestEnd !== undefined && !SENDS.has(method);
    return new Promise<T>((resolve, reject) => {
      let next = 0;
      let running = 0;
      let settled = false;
      let lastError: unknown;
      const settle = (work: () => void) => {
        if (settled) return;
        settled = true;
        work();
      };
      const giveUp = () => {
        if (running === 0 && next >= order.length) settle(() => reject(lastError ?? new TimeoutError({ body: { method }, url: endpoints[0]!.label })));
      };
      const launch = () => {
        if (settled) return;
        if (next >= order.length) return giveUp();
        const endpoint = order[next++]!;
        const started = now();
        if (requestEnd !== undefined && requestEnd <= started) {
          next = order.length;
          return giveUp();
        }
        running++;
        const deadline = () => Math.min(now() + options.callTimeoutMs, requestEnd ?? Number.POSITIVE_INFINITY);
        const window = Math.min(options.callTimeoutMs, (requestEnd ?? Number.POSITIVE_INFINITY) - started);
        const hedge = hedged && next < order.length ? setTimeout(launch, window / (order.length - next + 1)) : undefined;
        attempt(endpoint, deadline).then(
          (result) => {
            clearTimeout(hedge);
            running--;
            recovered(endpoint);
            settle(() => resolve(result));
          },
          (error: unknown) => {
            clearTimeout(hedge);
            running--;
            const failure = failureOf(error, window);
            if (failure.kind === 'answer') return settle(() => reject(error));
            failed(endpoint, failure);
            lastError = error;
            if (SENDS.has(method) && (failure.kind === 'timeout' || failure.kind === 'short')) return settle(() => reject(error));
            launch();
            giveUp();
          },
        );
      };
      launch();
    });
  };

  /** eth_getLogs on one endpoint, in ranges it accepts: a refused range is split and asked again, and a refused span is remembered. */
  const logsOn = async (endpoint: Endpoint, filter: Record<string, unknown>, deadline: () => number): Promise<unknown[]> => {
    const { fromBlock, toBlock } = filter;
    if (typeof fromBlock !== 'string' || typeof toBlock !== 'string' || !fromBlock.startsWith('0x') || !toBlock.startsWith('0x')) {
      return (await call(endpoint, 'eth_getLogs', [filter], deadline())) as unknown[];
    }
    const last = BigInt(toBlock);
    const logs: unknown[] = [];
    let start = BigInt(fromBlock);
    // A result-size refusal narrows only the stretch at hand: the next range may hold fewer logs.
    let narrowed: bigint | undefined;
    while (start <= last) {
      const span = narrowed ?? (endpoint.logRange === undefined ? last - start + ONE : BigInt(endpoint.logRange));
      const end = start + span - ONE < last ? start + span - ONE : last;
      try {
        const part = (await call(endpoint, 'eth_getLogs', [{ ...filter, fromBlock: hex(start), toBlock: hex(end) }], deadline())) as unknown[];
        logs.push(...part);
        start = end + ONE;
        narrowed = undefined;
      } catch (error) {
        const refusal = logsRefusalOf(error);
        const asked = end - start + ONE;
        if (!refusal || asked === ONE) throw error;
        const fits = smallerSpan(refusal, start, asked);
        if (refusal.kind === 'range') {
          if (endpoint.logRange === undefined || fits < BigInt(endpoint.logRange)) {
            log?.info(`chain ${options.chainId}: RPC endpoint ${endpoint.label} takes at most ${fits} blocks per eth_getLogs; later queries ask no more`);
          }
          endpoint.logRange = Number(fits);
        } else {
          narrowed = fits;
        }
      }
    }
    return logs;
  };

  return {
    labels: endpoints.map((each) => each.label),
    request({ method, params }) {
      if (method === 'eth_getLogs' && Array.isArray(params) && params[0] && typeof params[0] === 'object') {
        return acrossEndpoints(method, (endpoint, deadline) => logsOn(endpoint, params[0] as Record<string, unknown>, deadline));
      }
      return acrossEndpoints(method, (endpoint, deadline) => call(endpoint, method, params ?? [], deadline()));
    },
    report: () =>
      endpoints.map((each) => {
        const state = each.state === 'rate_limited' && usable(each) ? 'up' : each.state;
        return {
          label: each.label,
          state,
          ...(state === 'up' ? {} : { since: new Date(each.since).toISOString() }),
          ...(state === 'rate_limited' ? { retry_at: new Date(each.retryAt).toISOString() } : {}),
          ...(each.logRange === undefined ? {} : { log_block_range: each.logRange }),
        };
      }),
    logBlockRange: () => (endpoints.find(usable) ?? endpoints[0]!).logRange,
    restingUntil() {
      if (endpoints.some((each) => usable(each) || each.state === 'down')) return undefined;
      return Math.min(...endpoints.map((each) => each.retryAt));
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

/** The span to ask next after a refusal of `asked` blocks from `start`: the provider's hint, else half. */
function smallerSpan(refusal: NonNullable<ReturnType<typeof logsRefusalOf>>, start: bigint, asked: bigint): bigint {
  const { suggested, maxBlocks } = refusal;
  if (suggested && suggested.from === start && suggested.to >= start && suggested.to - start + ONE < asked) return suggested.to - start + ONE;
  if (maxBlocks !== undefined && maxBlocks >= 1 && BigInt(maxBlocks) < asked) return BigInt(maxBlocks);
  const half = asked / 2n;
  return half < ONE ? ONE : half;
}

/** An endpoint's label: the operator's, else the URL's host (never its path or query). */
export function endpointLabel(url: string, label?: string): string {
  return label ?? new URL(url).host;
}

/** The JSON-RPC error a response body holds, if it is one. */
function rpcErrorIn(text: string): { code: number; message: string; data?: unknown } | undefined {
  try {
    const answer = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const error = answer?.error;
    return error && typeof error.code === 'number' && typeof error.message === 'string'
      ? { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The path segments and query values of a URL long enough to be a key. */
function secretsOf(url: string): string[] {
  const parsed = new URL(url);
  const parts = [...parsed.pathname.split('/'), ...[...parsed.searchParams.values()], parsed.username, parsed.password];
  return parts.filter((part) => part.length >= 6);
}

const redacted = (text: string, secrets: readonly string[]) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
