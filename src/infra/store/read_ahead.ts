// Reads sent before their reader asks: where one read names what the request reads next (a
// token names its Grant and its account), the next reads go out at once, together with any
// other read of the same turn (one round trip), and the reader takes the answer instead of
// asking. Each read is taken once, and only within a short window: past it the reader asks
// Redis again, so nothing stale outlives the request that sent it. A write of the key in this
// process drops it. Another process's write in between is the same race as between two reads
// one after the other, only shorter.

import type { Store } from './store.js';

/** How long a read sent ahead waits, at most, for its reader. */
export const READ_AHEAD_MS = 250;
/** The most reads waiting at once: the oldest go first. */
const MOST_WAITING = 1000;

export type ReadAhead<T> = {
  /** Holds `read` for the next `take` of `key` (a read already held for it is replaced). */
  send(key: string, read: Promise<T>): void;
  /** The read held for `key`, once, if it was sent within the window; undefined: read it yourself. */
  take(key: string): Promise<T> | undefined;
  /** Forgets the read held for `key` (its value is about to change). */
  drop(key: string): void;
};

export function createReadAhead<T>(now: () => number = Date.now): ReadAhead<T> {
  const waiting = new Map<string, { at: number; read: Promise<T> }>();
  return {
    send(key, read) {
      // Nobody may take it (the request fails first): its failure is then nobody's. A reader that
      // takes it awaits `read` itself and still gets the rejection, so an outage stays an outage.
      read.catch(() => {});
      waiting.delete(key);
      waiting.set(key, { at: now(), read });
      if (waiting.size > MOST_WAITING) waiting.delete(waiting.keys().next().value!);
    },
    take(key) {
      const ahead = waiting.get(key);
      if (!ahead) return undefined;
      waiting.delete(key);
      return now() - ahead.at <= READ_AHEAD_MS ? ahead.read : undefined;
    },
    drop(key) {
      waiting.delete(key);
    },
  };
}

/**
 * A plain read to send ahead, handed to whoever sends the reads of that moment: its key, and
 * `hold`, which keeps the answer for its reader. Several go out in one MGET, not a GET each.
 */
export type ReadToSend = { key: string; hold(read: Promise<string | undefined>): void };

/** A store's plain reads (`get`) that can be sent ahead: `toSend` hands one to the sender of that moment's reads, `get` takes its answer or reads. */
export function createGetsAhead(store: Pick<Store, 'get'>) {
  const ahead = createReadAhead<string | undefined>();
  return {
    toSend: (key: string): ReadToSend => ({ key, hold: (read) => ahead.send(key, read) }),
    get: (key: string) => ahead.take(key) ?? store.get(key),
    drop: (key: string) => ahead.drop(key),
  };
}
