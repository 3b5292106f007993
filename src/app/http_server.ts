// The public HTTP server, bounded against slow and many clients (decision 73): a cap on the
// connections one process keeps open, and a time for each part of a request a client controls
// (its headers, its whole body, the pause before its next request, a silence either way). Node
// enforces the headers and request timeouts on a periodic sweep of its connections, every 30 s
// unless told: the sweep is set to a quarter of the shorter one (at most a second), so a
// connection is closed at most that late.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config/config.js';

export type HttpBounds = Config['http'];

/** How often Node looks for connections past their headers or request timeout. */
export function connectionSweepMs(bounds: Pick<HttpBounds, 'headersTimeoutMs' | 'requestTimeoutMs'>): number {
  return Math.max(25, Math.min(1000, Math.floor(Math.min(bounds.headersTimeoutMs, bounds.requestTimeoutMs) / 4)));
}

export function createBoundedServer(listener: RequestListener, bounds: HttpBounds, onDrop?: () => void): Server {
  const server = createServer(
    {
      headersTimeout: bounds.headersTimeoutMs,
      requestTimeout: bounds.requestTimeoutMs,
      keepAliveTimeout: bounds.keepAliveTimeoutMs,
      connectionsCheckingInterval: connectionSweepMs(bounds),
    },
    listener,
  );
  // Past the cap, Node closes a new connection as soon as it is accepted, before reading a byte.
  server.maxConnections = bounds.maxConnections;
  // A socket that passes nothing either way this long is closed (Node destroys it when nothing listens for 'timeout').
  server.timeout = bounds.idleTimeoutMs;
  if (onDrop) server.on('drop', onDrop);
  return server;
}
