// Each named way bad input used to give 500, sent for real to a Signet on real Redis and
// anvil: over-limit bodies (exactly at and one byte past the limit), compressed bodies, other
// content types, a 57 KB form, deeply nested claim data, and the engine's own endpoints.
import { gzipSync } from 'node:zlib';
import { BODY_LIMITS } from '../../src/http/body.js';
import { INPUT_REFUSAL_MS } from '../support/bounds.js';
import { type InputTargets, startInputTargets } from '../support/input_targets.js';
import { type RawRequest, rawRequest } from '../support/raw_request.js';
import { WEBSITE } from '../support/signet_harness.js';

let t: InputTargets;

beforeAll(async () => {
  t = await startInputTargets();
}, 60_000);

afterAll(async () => {
  await t.close();
});

const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const session = () => ({ cookie: t.ownerCookie, 'x-csrf-token': t.ownerFormToken });
const admin = { authorization: 'Bearer admin-token-for-the-input-tests' };
const basicWebsite = `Basic ${Buffer.from(`${WEBSITE.client_id}:${WEBSITE.client_secret}`).toString('base64')}`;

/** Sends the request and proves Redis holds the same keys afterwards. */
async function refused(path: string, request: RawRequest) {
  const before = await t.redisKeys();
  const started = performance.now();
  const answer = await rawRequest(`${t.h.issuer}${path}`, request);
  const ms = performance.now() - started;
  expect(await t.redisKeys()).toEqual(before);
  expect(answer.text).not.toMatch(/\n\s+at |node_modules/);
  return { ...answer, ms };
}

/** A JSON object of exactly `size` bytes: {"address":"xxxx…"}. */
const jsonOfSize = (size: number) => {
  const frame = '{"address":""}';
  return `{"address":"${'x'.repeat(size - frame.length)}"}`;
};

