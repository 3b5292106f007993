// Every profile field has its words in every page language: the consent page's line, the
// profile form's label (one per part of the postal address) and the word the signed text's explanation uses. The pages fall back to
// English words when a key is missing, so only this test notices a field added without them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../../src/base/project_root.js';
import { PROFILE_FIELDS } from '../../../../src/domain/fields/fields.js';
import { ADDRESS_PARTS } from '../../../../src/domain/profile/profile.js';

const catalogs = readdirSync(join(projectRoot, 'locales')).filter((file) => file.endsWith('.json'));

test.each(catalogs)('%s has the texts of every profile field', (file) => {
  const texts = JSON.parse(readFileSync(join(projectRoot, 'locales', file), 'utf8')) as Record<string, string>;
  const missing = PROFILE_FIELDS.flatMap((field) => [
    `field.${field.name}`,
    ...(field.name === 'address' ? ADDRESS_PARTS : [field.name]).map((label) => `profile.${label}`),
    `field_word.${field.name}`,
  ]).filter((key) => typeof texts[key] !== 'string' || texts[key] === '');
  expect(missing).toEqual([]);
});

test('six catalogs are checked', () => {
  expect(catalogs.sort()).toEqual(['ar.json', 'de.json', 'en.json', 'es.json', 'fr.json', 'ja.json']);
});
