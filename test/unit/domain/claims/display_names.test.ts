// Display names: issuers by checksummed address, topics by code name, fields in words; what
// has no name falls back to its code (the pages then show the address, shortened).
import { join } from 'node:path';
import { projectRoot } from '../../../../src/base/project_root.js';
import { createDisplayNames } from '../../../../src/domain/claims/display_names.js';
import { createTranslations, readCatalogs } from '../../../../src/http/translations.js';

const ISSUER = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';

const names = createDisplayNames({
  claims: {
    topics: [
      { name: 'kyc', topic: 1, description: 'KYC' },
      { name: 'accredited', topic: 7, description: 'Accredited' },
    ],
    trustedIssuers: [],
  },
  displayNames: {
    issuers: [{ address: ISSUER, name: 'Example Issuer' }],
    topics: [{ topic: 'kyc', name: 'KYC check', names: { en: 'KYC check', fr: 'Vérification KYC' } }],
  },
});

test('an issuer is named whatever the case of its address; an unnamed or malformed one has no name', () => {
  expect(names.issuer(ISSUER.toLowerCase())).toBe('Example Issuer');
  expect(names.issuer('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBeUndefined();
  expect(names.issuer('not an address')).toBeUndefined();
});

test('topics by their display name, else their code name; fields in words', () => {
  expect([names.topic('kyc'), names.topic('accredited'), names.topic('unknown')]).toEqual(['KYC check', 'accredited', 'unknown']);
  expect(['given_name', 'email', 'phone_number', 'address', 'claim:kyc', 'claim:accredited', 'some_field'].map(names.field)).toEqual([
    'first name',
    'email address',
    'phone number',
    'postal address',
    'KYC check',
    'accredited',
    'some field',
  ]);
  expect(names.topics).toEqual({ kyc: 'KYC check', accredited: 'accredited' });
  expect(names.issuers).toEqual({ [ISSUER]: 'Example Issuer' });
});

test("fields in a page's language: the catalogs' words, the operator's topic names in that language, else the English words", () => {
  const translations = createTranslations(readCatalogs(join(projectRoot, 'locales')));
  const inFrench = { t: translations.translate('fr'), has: translations.has, language: 'fr' as const };
  expect(['family_name', 'verified:birthdate', 'claim:kyc', 'claim:accredited', 'some_field'].map((field) => names.fieldIn(field, inFrench))).toEqual([
    'nom de famille',
    'date de naissance vérifié(e)',
    'Vérification KYC',
    'accredited',
    'some field',
  ]);
});
