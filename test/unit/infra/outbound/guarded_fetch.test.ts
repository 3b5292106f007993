// The engine's fetch through the URL guard, against real servers on loopback: each redirect hop
// resolved, checked and pinned before it is connected to; a refused hop never reached; a body
// never sent on; at most 5 hops; the caller's signal ends a fetch that hangs; the operator's own
// URL reached unchecked, but not the hops it names. "Public" hosts are a test DNS's names whose
// connections the dial seam hands to the local server (the internet as these tests play it).
import { createServer, type Server } from 'node:http';
import { createGuardedFetch } from '../../../../src/infra/outbound/guarded_fetch.js';
import { createUrlGuard, type ResolvedAddress, type ResolveHost } from '../../../../src/infra/outbound/url_guard.js';
import { type ConnectionRecorder, startConnectionRecorder } from '../../../support/connection_recorder.js';
import { waitUntil } from '../../../support/wait_until.js';

const PUBLIC = '93.184.215.14';

let site: { server: Server; port: number; requests: string[] };
let inner: ConnectionRecorder;
const calls: string[] = [];
const resolveHost: ResolveHost = async (hostname) => {
  calls.push(hostname);
  if (hostname === 'inner.example') return [{ address: '127.0.0.1', family: 4 }];
  return [{ address: PUBLIC, family: 4 }];
};
const dial = (approved: ResolvedAddress): ResolvedAddress => (approved.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : approved);

beforeAll(async () => {
  inner = await startConnectionRecorder();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    requests.push(`${request.method} ${request.headers.host} ${request.url}`);
    const hop = /^\/hop\/(\d+)$/.exec(request.url ?? '');
    if (hop) {
      const left = Number(hop[1]);
      return response.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/doc' }).end();
    }
    if (request.url === '/elsewhere') return response.writeHead(307, { location: `http://b.example:${port}/doc` }).end();
    if (request.url === '/inward') return response.writeHead(302, { location: `http://inner.example:${inner.port}/doc` }).end();
    if (request.url === '/file') return response.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (request.url === '/hang') return;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  site = { server, port, requests };
});

afterAll(async () => {
  site.server.closeAllConnections();
  await new Promise<void>((resolve) => site.server.close(() => resolve()));
  await inner.close();
});

beforeEach(() => {
  site.requests.length = 0;
  calls.length = 0;
});

const guardedFetch = (trusted?: (href: string) => boolean) =>
  createGuardedFetch({ guard: createUrlGuard({ allowPrivate: false, resolveHost }), trusted, dial });

test('redirects are followed hop by hop: each hop resolved and checked, its socket pinned, its Host kept', async () => {
  const response = await guardedFetch()(`http://a.example:${site.port}/elsewhere`, { signal: AbortSignal.timeout(2500) });
  expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { ok: true } });
  expect(site.requests).toEqual([`GET a.example:${site.port} /elsewhere`, `GET b.example:${site.port} /doc`]);
  expect(calls).toEqual(['a.example', 'b.example']);
});

test('a hop inward is refused before it is connected to; a hop to another scheme too', async () => {
  await expect(guardedFetch()(`http://a.example:${site.port}/inward`)).rejects.toMatchObject({
    reason: 'webhook_url_not_public',
    message: 'the URL resolves to a non-public address (loopback): only public addresses are called',
  });
  await expect(guardedFetch()(`http://a.example:${site.port}/file`)).rejects.toMatchObject({
    reason: 'webhook_url_not_public',
    message: 'the URL must be http or https',
  });
  expect(inner.connections).toEqual([]);
});

test('five redirects are followed, a sixth is not', async () => {
  expect((await guardedFetch()(`http://a.example:${site.port}/hop/4`)).status).toBe(200);
  site.requests.length = 0;
  await expect(guardedFetch()(`http://a.example:${site.port}/hop/5`)).rejects.toThrow('more than 5 redirects');
  expect(site.requests).toHaveLength(6);
});

test('a request with a body, or redirect "manual", gets the 3xx itself: nothing is sent on', async () => {
  const posted = await guardedFetch()(`http://a.example:${site.port}/elsewhere`, { method: 'POST', body: 'logout_token=x', redirect: 'follow' });
  expect({ status: posted.status, location: posted.headers.get('location') }).toEqual({ status: 307, location: `http://b.example:${site.port}/doc` });
  const manual = await guardedFetch()(`http://a.example:${site.port}/elsewhere`, { redirect: 'manual' });
  expect(manual.status).toBe(307);
  expect(site.requests).toEqual([`POST a.example:${site.port} /elsewhere`, `GET a.example:${site.port} /elsewhere`]);
});

test("the caller's signal ends a fetch whose answer never comes", async () => {
  // Ended once the site has the request (so its arrival is this test's, not the next one's).
  const caller = new AbortController();
  const fetched = guardedFetch()(`http://a.example:${site.port}/hang`, { signal: caller.signal });
  await waitUntil('the site has the request', () => site.requests.includes(`GET a.example:${site.port} /hang`));
  caller.abort();
  await expect(fetched).rejects.toMatchObject({ name: 'AbortError' });
});

test("the operator's own URL is reached without the check; a hop it names is checked", async () => {
  const operatorUrl = `http://127.0.0.1:${site.port}/inward`;
  const trusting = guardedFetch((href) => href === operatorUrl);
  const direct = await trusting(`http://127.0.0.1:${site.port}/doc`).catch((error: Error) => error);
  expect(direct).toMatchObject({ reason: 'webhook_url_not_public' });
  await expect(trusting(operatorUrl)).rejects.toMatchObject({ reason: 'webhook_url_not_public' });
  // The operator's URL was asked (unchecked, not resolved); its inward hop was not.
  expect(site.requests).toEqual([`GET 127.0.0.1:${site.port} /inward`]);
  expect(calls).toEqual(['inner.example']);
  expect(inner.connections).toEqual([]);
});
