// A TCP proxy in front of the chain's JSON-RPC that holds each request for a set latency
// (what a hosted RPC node farther away adds) and counts the eth_call requests that pass: one
// per chain round trip of a login or a read, whatever it carries (one call, a deployless read).
// The chain watchers' polls (eth_blockNumber, eth_getLogs) pass uncounted: no login makes them.
import { startTcpProxy } from '../test/support/tcp_proxy.js';

export type LatencyProxy = {
  rpcUrl: string;
  /** Milliseconds each request waits before it goes on to the chain. */
  latencyMs: number;
  /** eth_call requests passed so far. */
  requests(): number;
  close(): Promise<void>;
};

export async function startLatencyProxy(targetUrl: string): Promise<LatencyProxy> {
  let requests = 0;
  const tcp = await startTcpProxy(targetUrl, (chunk, upstream) => {
    // Each request starts with its method line, and node's HTTP client sends the headers and
    // the body's start (where viem writes the JSON-RPC method) in one chunk.
    if (chunk.subarray(0, 5).toString() === 'POST ' && chunk.includes('"method":"eth_call"')) requests++;
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
