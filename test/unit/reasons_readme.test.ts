// README's "Error reasons" list is the catalog's (src/base/reasons.ts): every reason, with its
// status and meaning, and nothing else. When this fails, run `npm run docs:reasons`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { statusOfCode } from '../../src/base/error_codes.js';
import { projectRoot } from '../../src/base/project_root.js';
import { REASONS } from '../../src/base/reasons.js';
import { reasonsListIn, reasonsTable, withReasonsList } from '../../src/base/reasons_readme.js';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

test("README's list of error reasons is the catalog's (else: npm run docs:reasons)", () => {
  expect(reasonsListIn(readme)).toBe(reasonsTable());
});

test('the list has one row per reason, with its HTTP status, code and meaning', () => {
  const rows = reasonsTable().split('\n').slice(2);
  expect(rows).toHaveLength(Object.keys(REASONS).length);
  for (const [reason, { error, meaning }] of Object.entries(REASONS)) {
    expect(rows).toContain(`| \`${reason}\` | ${statusOfCode(error)} | \`${error}\` | ${meaning} |`);
  }
});

test('a README whose list differs is told apart, and rewriting puts the current one back', () => {
  const stale = readme.replace('| `invalid_body` |', '| `invalid_body_renamed` |');
  expect(reasonsListIn(stale)).not.toBe(reasonsTable());
  expect(withReasonsList(stale)).toBe(readme);
  expect(() => withReasonsList('# no markers')).toThrow('markers');
});
