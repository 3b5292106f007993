// Times and counts each JSON-RPC call to the chain by method and outcome (ok, error, timeout),
// wrapped around the chain client's fetch. A JSON-RPC error answered in time counts as ok: the
// chain answered; refusals, HTTP errors and aborts are what an operator needs to see.
import type { Metrics } from './metrics.js';

// The method as viem's transport writes it, read off the text: a deployless read's body carries
// kilobytes of contract code, which parsing whole for one field would cost on every call.
const METHOD = /^\{"jsonrpc":"2\.0","id":\d+,"method":"([a-z]+_[A-Za-z]+)"/;

function methodOf(body: unknown): string {
  if (typeof body !== 'string') return 'unknown';
  if (body.startsWith('[')) return 'batch';
  return METHOD.exec(body)?.[1] ?? 'unknown';
}

/** chainId labels the calls of one chain's client, so each chain's outage shows apart. */
export function observeChainCalls(metrics: Metrics, chainId?: number): (fetchFn: typeof fetch) => typeof fetch {
  const chain = chainId === undefined ? {} : { chain_id: String(chainId) };
  return (fetchFn) => async (input, init) => {
    const method = methodOf(init?.body);
    const started = process.hrtime.bigint();
    const settle = (outcome: 'ok' | 'error' | 'timeout') => {
      metrics.chainCalls.inc({ method, outcome, ...chain });
      metrics.chainCallDuration.observe({ method, ...chain }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    try {
      const response = await fetchFn(input, init);
      settle(response.ok ? 'ok' : 'error');
      return response;
    } catch (error) {
      const name = (error as { name?: string }).name;
      settle(name === 'AbortError' || name === 'TimeoutError' ? 'timeout' : 'error');
      throw error;
    }
  };
}
