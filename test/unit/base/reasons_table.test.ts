// The "Error reasons" table of docs/integration.md is the catalog's (src/base/reasons.ts): every
// reason, with its status and meaning, and nothing else. When this fails, run `npm run docs:reasons`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusOfCode } from '../../../src/base/error_codes.js';
import { projectRoot } from '../../../src/base/project_root.js';
import { PREVIOUS_REASON_UNTIL, REASONS, REPLACED_REASONS } from '../../../src/base/reasons.js';
import { reasonsListIn, reasonsTable, withReasonsList } from '../../../src/base/reasons_table.js';

const integration = readFileSync(join(projectRoot, 'docs', 'integration.md'), 'utf8');

test("docs/integration.md's list of error reasons is the catalog's (else: npm run docs:reasons)", () => {
  expect(reasonsListIn(integration)).toBe(reasonsTable());
});

test('the list has one row per reason, with its HTTP status, code and meaning, then one per replaced word', () => {
  const rows = reasonsTable().split('\n').slice(2);
  expect(rows).toHaveLength(Object.keys(REASONS).length + Object.keys(REPLACED_REASONS).length);
  for (const [reason, { error, meaning }] of Object.entries(REASONS)) {
    expect(rows).toContain(`| \`${reason}\` | ${statusOfCode(error)} | \`${error}\` | ${meaning} |`);
  }
  expect(rows.slice(Object.keys(REASONS).length)).toContain(
    `| \`grant_revoked\` | 401 | \`invalid_token\` | Replaced by \`token_revoked\`: sent as \`previous_reason\` beside it until ${PREVIOUS_REASON_UNTIL}. |`,
  );
});

test('a replaced word is no reason any more, and each names a reason that is', () => {
  for (const [old, by] of Object.entries(REPLACED_REASONS)) {
    expect(Object.hasOwn(REASONS, old)).toBe(false);
    expect(Object.hasOwn(REASONS, by)).toBe(true);
  }
});

test('a list that differs is told apart, and rewriting puts the current one back', () => {
  const stale = integration.replace('| `invalid_body` |', '| `invalid_body_renamed` |');
  expect(reasonsListIn(stale)).not.toBe(reasonsTable());
  expect(withReasonsList(stale)).toBe(integration);
  expect(() => withReasonsList('# no markers')).toThrow('markers');
});
