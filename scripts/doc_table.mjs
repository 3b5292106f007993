#!/usr/bin/env node
// Writes one generated table into its doc, between its markers: `settings` (docs/operations.md,
// from src/config/config_settings.ts) or `reasons` (docs/integration.md, from src/base/reasons.ts).
// Run through `npm run docs:settings` or `npm run docs:reasons`, which build dist/ first; a unit
// test fails while a table differs from its source.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withReasonsList } from '../dist/base/reasons_table.js';
import { withSettingsTable } from '../dist/config/settings_table.js';

const TABLES = {
  settings: { doc: 'docs/operations.md', source: 'src/config/config_settings.ts', write: withSettingsTable },
  reasons: { doc: 'docs/integration.md', source: 'src/base/reasons.ts', write: withReasonsList },
};
const table = TABLES[process.argv[2]];
if (!table) throw new Error(`usage: doc_table.mjs ${Object.keys(TABLES).join('|')}`);
const path = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), table.doc);
const before = readFileSync(path, 'utf8');
const after = table.write(before);
if (after === before) {
  console.log(`${table.doc}: the ${process.argv[2]} table is current`);
} else {
  writeFileSync(path, after);
  console.log(`${table.doc}: the ${process.argv[2]} table was rewritten from ${table.source}`);
}
