// Property-based: malformed input of every kind (over-limit, chunked, compressed, other content
// types, invalid UTF-8, broken JSON, deep nesting, huge strings, too many form fields, wrong
// types) thrown at every JSON and form route and the engine's endpoints of one real Signet.
// Every answer is the exact refusal, in Signet's error shape with its reason, fast, with no
// stack trace, and Redis holds exactly the same keys before and after.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { BODY_LIMITS } from '../../src/http/body.js';
import { INPUT_REFUSAL_MS } from '../support/bounds.js';
import { type InputTargets, startInputTargets, type Target } from '../support/input_targets.js';
import { type RawAnswer, type RawRequest, rawRequest } from '../support/raw_request.js';

let t: InputTargets;

beforeAll(async () => {
  t = await startInputTargets();
}, 60_000);

afterAll(async () => {
  await t.close();
});

const RUNS = 30;
const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+|Error: /;

const mediaTypeOf = (target: Target) => (target.kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded');
const limitsOf = (target: Target) =>
  target.path.startsWith('/interaction/') || target.path === '/demo/wallet'
    ? BODY_LIMITS.interaction
    : target.path.startsWith('/admin/claims')
      ? BODY_LIMITS.admin
      : BODY_LIMITS.api;

const allTargets = () => t.targets;
const signetTargets = () => t.targets.filter((target) => target.kind !== 'engine');
const jsonTargets = () => t.targets.filter((target) => target.kind === 'json');
const schemaTargets = () => t.targets.filter((target) => target.fields.length > 0);
const formTargets = () => t.targets.filter((target) => target.kind === 'form');

/** Sends one request to the target; checks the answer is a fast refusal that changed nothing. */
async function refusedBy(target: Target, request: RawRequest, status: number, reason: string): Promise<RawAnswer> {
  const before = await t.redisKeys();
  const started = performance.now();
  const answer = await rawRequest(`${t.h.issuer}${target.path}`, {
    method: target.method,
    ...request,
    headers: { accept: 'application/json', ...target.headers, ...request.headers },
  });
  const ms = performance.now() - started;
  const context = `${target.method} ${target.path} answered ${answer.status} ${answer.text.slice(0, 300)}`;
  expect({ context, status: answer.status }).toEqual({ context, status });
  expect(answer.json).toEqual({ error: expect.any(String), error_description: expect.any(String), reason });
  expect(answer.text).not.toMatch(STACK_TRACE);
  expect(ms).toBeLessThan(INPUT_REFUSAL_MS);
  expect(await t.redisKeys()).toEqual(before);
  return answer;
}

const target = (pick: () => Target[]) => fc.constantFrom(...pick());
const filler = (size: number) => 'x'.repeat(size);
/** A body of the target's own type, `size` bytes long. */
const bodyOfType = (target: Target, size: number) =>
  target.kind === 'json' ? `{"v":"${filler(Math.max(0, size - 8))}"}` : `v=${filler(Math.max(0, size - 2))}`;

test('over the route class limit, with Content-Length: 413 body_too_large, engine routes included', async () => {
  await fc.assert(
    fc.asyncProperty(target(allTargets), fc.integer({ min: 1, max: 64 * 1024 }), async (to, extra) => {
      const body = bodyOfType(to, to.bytes + extra);
      await refusedBy(to, { headers: { 'content-type': mediaTypeOf(to) }, body }, 413, 'body_too_large');
    }),
    { numRuns: RUNS },
  );
});

test('over the limit, chunked (no Content-Length): 413 body_too_large, engine routes included', async () => {
  await fc.assert(
    fc.asyncProperty(target(allTargets), fc.integer({ min: 1, max: 32 * 1024 }), fc.integer({ min: 512, max: 16 * 1024 }), async (to, extra, chunkSize) => {
      await refusedBy(to, { headers: { 'content-type': mediaTypeOf(to) }, body: bodyOfType(to, to.bytes + extra), chunkSize }, 413, 'body_too_large');
    }),
    { numRuns: RUNS },
  );
});

const encodings = fc.oneof(
  fc.constantFrom('gzip', 'x-gzip', 'deflate', 'br', 'compress', 'zstd', 'gzip, identity', 'identity, gzip', 'GZIP'),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter((encoding) => encoding !== 'identity'),
);

test('any Content-Encoding but identity, on gzip or plain bytes: 415 content_encoding_unsupported, engine routes included', async () => {
  await fc.assert(
    fc.asyncProperty(target(allTargets), encodings, fc.boolean(), fc.uint8Array({ minLength: 1, maxLength: 2048 }), async (to, encoding, zipped, bytes) => {
      const body = zipped ? gzipSync(bodyOfType(to, 64)) : Buffer.from(bytes);
      await refusedBy(to, { headers: { 'content-type': mediaTypeOf(to), 'content-encoding': encoding }, body }, 415, 'content_encoding_unsupported');
    }),
    { numRuns: RUNS },
  );
});

const otherMediaTypes = fc.oneof(
  fc.constantFrom(
    'text/plain',
    'text/html',
    'application/xml',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
    'application/json-patch',
    'json',
    '*/*',
  ),
  fc.tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.stringMatching(/^[a-z0-9.+-]{1,20}$/)).map(([type, subtype]) => `${type}/${subtype}`),
);

