// Every route of the table runs the same steps in the same order: cache rule, bounded body
// read, the query's shape (each parameter once), caller check, rate limits, input checks, handler. Each refusal names its reason, and
// a refused request never reaches the steps after it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { refuse } from '../../../src/base/errors.js';
import type { Authenticator } from '../../../src/http/authenticators.js';
import { errorHandler } from '../../../src/http/error_handler.js';
import { mountRoutes } from '../../../src/http/mount_routes.js';
import { route } from '../../../src/http/route.js';
import { addressField } from '../../../src/http/schemas.js';
import { silentLogger } from '../../../src/infra/observability/logger.js';

const steps: string[] = [];
const caller: Authenticator<{ who: string }> = {
  kind: 'api_key',
  refusals: ['api_key_invalid'],
  async authenticate(ctx) {
    steps.push('auth');
    if (ctx.get('x-api-key') !== 'good') throw refuse('api_key_invalid', 'no key');
    return { who: 'service-a' };
  },
};
const limits = {
  async consumeAll(counts: readonly (readonly [string, string])[]) {
    for (const [limit, who] of counts) {
      steps.push(`limit ${limit} ${who}`);
      if (who === 'service-b') throw refuse('rate_limited', 'too many', { retryAfterSeconds: 3 });
    }
  },
};
const things = route({
  method: 'post',
  path: '/things/{owner}',
  summary: 'Make a thing',
  tag: 'Test',
  auth: caller,
  params: z.object({ owner: addressField }),
  query: z.object({ n: z.coerce.number().int().min(1).default(1) }),
  body: z.object({ name: z.string({ error: 'is required' }) }),
  rateLimits: [{ limit: 'accessRequestsPerService', key: (who) => who.who }],
  responses: { 201: { description: 'Made', schema: z.object({ owner: z.string(), n: z.number(), name: z.string() }) } },
  async handle({ params, query, body }) {
    steps.push('handler');
    return { headers: { Location: `/things/${params.owner}` }, body: { owner: params.owner, n: query.n, name: body.name } };
  },
});

let server: Server;
let base: string;
beforeAll(async () => {
  const app = new Koa();
  app.use(errorHandler(() => {}, silentLogger));
  const router = mountRoutes(
    [
      things,
      { ...things, path: '/limited/{owner}', rateLimits: [{ limit: 'accessRequestsPerService', key: () => 'service-b' }] },
      { ...things, path: '/public/{owner}', cache: { publicMaxAgeSeconds: 60 } },
    ],
    limits,
  );
  app.use(router.routes());
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  steps.length = 0;
});

const OWNER = '0xbb150442cc8d54b7d71e11f16a3d6a7061efbfbb';
async function post(path: string, body: string, headers: Record<string, string> = { 'x-api-key': 'good', 'content-type': 'application/json' }) {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  return { status: response.status, cache: response.headers.get('cache-control'), location: response.headers.get('location'), json: await response.json() };
}

test('a request that passes every step reaches the handler once, with checked and converted inputs', async () => {
  const answer = await post(`/things/${OWNER}?n=3`, JSON.stringify({ name: 'x' }));
  expect(answer).toEqual({
    status: 201,
    cache: 'no-store',
    location: '/things/0xBB150442CC8D54b7D71E11F16A3d6a7061efbfBb',
    json: { owner: '0xBB150442CC8D54b7D71E11F16A3d6a7061efbfBb', n: 3, name: 'x' },
  });
  expect(steps).toEqual(['auth', 'limit accessRequestsPerService service-a', 'handler']);
});

test('the body is read, bounded, before anyone is asked who calls', async () => {
  const answer = await post(`/things/${OWNER}`, '{"name":', { 'content-type': 'application/json' });
  expect(answer).toMatchObject({ status: 400, cache: 'no-store', json: { error: 'invalid_request', reason: 'invalid_json' } });
  expect(steps).toEqual([]);
  const tooLarge = await post(`/things/${OWNER}`, JSON.stringify({ name: 'x'.repeat(20_000) }));
  expect(tooLarge).toMatchObject({ status: 413, json: { reason: 'body_too_large' } });
  expect(steps).toEqual([]);
});

