// A TCP listener on loopback (127.0.0.1 and ::1, one port) that records every connection made
// to it and answers nothing, as a service on an inner port that never speaks first: a fetch
// that reached it would hang there. The tests that prove a refused URL is never connected to
// read its record.
import { createServer, type Server, type Socket } from 'node:net';

export type ConnectionRecorder = {
  port: number;
  /** The peer address of every connection, in order. */
  connections: string[];
  close(): Promise<void>;
};

const listen = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

export async function startConnectionRecorder(): Promise<ConnectionRecorder> {
  const connections: string[] = [];
  const sockets = new Set<Socket>();
  const record = (socket: Socket) => {
    connections.push(socket.remoteAddress ?? 'unknown');
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  // The same port on both loopbacks: the port IPv4 gave may be taken on ::1, then try another.
  for (let attempt = 0; ; attempt++) {
    const v4 = createServer(record);
    const v6 = createServer(record);
    await listen(v4, 0, '127.0.0.1');
    const { port } = v4.address() as { port: number };
    try {
      await listen(v6, port, '::1');
    } catch (error) {
      await new Promise<void>((resolve) => v4.close(() => resolve()));
      if (attempt < 5) continue;
      throw error;
    }
    return {
      port,
      connections,
      async close() {
        for (const socket of sockets) socket.destroy();
        await Promise.all([v4, v6].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      },
    };
  }
}
