// Every route Signet mounts is in /openapi.json, unless the route table declares it
// undocumented (a page, a form post, a redirect): the test walks the routers of a real app
// (Koa's middleware that carry a `.router`, their layers' methods and paths) and names each
// route the document leaves out. And every reason of the catalog is in the document's Error
// schema, so a client can look up any reason it receives.
import { REASONS } from '../../src/base/reasons.js';
import { embeddedDemoRoutes } from '../support/embedded_demo_routes.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startSignet({
    configure: () => ({ adminToken: 'admin-token-for-the-coverage-test' }),
    // The embedded demo's routes too (its website's pages and its wallet), as `npm start` mounts them.
    extraRoutes: embeddedDemoRoutes,
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

type Mounted = { method: string; path: string };
type RouterLike = { stack: { methods: string[]; path: string | RegExp }[] };

/** `/access-grants/:id` → `/access-grants/{id}` (the document's form). */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Every method and path of every router mounted on the app (HEAD, which Koa adds to GET, left out). */
function mountedRoutes(): Mounted[] {
  const routers = (h.signet.app.middleware as unknown as { router?: RouterLike }[]).flatMap((middleware) => (middleware.router ? [middleware.router] : []));
  const found = new Map<string, Mounted>();
  for (const router of routers) {
    for (const layer of router.stack) {
      // Middleware added with router.use() has no methods: it is not a route.
      if (typeof layer.path !== 'string') continue;
      for (const method of layer.methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        const route = { method: method.toLowerCase(), path: openApiPath(layer.path) };
        found.set(`${route.method} ${route.path}`, route);
      }
    }
  }
  return [...found.values()];
}

test('the walk finds the routers: the route table and its documented routes are among them', () => {
  const mounted = mountedRoutes().map(({ method, path }) => `${method} ${path}`);
  expect(mounted).toEqual(expect.arrayContaining(['get /healthz', 'get /openapi.json', 'post /access-grants/{id}/validations', 'get /', 'post /demo/wallet']));
});

test('every mounted route is in /openapi.json, or declared undocumented in the route table', async () => {
  const response = await fetch(`${h.issuer}/openapi.json`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
  const undocumented = new Set(h.signet.routes.filter((route) => route.undocumented).map((route) => `${route.method} ${route.path}`));
  const missing = mountedRoutes()
    .filter(({ method, path }) => !document.paths[path]?.[method] && !undocumented.has(`${method} ${path}`))
    .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
    .sort();
  // The list names each route missing from the document.
  expect(missing).toEqual([]);
});

test('every declared route is mounted once, and every documented one is in the document', async () => {
  const keys = h.signet.routes.map((route) => `${route.method} ${route.path}`);
  expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  const documented = h.signet.routes.filter((route) => !route.undocumented);
  const paths = h.signet.openApi.paths as Record<string, Record<string, unknown>>;
  expect(documented.filter((route) => !paths[route.path]?.[route.method]).map((route) => `${route.method} ${route.path}`)).toEqual([]);
});

test("every reason of the catalog is in the document's Error schema, with no other", async () => {
  const response = await fetch(`${h.issuer}/openapi.json`);
  const document = (await response.json()) as { components: { schemas: { Error: { properties: { reason: { enum: string[] } } } } } };
  expect([...document.components.schemas.Error.properties.reason.enum].sort()).toEqual(Object.keys(REASONS).sort());
});
