// The one rule for a phone number, E.164, in its two readings: the profile's phone_number asks
// for the "+" and a country code that does not start with 0, 7 to 15 digits; a verified claim's
// msisdn lets the "+" go and takes 5 to 15 digits. Neither takes more than E.164's 15 digits.
import { PHONE_NUMBER_RULES } from '../../../src/base/phone_number.js';

const takes = (reading: keyof typeof PHONE_NUMBER_RULES, value: string) => PHONE_NUMBER_RULES[reading].pattern.test(value);

test.each([
  ['+33612345678', true, true],
  ['+1234567', true, true],
  ['+123456789012345', true, true],
  ['+1234567890123456', false, false],
  ['+123456', false, true],
  ['+12345', false, true],
  ['+1234', false, false],
  ['+0612345678', false, true],
  ['33612345678', false, true],
  ['1999550123', false, true],
  ['+33 6 12 34 56 78', false, false],
  ['+33-612345678', false, false],
  ['', false, false],
])('%j: phone_number %s, msisdn %s', (value, asPhoneNumber, asMsisdn) => {
  expect(takes('phone_number', value)).toBe(asPhoneNumber);
  expect(takes('msisdn', value)).toBe(asMsisdn);
});

test('each reading says what it wants in its refusal', () => {
  expect(PHONE_NUMBER_RULES.phone_number.refusal).toBe('must be E.164, like +33612345678');
  expect(PHONE_NUMBER_RULES.msisdn.refusal).toBe('must be an E.164 number');
});
