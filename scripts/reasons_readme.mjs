#!/usr/bin/env node
// Writes README's "Error reasons" table from the catalog (src/base/reasons.ts), between its markers.
// Run through `npm run docs:reasons`, which builds dist/ first; a unit test fails while
// README's table differs from the catalog.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withReasonsList } from '../dist/reasons_readme.js';

const readmePath = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'README.md');
const before = readFileSync(readmePath, 'utf8');
const after = withReasonsList(before);
if (after === before) {
  console.log('README.md: the error reasons are current');
} else {
  writeFileSync(readmePath, after);
  console.log('README.md: the error reasons were rewritten from src/base/reasons.ts');
}
