// The `verified_claims` element of OpenID Identity Assurance (Schema Definition 1.0, the shape
// OpenID Connect for Identity Assurance 1.0 releases): `{ verification, claims }`, written from
// the standard's text. A claim issuer's verified data is held in this shape in the claim's
// off-chain data and checked with it before Signet signs the hash; Signet releases nothing
// that this schema would refuse. Members the standard does not define are kept, as it asks
// receivers to ignore them rather than refuse them.
import { z } from 'zod';
import { DATE_SHAPE, readsAsTime, TIME_SHAPE } from '../../base/dates.js';
import { refuse } from '../../base/errors.js';
import { PHONE_NUMBER_RULES } from '../../base/phone_number.js';
import type { PostalAddressShape } from '../../base/postal_address.js';

/** Where a claim's verified data sits in its off-chain data: `data.verified_claims`. */
export const VERIFIED_DATA_MEMBER = 'verified_claims';

/** ISO 3166-1 alpha-2 or alpha-3 (ICAO 3-letter codes included). */
const COUNTRY = /^[A-Za-z]{2,3}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const text = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') });
// Dates and times as the standard writes them, with the clock's check (base/dates.ts says why not the calendar's).
const time = text.regex(TIME_SHAPE, 'must be a time as YYYY-MM-DDThh:mm[:ss] with a time zone').refine(readsAsTime, 'is not a real time');
const date = text.regex(DATE_SHAPE, 'must be a date as YYYY-MM-DD').refine(readsAsTime, 'is not a real date');
const country = text.regex(COUNTRY, 'must be an ISO 3166-1 alpha-2 or alpha-3 code');
const notEmpty = (value: Record<string, unknown>) => Object.keys(value).length > 0;

/** The parts of an OpenID Connect `address`, as a claim issuer writes them (base/postal_address.ts). */
const addressParts = {
  formatted: text.optional(),
  street_address: text.optional(),
  locality: text.optional(),
  region: text.optional(),
  postal_code: text.optional(),
  country: text.optional(),
  country_code: country.optional(),
} satisfies PostalAddressShape<z.ZodType>;

/** The claims about the person, as OpenID Connect and the Identity Assurance claims define them. */
export const verifiedPersonClaims = z.looseObject({
  name: text.optional(),
  given_name: text.optional(),
  middle_name: text.optional(),
  family_name: text.optional(),
  birthdate: date.optional(),
  place_of_birth: z
    .looseObject({ country: country.optional(), region: text.optional(), locality: text.optional() })
    .refine(notEmpty, 'must hold at least one of country, region, locality')
    .optional(),
  nationalities: z
    .array(country, { error: 'must be a list of country codes' })
    .min(1, 'must list at least one country')
    .refine((codes) => new Set(codes.map((code) => code.toUpperCase())).size === codes.length, 'must not repeat a country')
    .optional(),
  address: z.looseObject(addressParts).refine(notEmpty, 'must hold at least one part').optional(),
  birth_family_name: text.optional(),
  birth_given_name: text.optional(),
  birth_middle_name: text.optional(),
  salutation: text.optional(),
  title: text.optional(),
  msisdn: text.regex(PHONE_NUMBER_RULES.msisdn.pattern, PHONE_NUMBER_RULES.msisdn.refusal).optional(),
  also_known_as: text.optional(),
  gender: text.optional(),
  email: text.optional(),
  phone_number: text.optional(),
});

const checkDetails = z
  .array(
    z.looseObject({
      check_method: text.min(1, 'must name the check'),
      organization: text.optional(),
      check_id: text.optional(),
      time: time.optional(),
    }),
    { error: 'must be a list of checks' },
  )
  .min(1, 'must list at least one check');

const attachments = z
  .array(
    z.union(
      [
        z.looseObject({
          content_type: text.regex(/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/),
          content: text.regex(BASE64),
          desc: text.optional(),
          type: text.optional(),
        }),
        z.looseObject({
          url: z.url(),
          digest: z.looseObject({ alg: text, value: text.regex(BASE64) }),
          access_token: text.nullable().optional(),
          exp: z.number().optional(),
          desc: text.optional(),
          type: text.optional(),
        }),
      ],
      { error: 'each attachment must be embedded (content_type, content) or external (url, digest)' },
    ),
  )
  .min(1);

const derivedClaims = verifiedPersonClaims.refine(notEmpty, 'must not be empty');

