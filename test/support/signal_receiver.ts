// A website's receiver of Signet's signals for tests: a real HTTP server on loopback that keeps
// every request (back-channel logout tokens, pushed SETs), answers with a chosen status, can
// fail the next N requests, or hang (never answer) to play a receiver that stalls.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { waitUntil } from './wait_until.js';

export type ReceivedRequest = { method: string; path: string; headers: IncomingHttpHeaders; body: string; at: number };

export type SignalReceiver = {
  url: string;
  /** Every request seen, answered or not, in order. */
  requests: ReceivedRequest[];
  /** Requests read but not answered (hanging). */
  readonly pending: number;
  /** Answer the next `count` requests with `status` (default 500). */
  failNext(count: number, status?: number): void;
  /** Hang every request from now on (or answer again with false). */
  hang(on: boolean): void;
  /** Answers the hanging requests with `status`. */
  release(status: number): void;
  waitFor(what: string, predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
};

/** `status`: the answer to a request it takes (a logout: 200; a SET push: 202). */
export async function startSignalReceiver(status: number): Promise<SignalReceiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let hang = false;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      });
      if (hang) {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      if (failures.count > 0) {
        failures.count--;
        response.writeHead(failures.status).end();
        return;
      }
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/signals`,
    requests,
    get pending() {
      return hanging.size;
    },
    failNext: (count, failStatus = 500) => {
      failures = { count, status: failStatus };
    },
    hang: (on) => {
      hang = on;
    },
    release: (answer) => {
      for (const response of [...hanging]) response.writeHead(answer).end();
    },
    async waitFor(what, predicate, timeoutMs = 5000) {
      await waitUntil(what, () => predicate(requests), timeoutMs).catch((error: Error) => {
        throw new Error(`${error.message}: ${requests.length} requests seen`);
      });
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
