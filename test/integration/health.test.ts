// Liveness and readiness against real parts: /readyz follows Redis and the chain, and answers
// within its deadline when either stops answering; /healthz only says the process runs.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';
import { READINESS_ANSWER_MS } from '../support/bounds.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

let signet: Harness;

beforeAll(async () => {
  signet = await startSignet({ deadlines: 'production' });
});
afterAll(async () => {
  await signet.close();
});

async function timed(path: string) {
  const started = Date.now();
  const response = await fetch(`${signet.issuer}${path}`);
  return { status: response.status, json: await response.json(), ms: Date.now() - started, cache: response.headers.get('cache-control') };
}

test('both answer while Redis and the chain are up', async () => {
  // It says which version runs: package.json's.
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  expect(await timed('/healthz')).toMatchObject({ status: 200, json: { status: 'ok', version }, cache: 'no-store' });
  expect(await timed('/readyz')).toMatchObject({ status: 200, json: { status: 'ready', checks: { store: 'ok', chain: 'ok' } } });
});

test('Redis stopped: not ready within the deadline, still alive', async () => {
  await signet.redis.stop();
  const ready = await timed('/readyz');
  expect(ready).toMatchObject({
    status: 503,
    json: { error: 'temporarily_unavailable', reason: 'store_unavailable', checks: { store: 'unreachable', chain: 'ok' } },
  });
  expect(ready.ms).toBeLessThan(READINESS_ANSWER_MS);
  expect(await timed('/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
});

test('the chain stopped too: both reported unreachable', async () => {
  await signet.chain.stop();
  const ready = await timed('/readyz');
  expect(ready).toMatchObject({ status: 503, json: { reason: 'store_unavailable', checks: { store: 'unreachable', chain: 'unreachable' } } });
  expect(ready.ms).toBeLessThan(READINESS_ANSWER_MS);
});