describe('Signet JSON routes', () => {
  test('a body exactly at the limit is read; one byte more is 413 body_too_large, before any work', async () => {
    const limit = BODY_LIMITS.api.bytes;
    expect(Buffer.byteLength(jsonOfSize(limit))).toBe(limit);
    // At the limit the body is parsed; its one string is then too long for the route class.
    const atLimit = await refused('/account/challenge', { headers: json, body: jsonOfSize(limit) });
    expect(atLimit.status).toBe(400);
    expect(atLimit.json).toEqual({
      error: 'invalid_request',
      error_description: `a string in the request body is longer than ${BODY_LIMITS.api.stringLength} characters`,
      reason: 'string_too_long',
    });

    const over = await refused('/account/challenge', { headers: json, body: jsonOfSize(limit + 1) });
    expect(over.status).toBe(413);
    expect(over.json).toEqual({ error: 'payload_too_large', error_description: `the request body is larger than ${limit} bytes`, reason: 'body_too_large' });
    expect(over.ms).toBeLessThan(INPUT_REFUSAL_MS);
  });

  test('an over-limit body without Content-Length (chunked) is cut at the limit: 413', async () => {
    const over = await refused('/account/challenge', { headers: json, body: jsonOfSize(200 * 1024), chunkSize: 4096 });
    expect(over.status).toBe(413);
    expect(over.json).toMatchObject({ error: 'payload_too_large', reason: 'body_too_large' });
    // Under the limit a chunked body is read whole and reaches the schema.
    const under = await refused('/account/challenge', { headers: json, body: '{"address":42}', chunkSize: 3 });
    expect(under).toMatchObject({ status: 400, json: { error_description: '"address" must be a 0x-prefixed 20-byte address', reason: 'invalid_body' } });
  });

  test('the interaction and admin classes have their own limit (64 KiB)', async () => {
    const limit = BODY_LIMITS.interaction.bytes;
    const answer = await refused('/admin/claims', { headers: { ...json, ...admin }, body: jsonOfSize(limit + 1) });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: 'payload_too_large', error_description: `the request body is larger than ${limit} bytes`, reason: 'body_too_large' });
  });

  test('Content-Encoding: gzip on a plain body, and on a real gzip body, is 415 content_encoding_unsupported', async () => {
    const plain = await refused('/account/challenge', { headers: { ...json, 'content-encoding': 'gzip' }, body: '{"address":"0x00"}' });
    expect(plain.status).toBe(415);
    expect(plain.json).toEqual({
      error: 'unsupported_media_type',
      error_description: 'Content-Encoding "gzip" is not accepted: send the body uncompressed',
      reason: 'content_encoding_unsupported',
    });
    const zipped = await refused('/account/challenge', { headers: { ...json, 'content-encoding': 'gzip' }, body: gzipSync('{"address":"0x00"}') });
    expect(zipped.status).toBe(415);
    expect(zipped.json).toMatchObject({ reason: 'content_encoding_unsupported' });
    const deflate = await refused('/account/challenge', { headers: { ...json, 'content-encoding': 'deflate' }, body: '{}' });
    expect(deflate).toMatchObject({ status: 415, json: { reason: 'content_encoding_unsupported' } });
  });

  test('another content type is 415 content_type_unsupported; another charset is 415 charset_unsupported', async () => {
    const text = await refused('/account/challenge', { headers: { 'content-type': 'text/plain' }, body: '{"address":"0x00"}' });
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ error: 'unsupported_media_type', reason: 'content_type_unsupported' });
    const none = await refused('/account/challenge', { body: '{"address":"0x00"}' });
    expect(none).toMatchObject({ status: 415, json: { reason: 'content_type_unsupported' } });
    const latin1 = await refused('/account/challenge', { headers: { 'content-type': 'application/json; charset=latin1' }, body: '{}' });
    expect(latin1.status).toBe(415);
    expect(latin1.json).toMatchObject({ error: 'unsupported_media_type', reason: 'charset_unsupported' });
  });

  test('malformed JSON is 400 invalid_json; bytes that are not UTF-8 are 400 invalid_utf8', async () => {
    const broken = await refused('/account/challenge', { headers: json, body: '{"address": ' });
    expect(broken.status).toBe(400);
    expect(broken.json).toMatchObject({ error: 'invalid_request', reason: 'invalid_json' });
    const bytes = Buffer.concat([Buffer.from('{"address":"'), Buffer.from([0xc0, 0x80, 0xff]), Buffer.from('"}')]);
    const notUtf8 = await refused('/account/challenge', { headers: json, body: bytes });
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.json).toMatchObject({ error: 'invalid_request', reason: 'invalid_utf8' });
  });

  test('nesting past the route class depth is 400 json_too_deep, 10 000 levels included', async () => {
    for (const depth of [BODY_LIMITS.api.depth + 1, 8000]) {
      const answer = await refused('/account/challenge', { headers: json, body: `${'['.repeat(depth)}${']'.repeat(depth)}` });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        error: 'invalid_request',
        error_description: `the request body nests deeper than ${BODY_LIMITS.api.depth} levels`,
        reason: 'json_too_deep',
      });
    }
  });

  test('a body of the wrong shape is 400 invalid_body naming the field', async () => {
    const answer = await refused('/account/challenge', { headers: json, body: '{"address":42}' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: 'invalid_request', error_description: '"address" must be a 0x-prefixed 20-byte address', reason: 'invalid_body' });
    const nullBody = await refused('/access-grants/some-grant/revocations', { headers: json, body: 'null' });
    expect(nullBody).toMatchObject({ status: 400, json: { error: 'invalid_request', reason: 'invalid_body' } });
  });
});

describe('the account pages forms', () => {
  const fieldsOf = (count: number, length = 4) => Array.from({ length: count }, (_, i) => `f${i}=${'v'.repeat(length)}`).join('&');

  test('a 57 KB form to /account/profile is 413 body_too_large and the profile is unchanged', async () => {
    await t.h.signet.profiles.set(t.identity, { given_name: 'Ada' });
    const body = `given_name=${'A'.repeat(57 * 1024)}`;
    const answer = await refused('/account/profile', { headers: { ...form, ...session() }, body });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({
      error: 'payload_too_large',
      error_description: `the request body is larger than ${BODY_LIMITS.form.bytes} bytes`,
      reason: 'body_too_large',
    });
    expect(await t.h.signet.profiles.get(t.identity)).toEqual({ given_name: 'Ada' });
  });

  test('too many fields, a value too long, gzip, JSON: each refused with its reason', async () => {
    const headers = { ...form, ...session() };
    const many = await refused('/account/profile', { headers, body: fieldsOf(BODY_LIMITS.form.fields + 1) });
    expect(many.status).toBe(400);
    expect(many.json).toEqual({
      error: 'invalid_request',
      error_description: `the form has more than ${BODY_LIMITS.form.fields} fields`,
      reason: 'form_too_many_fields',
    });
    const long = await refused('/account/profile', { headers, body: `given_name=${'A'.repeat(BODY_LIMITS.form.stringLength + 1)}` });
    expect(long).toMatchObject({ status: 400, json: { reason: 'string_too_long' } });
    const zipped = await refused('/account/profile', { headers: { ...headers, 'content-encoding': 'gzip' }, body: gzipSync('given_name=Ada') });
    expect(zipped).toMatchObject({ status: 415, json: { reason: 'content_encoding_unsupported' } });
    const asJson = await refused('/account/profile', { headers: { ...json, ...session() }, body: '{"given_name":"Ada"}' });
    expect(asJson).toMatchObject({
      status: 415,
      json: { error_description: 'send the body as application/x-www-form-urlencoded', reason: 'content_type_unsupported' },
    });
  });

  test('a form within the limits still saves the profile', async () => {
    const saved = await rawRequest(`${t.h.issuer}/account/profile`, { headers: { ...form, ...session() }, body: 'given_name=Grace&family_name=Hopper' });
    expect(saved.status).toBe(302);
    expect(saved.headers.location).toBe('/account/profile?saved=1');
    expect(await t.h.signet.profiles.get(t.identity)).toEqual({ given_name: 'Grace', family_name: 'Hopper' });
  });
});

