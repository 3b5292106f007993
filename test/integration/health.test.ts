// Liveness and readiness against real parts: /readyz follows Redis and the chain, and answers
// within its deadline when either stops answering; /healthz only says the process runs. Every
// /readyz answer comes from one probe per process at most a second old, shared by the requests
// that arrive while it is out, and names no endpoint; the details are the admin's.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';
import { READINESS_FRESH_MS } from '../../src/features/health/readiness_probe.js';
import { READINESS_ANSWER_MS } from '../support/bounds.js';
import { FAKE_API_KEY, type ProviderProxy, startProviderProxy } from '../support/provider_proxy.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

const ADMIN_TOKEN = 'admin-token-for-the-health-tests';
const LABEL = 'metered-provider';
/** Past the probe's freshness: the next /readyz probes again. */
const NEXT_PROBE_MS = READINESS_FRESH_MS + 1;

let signet: Harness;
let provider: ProviderProxy;

beforeAll(async () => {
  signet = await startSignet({
    deadlines: 'production',
    rpcEndpoints: async (chain) => {
      provider = await startProviderProxy(chain.anvil.rpcUrl);
      return [{ url: provider.url, label: LABEL }];
    },
    configure: () => ({ adminToken: ADMIN_TOKEN }),
  });
});
afterAll(async () => {
  await signet.close();
  await provider.close();
});

async function timed(path: string, headers: Record<string, string> = {}) {
  const started = Date.now();
  const response = await fetch(`${signet.issuer}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, json: JSON.parse(text), text, ms: Date.now() - started, cache: response.headers.get('cache-control') };
}
const admin = () => timed('/admin/readiness', { authorization: `Bearer ${ADMIN_TOKEN}` });
const blockNumbers = () => provider.counts().eth_blockNumber ?? 0;

test('both answer while Redis and the chain are up', async () => {
  // It says which version runs: package.json's.
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  expect(await timed('/healthz')).toMatchObject({ status: 200, json: { status: 'ok', version }, cache: 'no-store' });
  expect(await timed('/readyz')).toMatchObject({ status: 200, json: { status: 'ready', checks: { store: 'ok', chain: 'ok' } } });
});

test('60 probes at once cost one chain call; 60 in a row, one a second at most; a second later, one more', async () => {
  signet.clock.advance(NEXT_PROBE_MS);
  provider.reset();
  const answers = await Promise.all(Array.from({ length: 60 }, () => timed('/readyz')));
  expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
  expect(blockNumbers()).toBe(1);

  // One after the other: one probe per second at most, of the clock's time (the real time these
  // take moves it too, so the bound counts it).
  const from = signet.clock.now();
  for (let i = 0; i < 60; i++) expect((await timed('/readyz')).status).toBe(200);
  const seconds = Math.ceil((signet.clock.now() - from) / READINESS_FRESH_MS);
  expect(blockNumbers()).toBeLessThanOrEqual(1 + seconds);

  const before = blockNumbers();
  signet.clock.advance(NEXT_PROBE_MS);
  expect((await timed('/readyz')).status).toBe(200);
  expect(blockNumbers()).toBe(before + 1);
});

test("the public answer names no endpoint and no watcher state; the admin's names them", async () => {
  signet.clock.advance(NEXT_PROBE_MS);
  const ready = await timed('/readyz');
  expect(Object.keys(ready.json).sort()).toEqual(['checks', 'status']);
  const { host } = new URL(provider.url);
  for (const named of [LABEL, host, String(provider.port), FAKE_API_KEY, 'chain_endpoints', 'chain_watch']) expect(ready.text).not.toContain(named);

  expect(await admin()).toMatchObject({
    status: 200,
    json: { status: 'ready', checks: { store: 'ok', chain: 'ok' }, chain_endpoints: [{ endpoints: [{ label: LABEL, state: 'up' }] }] },
  });
  expect(await timed('/admin/readiness')).toMatchObject({ status: 401, json: { reason: 'admin_token_invalid' } });
  expect(await timed('/admin/readiness', { authorization: 'Bearer not-the-admin-token-at-all' })).toMatchObject({
    status: 401,
    json: { reason: 'admin_token_invalid' },
  });
});

test('Redis stopped: not ready within the deadline, still alive', async () => {
  await signet.redis.stop();
  signet.clock.advance(NEXT_PROBE_MS);
  const ready = await timed('/readyz');
  expect(ready).toMatchObject({
    status: 503,
    json: { error: 'temporarily_unavailable', reason: 'store_unavailable', checks: { store: 'unreachable', chain: 'ok' } },
  });
  expect(ready.ms).toBeLessThan(READINESS_ANSWER_MS);
  expect(await timed('/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
  // The admin's view of the same probe says why, with a 200: the admin route itself works.
  expect(await admin()).toMatchObject({ status: 200, json: { status: 'not_ready', reason: 'store_unavailable' } });
});

test('the chain stopped too: both reported unreachable', async () => {
  await signet.chain.stop();
  signet.clock.advance(NEXT_PROBE_MS);
  const ready = await timed('/readyz');
  expect(ready).toMatchObject({ status: 503, json: { reason: 'store_unavailable', checks: { store: 'unreachable', chain: 'unreachable' } } });
  expect(ready.ms).toBeLessThan(READINESS_ANSWER_MS);
});
