// The one list of a postal address's parts: both address schemas are keyed by it, the profile's
// with the five the form takes, a verified claim's with every one of them.
import { POSTAL_ADDRESS_PARTS } from '../../../src/base/postal_address.js';
import { addressSchema } from '../../../src/domain/profile/profile.js';
import { verifiedPersonClaims } from '../../../src/domain/verified_claims/verified_claims_schema.js';

test("OpenID Connect's parts, and Identity Assurance's country_code", () => {
  expect(POSTAL_ADDRESS_PARTS).toEqual(['formatted', 'street_address', 'locality', 'region', 'postal_code', 'country', 'country_code']);
});

test("the profile's address holds five of the parts: no formatted text, no country code", () => {
  expect(addressSchema.keyof().options).toEqual(['street_address', 'locality', 'region', 'postal_code', 'country']);
});

test("a verified claim's address holds every part, and a formatted one alone is an address", () => {
  const address = { formatted: 'Ada Lovelace, 12 St James’s Square, London', country_code: 'GBR' };
  expect(verifiedPersonClaims.parse({ address }).address).toEqual(address);
  const all = Object.fromEntries(POSTAL_ADDRESS_PARTS.map((part) => [part, part === 'country_code' ? 'GB' : 'x']));
  expect(verifiedPersonClaims.parse({ address: all }).address).toEqual(all);
});
