// One RPC endpoint of a chain: what Signet keeps of it (its state, its learned eth_getLogs range)
// and one JSON-RPC call to it. Errors name an endpoint by its label, never by its URL, whose
// path or query may hold an API key.
import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { rateLimitOf } from './provider_limits.js';
import { rpcFetch } from './rpc_fetch.js';

/** An endpoint as the settings give it: its URL and the name it goes by everywhere else. */
export type EndpointSetting = { url: string; label: string };

export type EndpointState = 'up' | 'down' | 'rate_limited';

/** How one attempt at one endpoint ended, for the metrics. */
export type AttemptOutcome = 'ok' | 'answered_error' | 'rate_limited' | 'failed' | 'timeout';

/** fetch with the attempt's deadline (epoch ms) on its init, for rpc_fetch. */
export type DeadlineInit = RequestInit & { deadline?: number };

export type Endpoint = {
  url: string;
  label: string;
  /** The parts of its URL that may be an API key (path segments, query values): never in an error's text. */
  secrets: string[];
  state: EndpointState;
  since: number;
  retryAt: number;
  /** The most blocks one eth_getLogs may ask of it, as learned from its refusals (log_ranges.ts). */
  logRange?: number;
  probe?: NodeJS.Timeout;
  rest?: NodeJS.Timeout;
};

/** One JSON-RPC call to one endpoint, ended at `deadline` (epoch ms). */
export type EndpointCall = (endpoint: Endpoint, method: string, params: unknown, deadline: number) => Promise<unknown>;

export type EndpointCallOptions = {
  /** Wraps the HTTP call (the metrics by method, tests that count). */
  observe?: (fetchFn: typeof fetch) => typeof fetch;
  /** Each attempt's outcome and duration, by endpoint (the metrics). */
  onAttempt?: (attempt: { label: string; method: string; outcome: AttemptOutcome; seconds: number }) => void;
};

const baseFetch: typeof fetch = (input, init) => rpcFetch(input, init, (init as DeadlineInit | undefined)?.deadline);

export function newEndpoint({ url, label }: EndpointSetting, now: number): Endpoint {
  return { url, label, state: 'up', since: now, retryAt: 0, secrets: secretsOf(url) };
}

/** An endpoint's label: the operator's, else the URL's host (never its path or query). */
export function endpointLabel(url: string, label?: string): string {
  return label ?? new URL(url).host;
}

/** The call every attempt makes: a node's refusal becomes RpcRequestError, a failure HttpRequestError or TimeoutError. */
export function createEndpointCall(options: EndpointCallOptions): EndpointCall {
  const fetchFn = options.observe ? options.observe(baseFetch) : baseFetch;
  let ids = 0;
  return async (endpoint, method, params, deadline) => {
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
