// A TCP proxy in front of the chain's JSON-RPC that holds each request for a set latency
// (what a hosted RPC node farther away adds) and counts the HTTP requests that pass: one
// per chain round trip, whatever a request carries (one eth_call, a Multicall3 batch).
import { connect, createServer, type Socket } from 'node:net';

export type LatencyProxy = {
  rpcUrl: string;
  /** Milliseconds each request waits before it goes on to the chain. */
  latencyMs: number;
  /** HTTP requests passed so far. */
  requests(): number;
  close(): Promise<void>;
};

export async function startLatencyProxy(targetUrl: string): Promise<LatencyProxy> {
  const target = new URL(targetUrl);
  const open = new Set<Socket>();
  let requests = 0;
  const proxy: LatencyProxy = {
    rpcUrl: '',
    latencyMs: 0,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      // Each request starts with its method line; bodies are small JSON, never "POST " first.
      if (chunk.subarray(0, 5).toString() === 'POST ') requests++;
      // Timers of equal delay fire in order, so the bytes keep their order.
      if (proxy.latencyMs > 0) setTimeout(() => upstream.write(chunk), proxy.latencyMs);
      else upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.rpcUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return proxy;
}
