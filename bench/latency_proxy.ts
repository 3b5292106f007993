// A TCP proxy in front of the chain's JSON-RPC that holds each request for a set latency
// (what a hosted RPC node farther away adds) and counts the HTTP requests that pass: one
// per chain round trip, whatever a request carries (one eth_call, a Multicall3 batch).
import { startTcpProxy } from './tcp_proxy.js';

export type LatencyProxy = {
  rpcUrl: string;
  /** Milliseconds each request waits before it goes on to the chain. */
  latencyMs: number;
  /** HTTP requests passed so far. */
  requests(): number;
  close(): Promise<void>;
};

export async function startLatencyProxy(targetUrl: string): Promise<LatencyProxy> {
  let requests = 0;
  const tcp = await startTcpProxy(targetUrl, (chunk, upstream) => {
    // Each request starts with its method line; bodies are small JSON, never "POST " first.
    if (chunk.subarray(0, 5).toString() === 'POST ') requests++;
    // Timers of equal delay fire in order, so the bytes keep their order.
    if (proxy.latencyMs > 0) setTimeout(() => upstream.write(chunk), proxy.latencyMs);
    else upstream.write(chunk);
  });
  const proxy: LatencyProxy = {
    rpcUrl: `http://127.0.0.1:${tcp.port}`,
    latencyMs: 0,
    requests: () => requests,
    close: tcp.close,
  };
  return proxy;
}
