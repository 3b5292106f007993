// An HTTP proxy on a free loopback port in front of one server (an Information Provider), that
// a test cuts, slows and tampers with: every request is counted by method and path, then passed
// on, answered by the test instead, or its answer rewritten.
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { sleep } from './wait_until.js';

export type ProxiedRequest = { method: string; path: string };

/** The test's own answer to a request, in place of the target's. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string | Buffer };

export type HttpProxy = {
  url: string;
  /** Where requests go (set once the target listens). */
  target: string;
  /** Every request seen, in order. */
  requests: ProxiedRequest[];
  /** Cut: every connection is closed without an answer. */
  down: boolean;
  /** Added before every answer leaves. */
  delayMs: number;
  /** Holds an answer until the promise it gives settles (undefined: sent at once): a test acts in between. */
  hold?: (request: ProxiedRequest) => Promise<void> | undefined;
  /** The test answers instead of the target (undefined: pass it on). */
  answer?: (request: ProxiedRequest) => Answer | undefined;
  /** Rewrites the target's JSON answer before it leaves. */
  tamper?: (request: ProxiedRequest, json: unknown) => unknown;
  close(): Promise<void>;
};

const readAll = async (stream: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startHttpProxy(): Promise<HttpProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (incoming, outgoing) => {
    const seen = { method: incoming.method ?? 'GET', path: incoming.url ?? '/' };
    proxy.requests.push(seen);
    if (proxy.down) {
      incoming.socket.destroy();
      return;
    }
    const body = await readAll(incoming);
    const send = async (status: number, headers: Record<string, string | string[] | undefined>, payload: Buffer | string) => {
      await proxy.hold?.(seen);
      if (proxy.delayMs) await sleep(proxy.delayMs);
      if (outgoing.destroyed) return;
      const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = headers;
      outgoing.writeHead(status, { ...rest, 'content-length': String(Buffer.byteLength(payload)) });
      outgoing.end(payload);
    };
    const own = proxy.answer?.(seen);
    if (own) return send(own.status, own.headers ?? {}, own.body ?? '');
    const target = new URL(proxy.target);
    const upstream = request(
      { host: target.hostname, port: target.port, method: seen.method, path: seen.path, headers: incoming.headers, agent: false },
      async (answer) => {
        let payload = await readAll(answer);
        if (proxy.tamper && String(answer.headers['content-type'] ?? '').includes('json')) {
          payload = Buffer.from(JSON.stringify(proxy.tamper(seen, JSON.parse(payload.toString('utf8')))));
        }
        await send(answer.statusCode ?? 502, answer.headers, payload);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    upstream.end(body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: HttpProxy = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    target: '',
    requests: [],
    down: false,
    delayMs: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
