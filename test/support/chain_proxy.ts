// A TCP proxy in front of the test anvil that a test switches between passing traffic,
// refusing connections (nothing listens on its port), going silent (connections accepted,
// never answered) and failing (every request answered 502, as a load balancer with no node).
import { connect, createServer, type Server, type Socket } from 'node:net';
import { listenOn, stopListening as stopServer } from './server_listening.js';

export type ChainProxyMode = 'pass' | 'refuse' | 'silent' | 'fail';

export type ChainProxy = {
  /** The JSON-RPC URL to give Signet instead of anvil's. */
  rpcUrl: string;
  mode(): ChainProxyMode;
  /** Switches mode; every open connection is cut, so nothing piped earlier keeps working. */
  set(mode: ChainProxyMode): Promise<void>;
  close(): Promise<void>;
};

const BAD_GATEWAY = 'HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: 11\r\nconnection: close\r\n\r\nbad gateway';

export async function startChainProxy(targetUrl: string): Promise<ChainProxy> {
  const target = new URL(targetUrl);
  let mode: ChainProxyMode = 'pass';
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server: Server = createServer((client) => {
    track(client);
    if (mode === 'silent') return;
    if (mode === 'fail') {
      client.once('data', () => client.end(BAD_GATEWAY));
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    track(upstream);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });

  const listen = (port: number) => listenOn(server, port);
  const stopListening = () => stopServer(server);
  const cutAll = () => {
    for (const socket of open) socket.destroy();
  };

  await listen(0);
  const { port } = server.address() as { port: number };

  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    mode: () => mode,
    async set(next) {
      mode = next;
      cutAll();
      if (next === 'refuse') {
        const closed = stopListening();
        cutAll();
        await closed;
      } else if (!server.listening) {
        await listen(port);
      }
    },
    async close() {
      const closed = stopListening();
      cutAll();
      await closed;
    },
  };
}
