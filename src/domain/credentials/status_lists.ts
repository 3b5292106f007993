// The status of every credential Signet issues, as an IETF Token Status List: each credential
// holds one slot (a list number and an index) and one bit there says whether it is revoked.
// Slots are drawn at random, so neighbouring indexes say nothing about when or to whom a
// credential was issued; a slot is taken with SET NX and freed when its credential expires.
// The bits are kept as the set of revoked slots, each until its credential's expiry, and the
// list is built from it when a verifier asks (a few kilobytes, compressed).
import { randomInt } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** Slots per list: 2^17 bits, 16 KiB before compression. */
export const STATUS_LIST_SIZE = 1 << 17;
/** Random draws in one list before the next list is tried. */
const DRAWS_PER_LIST = 16;

export type StatusSlot = { list: number; index: number };

export type StatusLists = {
  /** A free slot for a credential, held until `expiresAt` (ms). */
  take(credentialId: string, expiresAt: number): Promise<StatusSlot>;
  /** Sets the slot's bit: its credential is revoked, until `expiresAt` (ms). Safe to repeat. */
  revoke(slot: StatusSlot, expiresAt: number): Promise<void>;
  /** The list's bits as the status list's `lst`: zlib-compressed, base64url. */
  encoded(list: number): Promise<string>;
};

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/** The bytes of a list whose set bits are `revoked`: index i is bit (i mod 8), least significant first, of byte i/8. */
export function statusBytes(revoked: Iterable<number>, size = STATUS_LIST_SIZE): Uint8Array {
  const bytes = new Uint8Array(size / 8);
  for (const index of revoked) {
    if (Number.isInteger(index) && index >= 0 && index < size) bytes[index >> 3]! |= 1 << (index & 7);
  }
  return bytes;
}

export function createStatusLists(store: Store, now: () => number, draw: (size: number) => number = randomInt): StatusLists {
  return {
    async take(credentialId, expiresAt) {
      const ttl = secondsUntil(expiresAt, now());
      for (let list = 0; ; list += 1) {
        for (let draws = 0; draws < DRAWS_PER_LIST; draws += 1) {
          const index = draw(STATUS_LIST_SIZE);
          if (await store.setIfAbsent(keys.statusSlot(list, index), credentialId, ttl)) return { list, index };
        }
      }
    },
    async revoke(slot, expiresAt) {
      await store.addToIndex(keys.revokedSlots(slot.list), String(slot.index), secondsUntil(expiresAt, now()));
    },
    async encoded(list) {
      const revoked = (await store.indexMembers(keys.revokedSlots(list))).map(Number);
      return Buffer.from(deflateSync(statusBytes(revoked))).toString('base64url');
    },
  };
}
