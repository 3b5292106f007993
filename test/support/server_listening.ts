// Listening on a fixed port again and stopping, for the proxies a test takes down and brings back
// on the same address (the state 'dead', then 'up').
import type { Server } from 'node:net';

/** Listens on 127.0.0.1:`port`; a failure to bind (the port taken) rejects. */
export const listenOn = (server: Server, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

/** Stops accepting connections (open ones are the caller's to cut); nothing to do when not listening. */
export const stopListening = (server: Server) => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
