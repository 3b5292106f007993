// The status of every credential Signet issues, as an IETF Token Status List: each credential
// holds one slot (a list number and an index) and one bit there says whether it is revoked.
// Slots are drawn at random, so neighbouring indexes say nothing about when or to whom a
// credential was issued; a slot is taken with SET NX and freed when its credential expires.
// Slots are drawn in the open list only (a number kept in Redis): when its draws keep landing
// on taken slots it is nearly full, and the open list moves on to the next, after the last back
// to list 0, whose slots have been freed by then as their credentials expired. So a slot costs
// two commands however many lists are full, and no list is ever past what the status route
// serves (decision 66). The bits are kept as the set of revoked slots, each until its
// credential's expiry, and the list is built from it when a verifier asks (a few kilobytes,
// compressed).
import { randomInt, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { refuse } from '../../base/errors.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';

/** Slots per list: 2^17 bits, 16 KiB before compression. */
export const STATUS_LIST_SIZE = 1 << 17;
/** Lists there are, numbered 0 to STATUS_LISTS - 1: the status route serves these and no other (131 million slots). */
export const STATUS_LISTS = 1000;
/** Random draws in one list before it counts as full: a list a sixteenth empty still gives a slot 65 % of the time. */
const DRAWS_PER_LIST = 16;
/** Lists one slot's search moves through at most: the bound of its cost when many lists are full at once. */
const LISTS_PER_TAKE = 8;
/** How long the open list's number is kept unmoved: longer than any credential lives, so a lost one costs a few searches, never a slot twice. */
const OPEN_LIST_SECONDS = 400 * 86_400;
/** How long a list's revision is kept: far longer than a process keeps a token; once gone, a list is signed once more. */
const REVISION_SECONDS = 86_400;

export type StatusSlot = { list: number; index: number };

export type StatusLists = {
  /** A free slot for a credential, held until `expiresAt` (ms). */
  take(credentialId: string, expiresAt: number): Promise<StatusSlot>;
  /** Sets the slot's bit: its credential is revoked, until `expiresAt` (ms). Safe to repeat. */
  revoke(slot: StatusSlot, expiresAt: number): Promise<void>;
  /** The list's bits as the status list's `lst`: zlib-compressed, base64url. */
  encoded(list: number): Promise<string>;
  /** A value that changes with every revocation in the list: a token signed under another is out of date. */
  revision(list: number): Promise<string | undefined>;
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

/** A list number as kept in Redis; anything else reads as list 0. */
const listOf = (text: string | undefined) => {
  const list = Number(text);
  return Number.isInteger(list) && list >= 0 && list < STATUS_LISTS ? list : 0;
};

export function createStatusLists(store: Store, now: () => number, draw: (size: number) => number = randomInt): StatusLists {
  const openList = keys.statusOpenList();
  /** Moves the open list on from `full` (unless another process did already); the list to draw in now. */
  const moveOn = async (full: number, kept: boolean) => {
    const next = (full + 1) % STATUS_LISTS;
    if (!kept) return (await store.setIfAbsent(openList, String(next), OPEN_LIST_SECONDS)) ? next : listOf(await store.get(openList));
    const moved = await store.compareAndSet(openList, [String(full)], String(next), OPEN_LIST_SECONDS);
    return moved.swapped ? next : listOf(moved.current);
  };
  return {
    async take(credentialId, expiresAt) {
      const ttl = secondsUntil(expiresAt, now());
      const kept = await store.get(openList);
      let list = listOf(kept);
      for (let lists = 0; lists < LISTS_PER_TAKE; lists += 1) {
        for (let draws = 0; draws < DRAWS_PER_LIST; draws += 1) {
          const index = draw(STATUS_LIST_SIZE);
          if (await store.setIfAbsent(keys.statusSlot(list, index), credentialId, ttl)) return { list, index };
        }
        list = await moveOn(list, kept !== undefined || lists > 0);
      }
      throw refuse('credential_status_full', 'no status list has a free slot now: slots come free as credentials expire', { retryAfterSeconds: 3600 });
    },
    async revoke(slot, expiresAt) {
      await store.addToIndex(keys.revokedSlots(slot.list), String(slot.index), secondsUntil(expiresAt, now()));
      // After the bit: a token signed under the old revision may lack it, one under the new has it.
      await store.set(keys.statusRevision(slot.list), randomUUID(), REVISION_SECONDS);
    },
    revision: (list) => store.get(keys.statusRevision(list)),
    async encoded(list) {
      const revoked = (await store.indexMembers(keys.revokedSlots(list))).map(Number);
      return Buffer.from(deflateSync(statusBytes(revoked))).toString('base64url');
    },
  };
}
