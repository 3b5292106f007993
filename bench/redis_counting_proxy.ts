// A TCP proxy in front of a redis-server that counts round trips: each write of a client that
// arrives is one request burst, however many commands it carries (a pipeline, MULTI … EXEC,
// the commands ioredis's auto-pipelining sends together from one tick). MONITOR counts
// commands; this counts the exchanges a request waits on.
import { connect, createServer, type Socket } from 'node:net';

export type CountingProxy = { url: string; writes(): number; close(): Promise<void> };

export async function startRedisCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  const open = new Set<Socket>();
  let writes = 0;
  const server = createServer((client) => {
    client.setNoDelay(true);
    const upstream = connect(Number(target.port), target.hostname);
    upstream.setNoDelay(true);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      writes++;
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as { port: number }).port}`,
    writes: () => writes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
