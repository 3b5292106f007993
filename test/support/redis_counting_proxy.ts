// A TCP proxy in front of a redis-server that counts round trips: each write of a client that
// arrives is one request burst, however many commands it carries (a pipeline, MULTI … EXEC,
// the commands ioredis's auto-pipelining sends together from one tick). MONITOR counts
// commands; this counts the exchanges a request waits on.
import { startTcpProxy } from './tcp_proxy.js';

export type CountingProxy = { url: string; writes(): number; close(): Promise<void> };

export async function startRedisCountingProxy(targetUrl: string): Promise<CountingProxy> {
  let writes = 0;
  const proxy = await startTcpProxy(
    targetUrl,
    (chunk, upstream) => {
      writes++;
      upstream.write(chunk);
    },
    { noDelay: true },
  );
  return { url: `redis://127.0.0.1:${proxy.port}`, writes: () => writes, close: proxy.close };
}