test('a content type the route does not read: 415 content_type_unsupported', async () => {
  await fc.assert(
    fc.asyncProperty(target(signetTargets), fc.oneof(otherMediaTypes, fc.constant('swap')), async (to, mediaType) => {
      // "swap": the other kind Signet reads (a form to a JSON route, JSON to a form route).
      const sent = mediaType === 'swap' ? (to.kind === 'json' ? 'application/x-www-form-urlencoded' : 'application/json') : mediaType;
      fc.pre(sent !== mediaTypeOf(to));
      await refusedBy(to, { headers: { 'content-type': sent }, body: bodyOfType(to, 40) }, 415, 'content_type_unsupported');
    }),
    { numRuns: RUNS * 2 },
  );
});

const notUtf8 = fc.constantFrom([0xff], [0xfe], [0xc0, 0x80], [0x80], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3]);

test('bytes that are not UTF-8, anywhere in the body: 400 invalid_utf8', async () => {
  await fc.assert(
    fc.asyncProperty(target(signetTargets), notUtf8, fc.nat(), async (to, bad, at) => {
      const text = Buffer.from(to.kind === 'json' ? '{"signature":"0x1234","address":"0xabc"}' : 'given_name=Ada&topic=kyc');
      const cut = at % (text.length + 1);
      const body = Buffer.concat([text.subarray(0, cut), Buffer.from(bad), text.subarray(cut)]);
      await refusedBy(to, { headers: { 'content-type': mediaTypeOf(to) }, body }, 400, 'invalid_utf8');
    }),
    { numRuns: RUNS },
  );
});

