// A TCP proxy on a free loopback port in front of `targetUrl`'s host and port: what a client
// sends goes through `forward` (to count it, or hold it), what the target answers comes back as is.
import { connect, createServer, type Socket } from 'node:net';

export type TcpProxy = { port: number; close(): Promise<void> };

export async function startTcpProxy(
  targetUrl: string,
  forward: (chunk: Buffer, upstream: Socket) => void,
  options: { noDelay?: boolean } = {},
): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      if (options.noDelay) socket.setNoDelay(true);
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => forward(chunk, upstream));
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
