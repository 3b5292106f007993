// The one rule for a date or a time written as text, as ISO 8601 and the OpenID specifications
// write them: a date is YYYY-MM-DD, a time YYYY-MM-DDThh:mm[:ss[.fraction]] with its zone. The
// shape comes first; then one of two checks, each named for what it lets pass:
// - dayOf, the calendar's: the date must be a day that exists (2001-02-30 is not). Where Signet
//   computes from a date (an age), it uses this one.
// - readsAsTime, the clock's (Date.parse): any month may have a 31st, read as the days after its
//   end (2001-02-30 is 2 March). The verified claims' schema checks with it, also when Signet
//   releases a claim, so claims issued under it stay releasable; a claim's expiry is read by it.

/** A date: YYYY-MM-DD, a month written 0x or 1x, a day 0x to 3x. */
export const DATE_SHAPE = /^\d{4}-[01]\d-[0-3]\d$/;

/** A time: YYYY-MM-DDThh:mm, seconds and their fraction if given, then Z or ±hh:mm. */
export const TIME_SHAPE = /^\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d(:[0-5]\d(\.\d+)?)?(Z|[+-][0-2]\d:[0-5]\d)$/;

export type Day = { year: number; month: number; day: number /** UTC midnight, ms since the epoch. */; at: number };

/** The day a date names, or undefined when the text is not a date or not a day of the calendar. */
export function dayOf(text: string): Day | undefined {
  if (!DATE_SHAPE.test(text)) return undefined;
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const at = Date.UTC(year, month - 1, day);
  const parsed = new Date(at);
  // Date.UTC carries a day past the month's end into the next month: such a date is none.
  if (parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) return undefined;
  return { year, month, day, at };
}

/** Whether the clock reads the text as a moment (Date.parse): the looser check, above. */
export function readsAsTime(text: string): boolean {
  return !Number.isNaN(Date.parse(text));
}
