// Moves a Sentinel-mode client to a new master when the Sentinels announce one, and only then.
//
// ioredis's own failover detector drops the connection on every +switch-master notice it hears.
// Each Sentinel sends its own notice when it adopts the new master, up to seconds apart, so a
// client that had already reached the new master (its reconnection asked a Sentinel that knew)
// was dropped again, once per late Sentinel: a burst of 503s after Signet had served again
// (test/cluster/sentinel_failover.test.ts). Dropping it under a reconnection in flight also
// made ioredis give the client up for good. This follower hears the same notices but drops
// the connection only when the master they name is not the server the client is connected
// to. A notice heard while the client was reconnecting is kept: a reconnection that asked a
// Sentinel not yet told lands on the old master, which still answers as master until it is
// demoted, and no later notice would come to move it; on ready, the client leaves a server that
// is not the one last announced. A write refused as READONLY (a demoted master whose notice was
// missed) drops it too (`reconnectOnError` in redis_connection.ts; docs/decisions.md, 38).
import { Redis } from 'ioredis';

const NOTICE = '+switch-master';

export type SentinelFollowerOptions = {
  sentinels: { host: string; port: number }[];
  name: string;
  sentinelPassword?: string;
  tls: boolean;
  reconnectMaxDelayMs: number;
  /** How long a heard announcement still moves a client that becomes ready elsewhere; 30 s by default. */
  announcementHeldMs?: number;
};

type Server = { host: string; port: number };

/** Sentinels adopt a new master seconds apart; an announcement older than this is no longer news. */
const ANNOUNCEMENT_HELD_MS = 30_000;

/** "127.0.0.1" and "::ffff:127.0.0.1" are one address. */
const plainAddress = (address: string | undefined) => address?.replace(/^::ffff:/, '');

/** The new master a "+switch-master" message (`<name> <old ip> <old port> <new ip> <new port>`) names for `name`, if any. */
export function announcedMaster(message: string, name: string): Server | undefined {
  const [master, , , host, port] = message.split(' ');
  if (master !== name || !host || !port) return undefined;
  return { host, port: Number(port) };
}

const isServer = (connectedTo: { address?: string; port?: number }, server: Server) =>
  plainAddress(connectedTo.address) === plainAddress(server.host) && connectedTo.port === server.port;

/** Whether a "+switch-master" message names another server than the client's. */
export function namesAnotherMaster(message: string, name: string, connectedTo: { address?: string; port?: number }): boolean {
  const master = announcedMaster(message, name);
  return master !== undefined && !isServer(connectedTo, master);
}

export type SentinelFollower = {
  /** The master last announced within the held time, if any. */
  announced(): Server | undefined;
  close(): void;
};

/** Follows the Sentinels' notices for `client` until the client ends. */
export function followSentinels(client: Redis, options: SentinelFollowerOptions): SentinelFollower {
  const heldMs = options.announcementHeldMs ?? ANNOUNCEMENT_HELD_MS;
  let last: { master: Server; at: number } | undefined;
  const announced = () => (last && Date.now() - last.at <= heldMs ? last.master : undefined);
  const connectedTo = () => {
    const stream = client.stream as { remoteAddress?: string; remotePort?: number } | undefined;
    return { address: stream?.remoteAddress, port: stream?.remotePort };
  };
  const leaveIfNotOn = (master: Server | undefined) => {
    if (master && client.status === 'ready' && !isServer(connectedTo(), master)) client.disconnect(true);
  };
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
      const master = channel === NOTICE ? announcedMaster(message, options.name) : undefined;
      if (!master) return;
      last = { master, at: Date.now() };
      leaveIfNotOn(master);
    });
  }
  client.on('ready', () => leaveIfNotOn(announced()));
  const close = () => {
    for (const listener of listeners) listener.disconnect();
  };
  client.once('end', close);
  return { announced, close };
}
