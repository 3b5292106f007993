// The checks a relying party would run on what Signet releases, written for the tests from
// the texts of OpenID Identity Assurance Schema Definition 1.0 (the `verified_claims` element)
// and OpenID Connect for Identity Assurance 1.0 (its OP metadata) as JSON Schema 2020-12,
// independently of Signet's own zod schema (src/domain/verified_claims/verified_claims_schema.ts), so that a
// mistake in one is not carried into the other.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** `YYYY-MM-DDThh:mm[:ss]TZD` */
const TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$';
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const COUNTRY = '^[A-Za-z]{2,3}$';

const string = { type: 'string' };
/** "if `condition` then `rule`", written as "not `condition`, or `rule`". */
const onlyIf = (condition: object, rule: object) => ({ anyOf: [{ not: condition }, rule] });
const time = { type: 'string', pattern: TIME };
const date = { type: 'string', pattern: DATE };
const addressParts = {
  formatted: string,
  street_address: string,
  locality: string,
  region: string,
  postal_code: string,
  country: string,
  country_code: { type: 'string', pattern: COUNTRY },
};

const schema = {
  $id: 'https://signet.test/identity-assurance.json',
  $defs: {
    claims: {
      type: 'object',
      properties: {
        name: string,
        given_name: string,
        middle_name: string,
        family_name: string,
        birthdate: date,
        place_of_birth: {
          type: 'object',
          properties: { country: { type: 'string', pattern: COUNTRY }, region: string, locality: string },
          minProperties: 1,
        },
        nationalities: { type: 'array', items: { type: 'string', pattern: COUNTRY }, minItems: 1, uniqueItems: true },
        address: { type: 'object', properties: addressParts, minProperties: 1 },
        birth_family_name: string,
        birth_given_name: string,
        birth_middle_name: string,
        salutation: string,
        title: string,
        also_known_as: string,
        msisdn: { type: 'string', pattern: '^\\+?[0-9]{5,15}$' },
      },
    },
    check_details: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['check_method'], properties: { check_method: string, organization: string, check_id: string, time } },
    },
    evidence: {
      type: 'object',
      required: ['type'],
      properties: { type: { enum: ['document', 'electronic_record', 'vouch', 'electronic_signature'] } },
      allOf: [
        onlyIf(
          { properties: { type: { const: 'document' } } },
          {
            properties: {
              check_details: { $ref: '#/$defs/check_details' },
              document_details: {
                type: 'object',
                required: ['type'],
                properties: {
                  type: string,
                  document_number: string,
                  serial_number: string,
                  date_of_issuance: date,
                  date_of_expiry: date,
                  issuer: { type: 'object', properties: { name: string, jurisdiction: string, ...addressParts } },
                },
              },
              derived_claims: { $ref: '#/$defs/claims', minProperties: 1 },
            },
          },
        ),
        onlyIf(
          { properties: { type: { const: 'electronic_record' } } },
          {
            properties: {
              check_details: { $ref: '#/$defs/check_details' },
              record: {
                type: 'object',
                required: ['type'],
                properties: {
                  type: string,
                  created_at: time,
                  date_of_expiry: date,
                  source: { type: 'object', properties: { name: string, jurisdiction: string, ...addressParts } },
                },
              },
              derived_claims: { $ref: '#/$defs/claims', minProperties: 1 },
            },
          },
        ),
        onlyIf(
          { properties: { type: { const: 'vouch' } } },
          {
            properties: {
              check_details: { $ref: '#/$defs/check_details' },
              attestation: { type: 'object', required: ['type'], properties: { type: string, date_of_issuance: date, date_of_expiry: date } },
            },
          },
        ),
        onlyIf(
          { properties: { type: { const: 'electronic_signature' } } },
          {
            required: ['signature_type', 'issuer', 'serial_number'],
            properties: { signature_type: string, issuer: string, serial_number: string, created_at: time },
          },
        ),
      ],
    },
    element: {
      type: 'object',
      required: ['verification', 'claims'],
      additionalProperties: false,
      properties: {
        claims: { $ref: '#/$defs/claims' },
        verification: {
          type: 'object',
          required: ['trust_framework'],
          properties: {
            trust_framework: string,
            assurance_level: string,
            assurance_process: { type: 'object' },
            time,
            verification_process: string,
            evidence: { type: 'array', minItems: 1, items: { $ref: '#/$defs/evidence' } },
          },
        },
      },
    },
    verified_claims: { anyOf: [{ $ref: '#/$defs/element' }, { type: 'array', items: { $ref: '#/$defs/element' } }] },
    metadata: {
      type: 'object',
      required: [
        'trust_frameworks_supported',
        'claims_in_verified_claims_supported',
        'evidence_supported',
        'verified_claims_supported',
        'claims_parameter_supported',
      ],
      properties: {
        verified_claims_supported: { const: true },
        claims_parameter_supported: { const: true },
        trust_frameworks_supported: { type: 'array', items: string, minItems: 1 },
        claims_in_verified_claims_supported: { type: 'array', items: string, minItems: 1 },
        evidence_supported: { type: 'array', items: { enum: ['document', 'electronic_record', 'vouch', 'electronic_signature'] }, minItems: 1 },
        documents_supported: { type: 'array', items: string, minItems: 1 },
        electronic_records_supported: { type: 'array', items: string, minItems: 1 },
      },
      allOf: [
        onlyIf({ properties: { evidence_supported: { contains: { const: 'document' } } } }, { required: ['documents_supported'] }),
        onlyIf({ properties: { evidence_supported: { contains: { const: 'electronic_record' } } } }, { required: ['electronic_records_supported'] }),
      ],
    },
  },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(schema);

function check(ref: string, value: unknown): void {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${ref}`)!;
  if (!validate(value)) throw new Error(`not a valid ${ref}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value, null, 2)}`);
}

/** Throws unless `value` is a `verified_claims` claim as the standard defines it. */
export function assertVerifiedClaims(value: unknown): void {
  check('verified_claims', value);
}

/** Throws unless discovery says what the standard requires of an OP releasing verified claims. */
export function assertIdentityAssuranceMetadata(discovery: Record<string, unknown>): void {
  check('metadata', discovery);
}