const notJson = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }),
    fc.jsonValue({ maxDepth: 3 }).chain((value) => {
      const text = JSON.stringify(value);
      return fc.nat({ max: Math.max(0, text.length - 1) }).map((end) => text.slice(0, end));
    }),
  )
  .filter((text) => {
    if (text === '') return false;
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

test('text that is not JSON: 400 invalid_json', async () => {
  await fc.assert(
    fc.asyncProperty(target(jsonTargets), notJson, async (to, text) => {
      await refusedBy(to, { headers: { 'content-type': 'application/json' }, body: text }, 400, 'invalid_json');
    }),
    { numRuns: RUNS * 2 },
  );
});

test('nesting past the route class depth, up to thousands of levels: 400 json_too_deep', async () => {
  await fc.assert(
    fc.asyncProperty(
      target(jsonTargets),
      fc.integer({ min: 1, max: 2500 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
      async (to, extra, kinds) => {
        const depth = limitsOf(to).depth + extra;
        const levels = Array.from({ length: depth }, (_, i) => kinds[i % kinds.length]);
        const body = `${levels.map((array) => (array ? '[' : '{"k":')).join('')}1${levels
          .reverse()
          .map((array) => (array ? ']' : '}'))
          .join('')}`;
        await refusedBy(to, { headers: { 'content-type': 'application/json' }, body }, 400, 'json_too_deep');
      },
    ),
    { numRuns: RUNS },
  );
});

test('a string (value or key) longer than the route class allows: 400 string_too_long', async () => {
  await fc.assert(
    fc.asyncProperty(target(jsonTargets), fc.integer({ min: 1, max: 4096 }), fc.boolean(), async (to, extra, asKey) => {
      const long = filler(limitsOf(to).stringLength + extra);
      const field = to.fields[0] ?? 'v';
      const body = asKey ? `{"${long}":1}` : `{"${field}":"${long}"}`;
      fc.pre(Buffer.byteLength(body) <= to.bytes);
      await refusedBy(to, { headers: { 'content-type': 'application/json' }, body }, 400, 'string_too_long');
    }),
    { numRuns: RUNS },
  );
});

test('forms: too many fields is 400 form_too_many_fields, a value or name too long is 400 string_too_long', async () => {
  await fc.assert(
    fc.asyncProperty(target(formTargets), fc.integer({ min: 1, max: 300 }), fc.boolean(), async (to, extra, tooMany) => {
      if (tooMany) {
        const body = Array.from({ length: BODY_LIMITS.form.fields + extra }, (_, i) => `f${i}=v`).join('&');
        await refusedBy(to, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, 400, 'form_too_many_fields');
      } else {
        const body = `given_name=${filler(BODY_LIMITS.form.stringLength + extra)}`;
        await refusedBy(to, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }, 400, 'string_too_long');
      }
    }),
    { numRuns: RUNS },
  );
});

const notAnObject = fc.jsonValue({ maxDepth: 3 }).filter((value) => value === null || typeof value !== 'object' || Array.isArray(value));

test('JSON that is not an object, on every route with a body schema: 400 invalid_body', async () => {
  await fc.assert(
    fc.asyncProperty(target(schemaTargets), notAnObject, async (to, value) => {
      await refusedBy(to, { headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) }, 400, 'invalid_body');
    }),
    { numRuns: RUNS * 2 },
  );
});

// Never a string, list or object: the wrong type for every field of every schema.
const wrongType = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));

test('a known field of the wrong type, among arbitrary extra fields: 400 invalid_body', async () => {
  await fc.assert(
    fc.asyncProperty(
      target(schemaTargets),
      fc.nat(),
      wrongType,
      fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
      async (to, pick, wrong, extra) => {
        const field = to.fields[pick % to.fields.length]!;
        const body = JSON.stringify({ ...extra, [field]: wrong });
        await refusedBy(to, { headers: { 'content-type': 'application/json' }, body }, 400, 'invalid_body');
      },
    ),
    { numRuns: RUNS * 2 },
  );
});

test("the engine's /token, given arbitrary bytes as a form: the engine's 4xx, never a 5xx or a trace, nothing stored", async () => {
  const token = t.targets.find((candidate) => candidate.path === '/token')!;
  await fc.assert(
    fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) => {
      const before = await t.redisKeys();
      const answer = await rawRequest(`${t.h.issuer}/token`, {
        headers: { ...token.headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(bytes),
      });
      expect([400, 401]).toContain(answer.status);
      // The engine's own error, with its OAuth error code as the reason.
      expect(answer.json).toEqual({ error: expect.any(String), error_description: expect.any(String), reason: (answer.json as { error: string }).error });
      expect(answer.text).not.toMatch(STACK_TRACE);
      expect(await t.redisKeys()).toEqual(before);
    }),
    { numRuns: RUNS },
  );
});
