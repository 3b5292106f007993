// Yes/no age proofs derived from a verified date of birth, in the SD-JWT VC vocabulary
// (`age_equal_or_over: {"18": true}`): the date itself never leaves. A proof holds until the
// owner's next birthday that turns one of them from false to true; the answers that are true
// stay true, so that birthday is the only day the set changes.

/** The thresholds always proven; the operator may add others (CREDENTIAL_AGE_THRESHOLDS). */
export const DEFAULT_AGE_THRESHOLDS = [18, 21] as const;

export type AgeProofs = {
  /** `{"18": true, "21": false}`: one member per threshold. */
  ageEqualOrOver: Record<string, boolean>;
  /** When one of the proofs would change (ms since the epoch), or undefined when every one is true. */
  changesAt: number | undefined;
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day the person turns `years` (UTC midnight, ms): a 29 February birthday falls on 1 March in other years. */
function birthdayAt(year: number, month: number, day: number, years: number): number {
  return Date.UTC(year + years, month - 1, day);
}

/** Completed years on `at` (ms) of a person born on the given day. */
export function ageOn(birthdate: string, at: number): number | undefined {
  const match = DATE.exec(birthdate);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const born = Date.UTC(year, month - 1, day);
  // A date that does not exist (2001-02-30) is not a date of birth.
  const parsed = new Date(born);
  if (parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day || born > at) return undefined;
  const now = new Date(at);
  let age = now.getUTCFullYear() - year;
  if (birthdayAt(year, month, day, age) > at) age -= 1;
  return age;
}

/** The proofs of a date of birth (YYYY-MM-DD) on `at` (ms); undefined when the date is not one. */
export function ageProofs(birthdate: string, at: number, thresholds: readonly number[]): AgeProofs | undefined {
  const age = ageOn(birthdate, at);
  if (age === undefined) return undefined;
  const [year, month, day] = birthdate.split('-').map(Number) as [number, number, number];
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  const ageEqualOrOver = Object.fromEntries(sorted.map((threshold) => [String(threshold), age >= threshold]));
  const next = sorted.find((threshold) => age < threshold);
  return { ageEqualOrOver, changesAt: next === undefined ? undefined : birthdayAt(year, month, day, next) };
}
