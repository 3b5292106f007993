#!/usr/bin/env node
// Writes README's "Configuration" table from the settings' declarations (src/config/config_settings.ts),
// between its markers. Run through `npm run docs:settings`, which builds dist/ first; a unit test
// fails while README's table differs from the declarations.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withSettingsTable } from '../dist/settings_readme.js';

const readmePath = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'README.md');
const before = readFileSync(readmePath, 'utf8');
const after = withSettingsTable(before);
if (after === before) {
  console.log('README.md: the settings table is current');
} else {
  writeFileSync(readmePath, after);
  console.log('README.md: the settings table was rewritten from src/config/config_settings.ts');
}
