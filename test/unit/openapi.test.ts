// The OpenAPI check used by the API tests can fail: undocumented operations and statuses,
// and bodies off their schema, are refused.
import { assertMatchesOpenApi } from '../support/openapi_validator.js';

const grant = {
  id: 'abcdefgh12345678',
  kind: 'immediate',
  status: 'active',
  identity: '0xBB150442CC8D54b7D71E11F16A3d6a7061efbfBb',
  service: 'analytics',
  resource: '/identities/0xBB150442CC8D54b7D71E11F16A3d6a7061efbfBb/profile',
  fields: ['email'],
  challenge: 'text',
  created_at: '2026-11-22T00:00:00.000Z',
  expires_at: '2026-11-22T00:05:00.000Z',
};

test('a documented answer passes', () => {
  expect(() => assertMatchesOpenApi('GET', '/access-grants/abcdefgh12345678', 200, grant)).not.toThrow();
  expect(() =>
    assertMatchesOpenApi('GET', '/access-grants/x', 404, { error: 'not_found', error_description: 'no access grant x' }),
  ).not.toThrow();
});

test('every operation with a body documents the whole-body refusals (413, 415)', () => {
  const refusal = { error: 'payload_too_large', error_description: 'the request body is larger than 16384 bytes', reason: 'body_too_large' };
  expect(() => assertMatchesOpenApi('POST', '/access-grants/x/validations', 413, refusal)).not.toThrow();
  expect(() =>
    assertMatchesOpenApi('POST', '/access-grants/x/validations', 415, { error: 'unsupported_media_type', error_description: 'x', reason: 'content_encoding_unsupported' }),
  ).not.toThrow();
});

test('a body off its schema, an undocumented status or operation fails', () => {
  expect(() => assertMatchesOpenApi('GET', '/access-grants/x', 200, { ...grant, secret: 1 })).toThrow(
    /GET \/access-grants\/x 200 does not match \/openapi.json: data must NOT have additional properties/,
  );
  expect(() => assertMatchesOpenApi('GET', '/access-grants/x', 200, { ...grant, status: 'paused' })).toThrow(/does not match/);
  expect(() => assertMatchesOpenApi('GET', '/access-grants/x', 418, {})).toThrow(
    'GET /access-grants/{id} answered 418, which /openapi.json does not document',
  );
  expect(() => assertMatchesOpenApi('PUT', '/access-grants/x', 200, {})).toThrow('PUT /access-grants/{id} is not in /openapi.json');
  expect(() => assertMatchesOpenApi('GET', '/nowhere', 200, {})).toThrow('GET /nowhere is not in /openapi.json');
  expect(() => assertMatchesOpenApi('GET', '/access-grants/x', 404, { error: 'oops', error_description: 'x' })).toThrow(/does not match/);
});
