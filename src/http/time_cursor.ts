// The opaque cursor of Signet's newest-first listings: the time and id of the last item a page
// showed, so the next page starts after it. A cursor this API did not give is refused.
import { refuse } from '../base/errors.js';

export type TimeCursor = { t: string; id: string };

export function encodeTimeCursor(item: { at: string; id: string }): string {
  return Buffer.from(JSON.stringify({ t: item.at, id: item.id })).toString('base64url');
}

export function decodeTimeCursor(raw: string | undefined): TimeCursor | undefined {
  if (!raw) return undefined;
  try {
    const cursor = JSON.parse(Buffer.from(raw, 'base64url').toString()) as TimeCursor;
    if (typeof cursor.t === 'string' && typeof cursor.id === 'string') return cursor;
  } catch {
    // refused below
  }
  throw refuse('invalid_query', '"cursor" is not one this API gave');
}

/** Whether an item comes after the cursor in newest-first order (earlier time, or same time and smaller id). */
export const afterCursor = (cursor: TimeCursor) => (item: { at: string; id: string }) => item.at < cursor.t || (item.at === cursor.t && item.id < cursor.id);
