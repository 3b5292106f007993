// Moves a Sentinel-mode client to a new master when the Sentinels announce one, and only then.
//
// ioredis's own failover detector drops the connection on every +switch-master notice it hears.
// Each Sentinel sends its own notice when it adopts the new master, up to seconds apart, so a
// client that had already reached the new master (its reconnection asked a Sentinel that knew)
// was dropped again, once per late Sentinel: a burst of 503s after Signet had served again
// (test/cluster/sentinel_failover.test.ts). Dropping it under a reconnection in flight also
// made ioredis give the client up for good. This follower hears the same notices but drops
// the connection only when the master they name is not the server the client is connected
// to, and only while it is connected; a write refused as READONLY (a demoted master whose
// notice was missed) drops it too (`reconnectOnError` in redis_connection.ts; docs/decisions.md, 38).
import { Redis } from 'ioredis';

const NOTICE = '+switch-master';

export type SentinelFollowerOptions = {
  sentinels: { host: string; port: number }[];
  name: string;
  sentinelPassword?: string;
  tls: boolean;
  reconnectMaxDelayMs: number;
};

/** "127.0.0.1" and "::ffff:127.0.0.1" are one address. */
const plainAddress = (address: string | undefined) => address?.replace(/^::ffff:/, '');

/** Whether a "+switch-master" message (`<name> <old ip> <old port> <new ip> <new port>`) names another server than the client's. */
export function namesAnotherMaster(message: string, name: string, connectedTo: { address?: string; port?: number }): boolean {
  const [master, , , host, port] = message.split(' ');
  if (master !== name || !host || !port) return false;
  return plainAddress(connectedTo.address) !== plainAddress(host) || connectedTo.port !== Number(port);
}

/** Follows the Sentinels' notices for `client` until the client ends; returns the listeners' closer. */
export function followSentinels(client: Redis, options: SentinelFollowerOptions): () => void {
  const listeners = options.sentinels.map(
    (sentinel) =>
      new Redis({
        ...sentinel,
        ...(options.sentinelPassword ? { password: options.sentinelPassword } : {}),
        ...(options.tls ? { tls: {} } : {}),
        // A subscriber: it sends nothing but its subscription, renewed on every reconnection.
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        retryStrategy: (attempt) => Math.min(50 * attempt, options.reconnectMaxDelayMs),
        lazyConnect: false,
      }),
  );
  for (const listener of listeners) {
    listener.on('error', () => {});
    // Rejected only when the listener is closed before a Sentinel answered (its client ended);
    // while a Sentinel is down the subscription waits, and ioredis renews it on each reconnection.
    // No request waits on it: a missed notice is caught by the first READONLY write.
    listener.subscribe(NOTICE).catch(() => {});
    listener.on('message', (channel: string, message: string) => {
      if (channel !== NOTICE || client.status !== 'ready') return;
      const stream = client.stream as { remoteAddress?: string; remotePort?: number } | undefined;
      if (namesAnotherMaster(message, options.name, { address: stream?.remoteAddress, port: stream?.remotePort })) {
        client.disconnect(true);
      }
    });
  }
  const close = () => {
    for (const listener of listeners) listener.disconnect();
  };
  client.once('end', close);
  return close;
}
