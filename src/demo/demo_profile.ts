// The demo identity's profile and claims, so a first login has something to share.
import type { Profile } from '../profile/profile.js';

export const DEMO_PROFILE: Profile = {
  given_name: 'Ada',
  family_name: 'Lovelace',
  email: 'ada@example.org',
  phone_number: '+442071234567',
  address: { street_address: '12 St James Square', locality: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
  website: 'https://example.org/ada',
};

/** The demo identity's claims, issued by the demo ClaimIssuer at start. */
export function demoClaims(now: number) {
  return [
    { topic: 'kyc', data: { level: 'basic', checked_by: 'Signet demo issuer', checked_on: new Date(now).toISOString().slice(0, 10) } },
    {
      topic: 'accredited',
      data: { accredited_investor: true, jurisdiction: 'GB' },
      expiresAt: new Date(now + 365 * 24 * 3600 * 1000).toISOString(),
    },
  ];
}
