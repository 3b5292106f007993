// A chain's RPC endpoints, in the operator's order, as one JSON-RPC `request` for viem's custom
// transport (docs/decisions.md, 41). A call goes to the first endpoint that is up; an error, a
// timeout, a 429 or a 5xx moves it to the next, within the request's chain budget, and marks
// the endpoint (endpoint_health.ts: a failed one is probed until it answers, a rate-limited one
// rests until its Retry-After). A JSON-RPC error the node answered (a revert, a bad parameter)
// is an answer and goes back to the caller. One call to one endpoint is rpc_endpoint.ts;
// eth_getLogs goes in the block ranges each endpoint accepts (log_ranges.ts), and the chain
// watcher asks no larger ranges (logBlockRange). Errors, logs, metrics and /admin/readiness name
// an endpoint by its label, never by its URL, whose path or query may hold an API key.
import { HttpRequestError, TimeoutError } from 'viem';
import type { Logger } from '../observability/logger.js';
import { chainBudgetDeadline } from './chain_deadline.js';
import { createEndpointHealth, failureOf } from './endpoint_health.js';
import { createLogsInRanges } from './log_ranges.js';
import { type AttemptOutcome, createEndpointCall, type Endpoint, type EndpointSetting, type EndpointState, newEndpoint } from './rpc_endpoint.js';

export { type AttemptOutcome, type DeadlineInit, type EndpointSetting, type EndpointState, endpointLabel } from './rpc_endpoint.js';

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

/** Methods that send a transaction: after a timeout the endpoint may hold it, so it is not sent again elsewhere. */
const SENDS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction']);

export function createRpcEndpoints(settings: readonly EndpointSetting[], options: RpcEndpointsOptions): RpcEndpoints {
  if (settings.length === 0) throw new Error('createRpcEndpoints: at least one endpoint');
  const now = options.now ?? Date.now;
  const endpoints: Endpoint[] = settings.map((setting) => newEndpoint(setting, now()));
  const call = createEndpointCall(options);
  const health = createEndpointHealth(endpoints, call, { ...options, now });
  const { usable, recovered, failed, candidates } = health;
  const logsOn = createLogsInRanges(call, options);

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
    close: health.close,
  };
}
