// The demo identity's profile and claims, so a first login has something to share.
import type { Profile } from '../domain/profile/profile.js';

export const DEMO_PROFILE: Profile = {
  given_name: 'Ada',
  family_name: 'Lovelace',
  email: 'ada@example.org',
  phone_number: '+442071234567',
  address: { street_address: '12 St James Square', locality: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
  website: 'https://example.org/ada',
};

/** The demo KYC claim's trust framework (the demo issuer is trusted under it for `kyc`). */
export const DEMO_TRUST_FRAMEWORK = 'de_aml';

/**
 * What the demo issuer "verified" (nothing: it is a demo), in the shape of OpenID Identity
 * Assurance: a name, date of birth and nationality checked on a passport in person.
 */
function demoVerifiedClaims(now: number) {
  const checkedAt = new Date(now).toISOString();
  return {
    verification: {
      trust_framework: DEMO_TRUST_FRAMEWORK,
      time: checkedAt,
      evidence: [
        {
          type: 'document',
          check_details: [{ check_method: 'vpip', time: checkedAt }],
          document_details: {
            type: 'passport',
            document_number: 'DEMO00001',
            date_of_issuance: '2021-03-01',
            date_of_expiry: '2031-02-28',
            issuer: { name: 'Demo passport office', country_code: 'GBR' },
          },
        },
      ],
    },
    claims: { given_name: 'Ada', family_name: 'Lovelace', birthdate: '1815-12-10', nationalities: ['GB'] },
  };
}

/** The demo identity's claims, issued by the demo ClaimIssuer at start. */
export function demoClaims(now: number) {
  return [
    {
      topic: 'kyc',
      data: {
        level: 'basic',
        checked_by: 'Signet demo issuer',
        checked_on: new Date(now).toISOString().slice(0, 10),
        verified_claims: demoVerifiedClaims(now),
      },
    },
    {
      topic: 'accredited',
      data: { accredited_investor: true, jurisdiction: 'GB' },
      expiresAt: new Date(now + 365 * 24 * 3600 * 1000).toISOString(),
    },
  ];
}
