// Yes/no age proofs derived from a verified date of birth, in the SD-JWT VC vocabulary
// (`age_equal_or_over: {"18": true}`): the date itself never leaves. A proof holds until the
// owner's next birthday that turns one of them from false to true; the answers that are true
// stay true, so that birthday is the only day the set changes.
import { type Day, dayOf } from '../../base/dates.js';

/** The thresholds always proven; the operator may add others (CREDENTIAL_AGE_THRESHOLDS). */
export const DEFAULT_AGE_THRESHOLDS = [18, 21] as const;

export type AgeProofs = {
  /** `{"18": true, "21": false}`: one member per threshold. */
  ageEqualOrOver: Record<string, boolean>;
  /** When one of the proofs would change (ms since the epoch), or undefined when every one is true. */
  changesAt: number | undefined;
};

/** The day the person turns `years` (UTC midnight, ms): a 29 February birthday falls on 1 March in other years. */
function birthdayAt(year: number, month: number, day: number, years: number): number {
  return Date.UTC(year + years, month - 1, day);
}

/** Completed years on `at` (ms) of a person born on the given day; undefined before it. */
function yearsOn(born: Day, at: number): number | undefined {
  if (born.at > at) return undefined;
  const age = new Date(at).getUTCFullYear() - born.year;
  return birthdayAt(born.year, born.month, born.day, age) > at ? age - 1 : age;
}

/** Completed years on `at` (ms) of a person born on the given date (YYYY-MM-DD). */
export function ageOn(birthdate: string, at: number): number | undefined {
  // A date that does not exist (2001-02-30) is not a date of birth: the calendar's check.
  const born = dayOf(birthdate);
  return born && yearsOn(born, at);
}

/** The proofs of a date of birth (YYYY-MM-DD) on `at` (ms); undefined when the date is not one. */
export function ageProofs(birthdate: string, at: number, thresholds: readonly number[]): AgeProofs | undefined {
  const born = dayOf(birthdate);
  const age = born && yearsOn(born, at);
  if (!born || age === undefined) return undefined;
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  const ageEqualOrOver = Object.fromEntries(sorted.map((threshold) => [String(threshold), age >= threshold]));
  const next = sorted.find((threshold) => age < threshold);
  return { ageEqualOrOver, changesAt: next === undefined ? undefined : birthdayAt(born.year, born.month, born.day, next) };
}