/** Who issued a document or holds a record: a name, an address and a jurisdiction (OpenID Identity Assurance). */
const issuingBody = () => z.looseObject({ name: text.optional(), ...addressParts, jurisdiction: text.optional() });

/** What every kind of evidence may carry. */
const evidenceCommon = { attachments: attachments.optional(), derived_claims: derivedClaims.optional() };

const documentEvidence = z.looseObject({
  type: z.literal('document'),
  check_details: checkDetails.optional(),
  document_details: z
    .looseObject({
      type: text.min(1, 'must name the kind of document'),
      document_number: text.optional(),
      serial_number: text.optional(),
      date_of_issuance: date.optional(),
      date_of_expiry: date.optional(),
      issuer: issuingBody().optional(),
    })
    .optional(),
  ...evidenceCommon,
});

const electronicRecordEvidence = z.looseObject({
  type: z.literal('electronic_record'),
  check_details: checkDetails.optional(),
  record: z
    .looseObject({
      type: text.min(1, 'must name the kind of record'),
      created_at: time.optional(),
      date_of_expiry: date.optional(),
      source: issuingBody().optional(),
    })
    .optional(),
  ...evidenceCommon,
});

const vouchEvidence = z.looseObject({
  type: z.literal('vouch'),
  check_details: checkDetails.optional(),
  attestation: z
    .looseObject({
      type: text.min(1, 'must name the kind of vouch'),
      reference_number: text.optional(),
      date_of_issuance: date.optional(),
      date_of_expiry: date.optional(),
      voucher: z
        .looseObject({ name: text.optional(), birthdate: date.optional(), ...addressParts, occupation: text.optional(), organization: text.optional() })
        .optional(),
    })
    .optional(),
  ...evidenceCommon,
});

const electronicSignatureEvidence = z.looseObject({
  type: z.literal('electronic_signature'),
  signature_type: text.min(1),
  issuer: text.min(1),
  serial_number: text.min(1),
  created_at: time.optional(),
  ...evidenceCommon,
});

export const EVIDENCE_TYPES = ['document', 'electronic_record', 'vouch', 'electronic_signature'] as const;

const evidence = z.discriminatedUnion('type', [documentEvidence, electronicRecordEvidence, vouchEvidence, electronicSignatureEvidence], {
  error: `each evidence needs a "type": ${EVIDENCE_TYPES.join(', ')}`,
});

export const verification = z.looseObject({
  trust_framework: text.min(1, 'must name the trust framework'),
  assurance_level: text.optional(),
  assurance_process: z
    .looseObject({
      policy: text.optional(),
      procedure: text.optional(),
      assurance_details: z
        .array(
          z.looseObject({
            assurance_type: text.optional(),
            assurance_classification: text.optional(),
            evidence_ref: z
              .array(z.looseObject({ check_id: text, evidence_metadata: z.looseObject({ evidence_classification: text.optional() }).optional() }))
              .min(1)
              .optional(),
          }),
        )
        .min(1)
        .optional(),
    })
    .optional(),
  time: time.optional(),
  verification_process: text.optional(),
  evidence: z.array(evidence, { error: 'must be a list of evidence' }).min(1, 'must list at least one evidence').optional(),
});

/** One `verified_claims` element: exactly `verification` and `claims`, as the standard defines it. */
export const verifiedClaimsElement = z.strictObject(
  {
    verification,
    claims: verifiedPersonClaims,
  },
  { error: 'must be an object with "verification" and "claims"' },
);

export type VerifiedClaimsElement = z.infer<typeof verifiedClaimsElement>;
export type Verification = z.infer<typeof verification>;

/** The first problem of a value that is not a valid element, in words naming where it is. */
export function verifiedClaimsProblem(value: unknown, at = 'verified_claims'): string | undefined {
  const parsed = verifiedClaimsElement.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const path = [at, ...issue.path.map(String)].join('.');
  const message = issue.code === 'unrecognized_keys' ? `has members the standard does not define: ${issue.keys.join(', ')}` : issue.message;
  return `"${path}" ${message}`;
}

/** Refuses a claim's data whose `verified_claims` member is not one element of the standard's shape. */
export function assertVerifiedClaimsData(data: Record<string, unknown>): void {
  if (!(VERIFIED_DATA_MEMBER in data)) return;
  const problem = verifiedClaimsProblem(data[VERIFIED_DATA_MEMBER], `data.${VERIFIED_DATA_MEMBER}`);
  if (problem) throw refuse('claim_verified_claims_invalid', `${problem} (OpenID Identity Assurance, verified_claims)`);
}
