// /openapi.json is made from the route table: each declaration gives its operation, its
// refusals grouped by status with their reasons, and the answer schemas; and the check the
// harness runs on every answer can fail.
import { z } from 'zod';
import { anyone } from '../../../src/http/authenticators.js';
import { openApiDocumentOf, refusalsOf } from '../../../src/http/openapi.js';
import { route } from '../../../src/http/route.js';
import { addressField, dateTime } from '../../../src/http/schemas.js';
import { openApiValidator } from '../../support/openapi_validator.js';

const thing = z.object({ id: z.string(), at: dateTime }).meta({ id: 'Thing' });
const routes = [
  route({
    method: 'post',
    path: '/things/{owner}',
    summary: 'Make a thing',
    tag: 'Things',
    auth: anyone,
    params: z.object({ owner: addressField }),
    body: z.object({ name: z.string() }),
    rateLimits: [{ limit: 'accessRequestsPerService', key: 'client_address' }],
    responses: { 201: { description: 'Made', schema: thing, headers: { Location: 'The thing' } } },
    refusals: ['grant_not_found'],
    handle: async () => ({}),
  }),
  route({
    method: 'delete',
    path: '/things/{owner}',
    summary: 'Drop',
    tag: 'Things',
    auth: anyone,
    responses: { 204: { description: 'Gone' } },
    handle: async () => ({}),
  }),
  route({
    method: 'post',
    path: '/form',
    summary: 'A form',
    tag: 'Pages',
    auth: anyone,
    undocumented: true,
    responses: { 303: { description: 'Back' } },
    handle: async () => ({}),
  }),
];
// biome-ignore lint/suspicious/noExplicitAny: the test reads into the generated JSON freely.
type Operation = Record<string, any>;
const document = openApiDocumentOf(routes);
const check = openApiValidator(document);
const made = { id: 'a', at: '2026-11-22T00:00:00.000Z' };

test('each declared route is one operation; undocumented ones (forms, pages) are left out', () => {
  expect(Object.keys(document.paths)).toEqual(['/things/{owner}']);
  const operation = document.paths['/things/{owner}']!.post as Operation;
  expect(operation.parameters).toEqual([
    expect.objectContaining({ name: 'owner', in: 'path', required: true, schema: expect.objectContaining({ pattern: '^0x[0-9a-fA-F]{40}$' }) }),
  ]);
  expect(operation.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: ['name'] });
  expect(operation['x-rate-limits']).toEqual(['accessRequestsPerService']);
  expect(operation.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Thing' });
  expect(operation.responses['201'].headers.Location).toBeDefined();
});

test('refusals: the route’s own, its inputs’, its limits’ and the common ones, by status with their reasons', () => {
  const reasons = refusalsOf(routes[0]!);
  expect(reasons).toEqual(expect.arrayContaining(['grant_not_found', 'invalid_path', 'invalid_body', 'rate_limited', 'body_too_large', 'store_unavailable']));
  const responses = (document.paths['/things/{owner}']!.post as Operation).responses;
  expect(Object.keys(responses)).toEqual(['201', '400', '404', '413', '415', '429', '500', '503']);
  expect(responses['404'].content['application/json'].schema.allOf[1].properties.reason.enum).toEqual(['grant_not_found']);
  expect(responses['429'].headers['Retry-After']).toBeDefined();
  expect(refusalsOf(routes[1]!)).not.toContain('invalid_body');
});

test('the answer check passes what the document says, and fails on anything else', () => {
  expect(() => check.assertMatches('POST', '/things/0xabc', 201, made)).not.toThrow();
  expect(() => check.assertMatches('POST', '/things/0xabc', 404, { error: 'not_found', error_description: 'x', reason: 'grant_not_found' })).not.toThrow();
  expect(() => check.assertMatches('DELETE', '/things/0xabc', 204, undefined)).not.toThrow();
  // A reason the route does not declare, a missing reason, an extra field, a wrong type.
  expect(() => check.assertMatches('POST', '/things/0xabc', 404, { error: 'not_found', error_description: 'x', reason: 'claim_not_found' })).toThrow(
    /does not match/,
  );
  expect(() => check.assertMatches('POST', '/things/0xabc', 404, { error: 'not_found', error_description: 'x' })).toThrow(/does not match/);
  expect(() => check.assertMatches('POST', '/things/0xabc', 201, { ...made, secret: 1 })).toThrow(/must NOT have additional properties/);
  expect(() => check.assertMatches('POST', '/things/0xabc', 201, { ...made, at: 'yesterday' })).toThrow(/does not match/);
  expect(() => check.assertMatches('POST', '/things/0xabc', 418, {})).toThrow('POST /things/{owner} answered 418, which /openapi.json does not document');
  expect(() => check.assertMatches('PUT', '/things/0xabc', 200, {})).toThrow('PUT /things/{owner} is not in /openapi.json');
  expect(() => check.assertMatches('GET', '/nowhere', 200, {})).toThrow('GET /nowhere is not in /openapi.json');
  expect(() => check.assertMatches('DELETE', '/things/0xabc', 204, { gone: true })).toThrow('must have no body');
});
