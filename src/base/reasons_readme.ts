// The README's list of error reasons, made from the catalog (src/base/reasons.ts): the table that
// `npm run docs:reasons` writes between the markers, and the check that README's copy is
// current (test/unit/reasons_readme.test.ts).
import { statusOfCode } from './error_codes.js';
import { REASONS } from './reasons.js';

export const REASONS_START = '<!-- reasons:start (written by npm run docs:reasons from src/base/reasons.ts) -->';
export const REASONS_END = '<!-- reasons:end -->';

/** One row per reason, in the catalog's order: the reason, its HTTP status and code, what it means. */
export function reasonsTable(): string {
  const rows = Object.entries(REASONS).map(
    ([reason, { error, meaning }]) => `| \`${reason}\` | ${statusOfCode(error)} | \`${error}\` | ${meaning.replaceAll('|', '\\|')} |`,
  );
  return ['| reason | status | `error` | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text between the markers (undefined when README has no markers). */
export function reasonsListIn(readme: string): string | undefined {
  const start = readme.indexOf(REASONS_START);
  const end = readme.indexOf(REASONS_END);
  if (start < 0 || end < start) return undefined;
  return readme.slice(start + REASONS_START.length, end).trim();
}

/** README with the current table between the markers. */
export function withReasonsList(readme: string): string {
  const start = readme.indexOf(REASONS_START);
  const end = readme.indexOf(REASONS_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${REASONS_START} … ${REASONS_END} markers`);
  return `${readme.slice(0, start + REASONS_START.length)}\n${reasonsTable()}\n${readme.slice(end)}`;
}
