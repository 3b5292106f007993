// Each query parameter once, on every route Signet serves itself (the route table, the embedded
// demo's pages and the account pages included): a name sent twice, or in a list form
// (`name[]`, `name[key]`), is 400 query_parameter_repeated naming it, before anyone is asked
// who calls, on a route that reads a query and on one that reads none; nothing is written, no
// counter moves. The engine's own endpoints refuse their repeated parameters themselves.
import { Redis } from 'ioredis';
import type { z } from 'zod';
import type { AnyRoute } from '../../src/http/route.js';
import { embeddedDemoRoutes } from '../support/embedded_demo_routes.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;
let redis: Redis;

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    configure: () => ({ adminToken: 'admin-token-for-the-query-tests' }),
    extraRoutes: embeddedDemoRoutes,
  });
  redis = new Redis(h.redis.url);
}, 60_000);

afterAll(async () => {
  redis.disconnect();
  await h.close();
});

/** Every key and its value (as DUMP serializes it), the rate-limit counters included: a refused query moves nothing. */
async function everything(): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
    for (const key of batch) found[key] = (await redis.dumpBuffer(key))?.toString('base64') ?? '';
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** The route's path with each parameter filled: any value reaches the route (its path check comes later). */
const pathOf = (route: AnyRoute) => route.path.replace(/\{[^}]+\}/g, 'some-value');

/** The names a route's query schema reads. */
const queryNames = (route: AnyRoute) => Object.keys((route.query as z.ZodObject | undefined)?.shape ?? {});

const repeated = (name: string) => ({
  status: 400,
  json: {
    error: 'invalid_request',
    error_description: `the query parameter "${name}" appears more than once: send it once`,
    reason: 'query_parameter_repeated',
  },
});
const listForm = (name: string) => ({
  status: 400,
  json: {
    error: 'invalid_request',
    error_description: `the query parameter "${name}" is in a list form: send each parameter once, by its plain name`,
    reason: 'query_parameter_repeated',
  },
});

async function send(route: AnyRoute, query: string) {
  const response = await fetch(`${h.issuer}${pathOf(route)}?${query}`, { method: route.method.toUpperCase(), headers: { accept: 'application/json' } });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text) as unknown };
}

test('the table holds the routes with a query that used to let a repeated one through', () => {
  const withQuery = h.signet.routes.filter((route) => route.query).map((route) => `${route.method} ${route.path}`);
  expect(withQuery).toEqual(expect.arrayContaining(['get /account/history', 'get /ssf/streams', 'get /access-grants', 'get /account']));
  expect(h.signet.routes.length).toBeGreaterThan(50);
});

test('every route: ?x=1&x=2 and ?x[]=1 are 400 query_parameter_repeated, and nothing changes', async () => {
  const before = await everything();
  expect(Object.keys(before).length).toBeGreaterThan(0);
  const answers: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const route of h.signet.routes) {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    for (const [query, answer] of [
      ['x=1&x=2', repeated('x')],
      ['x[]=1', listForm('x[]')],
      ['x%5Bkey%5D=1', listForm('x[key]')],
    ] as const) {
      answers[`${name} ?${query}`] = await send(route, query);
      expected[`${name} ?${query}`] = answer;
    }
  }
  // One map: a failure lists every route and query that answered otherwise.
  expect(answers).toEqual(expected);
  expect(await everything()).toEqual(before);
});

test('every route with a query: its own parameters repeated or as lists are refused, never read once or dropped', async () => {
  const before = await everything();
  const answers: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const route of h.signet.routes.filter((each) => each.query)) {
    for (const param of queryNames(route)) {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      for (const [query, answer] of [
        [`${param}=a&${param}=b`, repeated(param)],
        [`${param}=a&other=1&${param}=a`, repeated(param)],
        [`${param}[]=a`, listForm(`${param}[]`)],
        [`${param}[]=a&${param}[]=b`, listForm(`${param}[]`)],
      ] as const) {
        answers[`${name} ?${query}`] = await send(route, query);
        expected[`${name} ?${query}`] = answer;
      }
    }
  }
  expect(Object.keys(expected).length).toBeGreaterThan(20);
  expect(answers).toEqual(expected);
  expect(await everything()).toEqual(before);
});

test('the refusal comes before the caller check: a page without a session is refused, not sent to sign in', async () => {
  const page = await fetch(`${h.issuer}/account?next=/a&next=/b`, { redirect: 'manual', headers: { accept: 'text/html' } });
  expect(page.status).toBe(400);
  expect(await page.text()).toContain('appears more than once');
  // Each parameter once is the page's ordinary answer: the sign-in page, or a redirect to it.
  const once = await fetch(`${h.issuer}/account?next=/a`, { redirect: 'manual', headers: { accept: 'text/html' } });
  expect([200, 302, 303]).toContain(once.status);
});

test('/openapi.json lists the refusal on every documented route', async () => {
  const document = (await (await fetch(`${h.issuer}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: { 'application/json': { schema: unknown } } }> }>>;
  };
  const missing: string[] = [];
  for (const route of h.signet.routes.filter((each) => !each.undocumented)) {
    const schema = JSON.stringify(document.paths[route.path]?.[route.method]?.responses['400']?.content?.['application/json'].schema ?? null);
    if (!schema.includes('"query_parameter_repeated"')) missing.push(`${route.method} ${route.path}`);
  }
  expect(missing).toEqual([]);
});

test("the engine's own endpoints refuse a repeated OAuth parameter themselves", async () => {
  const redirectUri = encodeURIComponent(WEBSITE.redirect_uris[0]!);
  const auth = await fetch(
    `${h.issuer}/auth?client_id=website&client_id=website&response_type=code&scope=openid&redirect_uri=${redirectUri}&code_challenge=${'c'.repeat(43)}&code_challenge_method=S256`,
    { redirect: 'manual', headers: { accept: 'application/json' } },
  );
  // The authorization endpoint answers a browser: its error page, in the engine's words.
  expect(auth.status).toBe(400);
  const page = await auth.text();
  expect(page).toContain('invalid_request');
  expect(page).toMatch(/(&#39;|')client_id(&#39;|') parameter must not be provided twice/);
  const token = await fetch(`${h.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('website:website-secret-value').toString('base64')}`,
    },
    body: 'grant_type=authorization_code&grant_type=refresh_token&code=x',
  });
  expect(token.status).toBe(400);
  expect(await token.json()).toEqual({
    error: 'invalid_request',
    error_description: "'grant_type' parameter must not be provided twice",
    reason: 'invalid_request',
  });
});
