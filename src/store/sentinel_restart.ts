// ioredis (6.0) gives a Sentinel-mode client up for good (status "end") when a failover notice
// (+switch-master, heard by its failover detector) lands while a reconnection is still asking
// the Sentinels where the master is: the detector closes the connector under that attempt, the
// attempt fails with "Connection is closed", and the client never reconnects again. Signet then
// answered 503 until restarted, after about one failover in four under load
// (test/cluster/sentinel_reconnect.test.ts makes the race on purpose). Such a client is started
// again; one that Signet closes itself stays closed.
import type { Redis } from 'ioredis';

export function restartWhenGivenUp(client: Redis, delayMs: number): void {
  let closedOnPurpose = false;
  const { quit, disconnect } = client;
  client.quit = function (this: Redis, ...args: Parameters<Redis['quit']>) {
    closedOnPurpose = true;
    return quit.apply(this, args);
  } as Redis['quit'];
  client.disconnect = function (this: Redis, reconnect = false) {
    // disconnect(true) is ioredis reconnecting on purpose, not a close.
    if (!reconnect) closedOnPurpose = true;
    disconnect.call(this, reconnect);
  };
  client.on('end', () => {
    if (closedOnPurpose) return;
    setTimeout(() => {
      // Not an outage swallowed: a failed start ends the same way (another "end", another
      // start) or in ioredis' own reconnection loop; requests meanwhile get the store's 503.
      if (!closedOnPurpose && client.status === 'end') client.connect().catch(() => {});
    }, delayMs);
  });
}