test('the caller check comes before the limits and the input checks', async () => {
  expect(await post('/things/not-an-address', '{}', { 'content-type': 'application/json' })).toMatchObject({
    status: 401,
    json: { reason: 'api_key_invalid' },
  });
  expect(steps).toEqual(['auth']);
});

test('a limit refuses before the inputs are checked or the handler runs', async () => {
  expect(await post('/limited/not-an-address', '{}')).toMatchObject({ status: 429, json: { reason: 'rate_limited' } });
  expect(steps).toEqual(['auth', 'limit accessRequestsPerService service-b']);
});

test('path, query and body checks name their part and field', async () => {
  expect(await post('/things/not-an-address', JSON.stringify({ name: 'x' }))).toMatchObject({
    status: 400,
    json: { reason: 'invalid_path', error_description: '"owner" in the path must be a 0x-prefixed 20-byte address' },
  });
  expect(await post(`/things/${OWNER}?n=0`, JSON.stringify({ name: 'x' }))).toMatchObject({ status: 400, json: { reason: 'invalid_query' } });
  expect(await post(`/things/${OWNER}`, JSON.stringify({}))).toMatchObject({
    status: 400,
    json: { reason: 'invalid_body', error_description: '"name" is required' },
  });
  expect(steps.filter((step) => step === 'handler')).toEqual([]);
});

test('a query parameter sent twice or in a list form is refused after the body read, before anyone is asked who calls', async () => {
  const cases: [string, string][] = [
    ['n=1&n=2', 'the query parameter "n" appears more than once: send it once'],
    ['n[]=1', 'the query parameter "n[]" is in a list form: send each parameter once, by its plain name'],
    ['n%5B%5D=1', 'the query parameter "n[]" is in a list form: send each parameter once, by its plain name'],
    ['n[a]=1', 'the query parameter "n[a]" is in a list form: send each parameter once, by its plain name'],
    // A name the schema does not read is refused as well: it would otherwise be dropped unseen.
    ['x=1&x=', 'the query parameter "x" appears more than once: send it once'],
  ];
  for (const [query, sentence] of cases) {
    steps.length = 0;
    expect(await post(`/things/${OWNER}?${query}`, JSON.stringify({ name: 'x' }), { 'content-type': 'application/json' })).toEqual({
      status: 400,
      cache: 'no-store',
      location: null,
      json: { error: 'invalid_request', error_description: sentence, reason: 'query_parameter_repeated' },
    });
    expect(steps).toEqual([]);
  }
  // The body read still comes first; a long name is shown cut.
  expect(await post(`/things/${OWNER}?n=1&n=2`, '{"name":', { 'content-type': 'application/json' })).toMatchObject({ json: { reason: 'invalid_json' } });
  const long = 'y'.repeat(100);
  expect((await post(`/things/${OWNER}?${long}=1&${long}=2`, '{}')).json.error_description).toBe(
    `the query parameter "${'y'.repeat(64)}…" appears more than once: send it once`,
  );
  // Each parameter once, unknown ones included, still passes.
  steps.length = 0;
  expect(await post(`/things/${OWNER}?n=2&x=1&y=`, JSON.stringify({ name: 'x' }))).toMatchObject({ status: 201, json: { n: 2 } });
  expect(steps).toEqual(['auth', 'limit accessRequestsPerService service-a', 'handler']);
});

test('a route with a public max-age sends it on its successes only: every refusal is no-store', async () => {
  expect(await post(`/public/${OWNER}`, JSON.stringify({ name: 'x' }))).toMatchObject({ status: 201, cache: 'public, max-age=60' });
  const refusals = [
    [await post('/public/not-an-address', JSON.stringify({ name: 'x' })), 'invalid_path'],
    [await post(`/public/${OWNER}`, JSON.stringify({ name: 'x' }), { 'content-type': 'application/json' }), 'api_key_invalid'],
    [await post(`/public/${OWNER}`, '{"name":'), 'invalid_json'],
  ] as const;
  for (const [answer, reason] of refusals) expect({ cache: answer.cache, reason: answer.json.reason }).toEqual({ cache: 'no-store', reason });
});
