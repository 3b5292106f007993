// The one rule for a phone number: ITU-T E.164, a country code and the subscriber's number,
// 15 digits at most. Signet takes one in two places, and each keeps its own reading:
// - `phone_number`, the owner's profile (OpenID Connect's claim, typed on the profile form): the
//   "+" and a country code, which never starts with 0, then 7 to 15 digits in all;
// - `msisdn`, a verified claim's mobile number (OpenID Identity Assurance), written by a claim
//   issuer: the standard's own example has no "+" ("1999550123"), so the "+" may be left out and
//   5 to 15 digits pass. The verified claims' schema also checks what Signet releases, so a
//   stricter reading would stop claims already issued under this one.

/** The two readings, named by the claim each checks. */
export type PhoneNumberReading = 'phone_number' | 'msisdn';

export const PHONE_NUMBER_RULES: Readonly<Record<PhoneNumberReading, { pattern: RegExp; refusal: string }>> = {
  phone_number: { pattern: /^\+[1-9]\d{6,14}$/, refusal: 'must be E.164, like +33612345678' },
  msisdn: { pattern: /^\+?[0-9]{5,15}$/, refusal: 'must be an E.164 number' },
};
