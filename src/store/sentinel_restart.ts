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
      // ioredis' own idiom for a start nobody awaits (it calls connect().catch(noop) itself):
      // the failure is still emitted as the client's "error" event, and it ends in another
      // "end" (another start) or in ioredis' reconnection loop. No outage is hidden: requests
      // meanwhile get the store's 503 store_unavailable.
      if (!closedOnPurpose && client.status === 'end') client.connect().catch(() => {});
    }, delayMs);
  });
}
