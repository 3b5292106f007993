// The error reasons table of docs/integration.md, made from the catalog (src/base/reasons.ts):
// the table that `npm run docs:reasons` writes between the markers, and the check that the doc's
// copy is current (test/unit/base/reasons_table.test.ts).

import { statusOfCode } from './error_codes.js';
import { markedSectionIn, withMarkedSection } from './marked_section.js';
import { PREVIOUS_REASON_UNTIL, REASONS, REPLACED_REASONS } from './reasons.js';

const REASONS_START = '<!-- reasons:start (written by npm run docs:reasons from src/base/reasons.ts) -->';
const REASONS_END = '<!-- reasons:end -->';

/** One row per reason, in the catalog's order: the reason, its HTTP status and code, what it means; then the replaced words. */
export function reasonsTable(): string {
  const rows = Object.entries(REASONS).map(
    ([reason, { error, meaning }]) => `| \`${reason}\` | ${statusOfCode(error)} | \`${error}\` | ${meaning.replaceAll('|', '\\|')} |`,
  );
  return ['| reason | status | `error` | meaning |', '|---|---|---|---|', ...rows, ...replacedRows()].join('\n');
}

/** Then one row per old word a reason replaced, answered with that reason's status and code. */
function replacedRows(): string[] {
  return Object.entries(REPLACED_REASONS).map(([old, by]) => {
    const { error } = REASONS[by];
    return `| \`${old}\` | ${statusOfCode(error)} | \`${error}\` | Replaced by \`${by}\`: sent as \`previous_reason\` beside it until ${PREVIOUS_REASON_UNTIL}. |`;
  });
}

const MARKERS = { start: REASONS_START, end: REASONS_END, doc: 'docs/integration.md' };

/** The text between the markers (undefined when the doc has no markers). */
export const reasonsListIn = (doc: string): string | undefined => markedSectionIn(doc, MARKERS);

/** The doc with the current table between the markers. */
export const withReasonsList = (doc: string): string => withMarkedSection(doc, MARKERS, reasonsTable());