describe('admin claim data', () => {
  const nested = (depth: number) => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = { a: value };
    return value as Record<string, unknown>;
  };
  const issue = (data: unknown) =>
    refused('/admin/claims', { headers: { ...json, ...admin }, body: JSON.stringify({ identity: t.identity, topic: 'kyc', data }) });

  test('data nested past 8 levels is 400 claim_data_too_deep; far past the body depth, json_too_deep', async () => {
    const deep = await issue(nested(9));
    expect(deep.status).toBe(400);
    expect(deep.json).toEqual({ error: 'invalid_request', error_description: '"data" nests deeper than 8 levels', reason: 'claim_data_too_deep' });
    // Written as text: JSON.stringify itself recurses.
    const deepText = `${'{"a":'.repeat(5000)}"deep"${'}'.repeat(5000)}`;
    const veryDeep = await refused('/admin/claims', {
      headers: { ...json, ...admin },
      body: `{"identity":"${t.identity}","topic":"kyc","data":${deepText}}`,
    });
    expect(veryDeep.status).toBe(400);
    expect(veryDeep.json).toEqual({
      error: 'invalid_request',
      error_description: `the request body nests deeper than ${BODY_LIMITS.admin.depth} levels`,
      reason: 'json_too_deep',
    });
  });

  test('data over 16 KiB as canonical JSON is 400 claim_data_too_large', async () => {
    const data = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'x'.repeat(500)]));
    const answer = await issue(data);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({
      error: 'invalid_request',
      error_description: '"data" is larger than 16384 bytes as canonical JSON',
      reason: 'claim_data_too_large',
    });
  });
});

describe('the engine endpoints', () => {
  const tokenForm = { ...form, authorization: basicWebsite };

  test.each(['/token', '/token/introspection', '/token/revocation', '/auth', '/backchannel'])(
    'POST %s: over the limit is 413, gzip is 415, in Signet shape',
    async (path) => {
      const over = await refused(path, { headers: tokenForm, body: `token=${'x'.repeat(BODY_LIMITS.engine.bytes)}` });
      expect(over.status).toBe(413);
      expect(over.json).toEqual({
        error: 'payload_too_large',
        error_description: `the request body is larger than ${BODY_LIMITS.engine.bytes} bytes`,
        reason: 'body_too_large',
      });
      const zipped = await refused(path, { headers: { ...tokenForm, 'content-encoding': 'gzip' }, body: gzipSync('grant_type=authorization_code') });
      expect(zipped.status).toBe(415);
      expect(zipped.json).toMatchObject({ error: 'unsupported_media_type', reason: 'content_encoding_unsupported' });
    },
  );

  test('a chunked /token body over the limit is 413; a small chunked one reaches the engine intact', async () => {
    const over = await refused('/token', { headers: tokenForm, body: `code=${'x'.repeat(BODY_LIMITS.engine.bytes)}`, chunkSize: 8192 });
    expect(over).toMatchObject({ status: 413, json: { reason: 'body_too_large' } });
    // The engine parsed the parameters (else: "missing required parameter 'grant_type'").
    const small = await refused('/token', {
      headers: tokenForm,
      body: `grant_type=authorization_code&code=not-a-code&redirect_uri=${encodeURIComponent(WEBSITE.redirect_uris[0]!)}&code_verifier=${'v'.repeat(43)}`,
      chunkSize: 16,
    });
    expect(small.status).toBe(400);
    expect(small.json).toEqual({ error: 'invalid_grant', error_description: 'grant request is invalid', reason: 'invalid_grant' });
  });
});
