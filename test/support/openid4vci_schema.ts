// JSON Schemas written from the specifications' text, for what Signet says to wallets and
// verifiers: OpenID for Verifiable Credential Issuance 1.0 (the credential offer, §4.1.1; the
// nonce response, §7.2; the credential response and its errors, §8.3 and §8.3.1; the credential
// issuer metadata, §12.2.4, with the SD-JWT VC configuration of Appendix A.3), SD-JWT VC (the
// issuer-signed payload, §3.2.2; type metadata, §6), and the IETF Token Status List (the status
// list token's header and payload, §5.1, and a referenced token's `status`, §6.1).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const string = { type: 'string', minLength: 1 };
const uri = { type: 'string', format: 'uri' };
const strings = { type: 'array', items: string, minItems: 1 };
const display = { type: 'array', items: { type: 'object', required: ['name'], properties: { name: string, locale: string } } };
const claimPath = { type: 'array', minItems: 1, items: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }, { type: 'null' }] } };
const numericDate = { type: 'number' };
/** "When the condition holds, the rule must": JSON Schema's if/then, spelt as a disjunction. */
const onlyIf = (condition: object, rule: object) => ({ anyOf: [{ not: condition }, rule] });

const schema = {
  $id: 'https://signet.test/openid4vci',
  $defs: {
    credential_offer: {
      type: 'object',
      required: ['credential_issuer', 'credential_configuration_ids'],
      properties: {
        credential_issuer: uri,
        credential_configuration_ids: { ...strings, uniqueItems: true },
        grants: {
          type: 'object',
          properties: {
            authorization_code: { type: 'object', properties: { issuer_state: string, authorization_server: uri } },
            'urn:ietf:params:oauth:grant-type:pre-authorized_code': {
              type: 'object',
              required: ['pre-authorized_code'],
              properties: {
                'pre-authorized_code': string,
                tx_code: {
                  type: 'object',
                  properties: {
                    input_mode: { enum: ['numeric', 'text'] },
                    length: { type: 'integer', minimum: 1 },
                    description: { type: 'string', maxLength: 300 },
                  },
                },
                authorization_server: uri,
              },
            },
          },
        },
      },
    },
    nonce_response: { type: 'object', required: ['c_nonce'], properties: { c_nonce: string } },
    credential_response: {
      type: 'object',
      oneOf: [{ required: ['credentials'] }, { required: ['transaction_id'] }],
      properties: {
        credentials: { type: 'array', minItems: 1, items: { type: 'object', required: ['credential'], properties: { credential: string } } },
        transaction_id: string,
        interval: { type: 'integer', minimum: 1 },
        notification_id: string,
      },
    },
    credential_error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          enum: [
            'invalid_credential_request',
            'unknown_credential_configuration',
            'unknown_credential_identifier',
            'invalid_proof',
            'invalid_nonce',
            'invalid_encryption_parameters',
            'credential_request_denied',
            // RFC 6750 for the access token (§8.3.1 refers to it).
            'invalid_token',
            'invalid_request',
            'insufficient_scope',
            'invalid_dpop_proof',
            'use_dpop_nonce',
          ],
        },
        error_description: { type: 'string' },
      },
    },
    issuer_metadata: {
      type: 'object',
      required: ['credential_issuer', 'credential_endpoint', 'credential_configurations_supported'],
      properties: {
        credential_issuer: uri,
        authorization_servers: { type: 'array', items: uri, minItems: 1 },
        credential_endpoint: uri,
        nonce_endpoint: uri,
        deferred_credential_endpoint: uri,
        notification_endpoint: uri,
        batch_credential_issuance: { type: 'object', required: ['batch_size'], properties: { batch_size: { type: 'integer', minimum: 2 } } },
        display,
        credential_configurations_supported: {
          type: 'object',
          minProperties: 1,
          additionalProperties: {
            type: 'object',
            required: ['format'],
            properties: {
              format: string,
              scope: string,
              credential_signing_alg_values_supported: { type: 'array', items: { anyOf: [string, { type: 'integer' }] }, minItems: 1 },
              cryptographic_binding_methods_supported: strings,
              proof_types_supported: {
                type: 'object',
                minProperties: 1,
                additionalProperties: {
                  type: 'object',
                  required: ['proof_signing_alg_values_supported'],
                  properties: { proof_signing_alg_values_supported: strings },
                },
              },
              credential_metadata: {
                type: 'object',
                properties: {
                  display,
                  claims: {
                    type: 'array',
                    items: { type: 'object', required: ['path'], properties: { path: claimPath, mandatory: { type: 'boolean' }, display } },
                  },
                },
              },
              vct: string,
            },
            allOf: [
              // proof_types_supported: REQUIRED when cryptographic_binding_methods_supported is present.
              onlyIf({ required: ['cryptographic_binding_methods_supported'] }, { required: ['proof_types_supported'] }),
              // Appendix A.3: an SD-JWT VC configuration names its type.
              onlyIf({ properties: { format: { const: 'dc+sd-jwt' } } }, { required: ['vct'] }),
            ],
          },
        },
      },
    },
    sd_jwt_vc_payload: {
      type: 'object',
      required: ['vct'],
      properties: {
        iss: uri,
        vct: string,
        iat: numericDate,
        nbf: numericDate,
        exp: numericDate,
        cnf: { type: 'object', required: ['jwk'], properties: { jwk: { type: 'object', required: ['kty'] } } },
        status: { $ref: '#/$defs/referenced_status' },
        _sd_alg: { const: 'sha-256' },
        _sd: { type: 'array', items: string },
      },
    },
    referenced_status: {
      type: 'object',
      required: ['status_list'],
      properties: { status_list: { type: 'object', required: ['idx', 'uri'], properties: { idx: { type: 'integer', minimum: 0 }, uri } } },
    },
    type_metadata: {
      type: 'object',
      required: ['vct'],
      properties: {
        vct: string,
        name: string,
        description: string,
        display: { type: 'array', items: { type: 'object', required: ['locale', 'name'], properties: { locale: string, name: string } } },
        claims: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path'],
            properties: { path: claimPath, display: { type: 'array' }, sd: { enum: ['always', 'allowed', 'never'] } },
          },
        },
      },
    },
    status_list_header: { type: 'object', required: ['typ', 'alg'], properties: { typ: { const: 'statuslist+jwt' }, alg: string, kid: string } },
    status_list_payload: {
      type: 'object',
      required: ['sub', 'iat', 'status_list'],
      properties: {
        sub: uri,
        iat: numericDate,
        exp: numericDate,
        ttl: { type: 'number', exclusiveMinimum: 0 },
        status_list: {
          type: 'object',
          required: ['bits', 'lst'],
          properties: { bits: { enum: [1, 2, 4, 8] }, lst: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' }, aggregation_uri: uri },
        },
      },
    },
  },
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(schema);

export type Openid4vciDocument = keyof (typeof schema)['$defs'];

/** Throws unless `value` is a `kind` as the specification's text defines it. */
export function assertOpenid4vci(kind: Openid4vciDocument, value: unknown): void {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${kind}`)!;
  if (!validate(value)) throw new Error(`not a valid ${kind}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(value, null, 2)}`);
}
