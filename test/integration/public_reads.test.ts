// Anonymous reads of a profile's or a claim's public part, on real Redis and real anvil: an
// address with no contract is the caller's 404 (identity_not_found), not an outage, and logs no
// error; an unreachable chain is still 503 chain_unavailable; anonymous reads are counted per
// client address (publicReadsPerAddress), reads with a credential are not.
import { randomBytes } from 'node:crypto';
import type { Address, Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { observeChainCalls } from '../../src/infra/observability/chain_calls.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { captureLogs } from '../support/log_capture.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

type Line = Record<string, unknown> & { level: string; msg: string };

const LIMIT = 4;
let h: Harness;
let identity: Address;
const { written, destination, lines } = captureLogs<Line>();
const metrics = createMetrics({ processMetrics: false });

beforeAll(async () => {
  h = await startSignet({
    logger: createLogger({ level: 'debug', destination }),
    metrics,
    chainProxy: true,
    // Counts every JSON-RPC call by outcome, as production does.
    chainClient: (chain, rpcUrl) => createChainClient(rpcUrl, chain.anvil.chainId, { pollingInterval: 50, observe: observeChainCalls(metrics) }),
    rateLimits: { publicReadsPerAddress: { points: LIMIT, seconds: 60 } },
    // Each test reads from its own address (X-Forwarded-For), so their counters stay apart.
    trustProxy: 1,
  });
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
}, 60_000);

afterAll(async () => {
  await h.close();
});

const randomId = (): Hex => `0x${randomBytes(32).toString('hex')}`;

async function read(path: string, from: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${h.issuer}${path}`, { headers: { accept: 'application/json', 'x-forwarded-for': from, ...headers } });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as Record<string, unknown> };
}

const metric = async (name: string) => (await metrics.registry.getSingleMetricAsString(name)).split('\n').filter((line) => !line.startsWith('#'));

test('a claim of an address with no contract is 404 identity_not_found: no error line, no 503 counted, no chain error', async () => {
  const nobody = privateKeyToAccount(generatePrivateKey()).address;
  expect(await h.chain.client.getCode({ address: nobody })).toBeUndefined();
  written.length = 0;
  const claim = await read(`/identities/${nobody}/claims/${randomId()}`, '198.51.100.1');
  expect(claim).toEqual({
    status: 404,
    retryAfter: null,
    json: { error: 'not_found', error_description: expect.any(String), reason: 'identity_not_found' },
  });
  // A real identity without the claim is the claim's 404.
  expect(await read(`/identities/${identity}/claims/${randomId()}`, '198.51.100.1')).toMatchObject({ status: 404, json: { reason: 'claim_not_found' } });

  const logged = lines();
  expect(logged.filter((line) => line.msg === 'request').map((line) => `${line.level} ${line.route} ${line.status}`)).toEqual([
    'info /identities/:identity/claims/:claimId 404',
    'info /identities/:identity/claims/:claimId 404',
  ]);
  expect(logged.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  expect((await metric('signet_http_requests_total')).filter((line) => line.includes('status="503"'))).toEqual([]);
  const chainCalls = await metric('signet_chain_calls_total');
  expect(chainCalls.some((line) => line.includes('method="eth_call",outcome="ok"'))).toBe(true);
  expect(chainCalls.filter((line) => !line.includes('outcome="ok"'))).toEqual([]);
});

test('an unreachable chain is still 503 chain_unavailable, with Retry-After and an error line', async () => {
  written.length = 0;
  await h.chainProxy!.set('refuse');
  try {
    const nobody = privateKeyToAccount(generatePrivateKey()).address;
    for (const who of [nobody, identity]) {
      expect(await read(`/identities/${who}/claims/${randomId()}`, '198.51.100.2')).toEqual({
        status: 503,
        retryAfter: '5',
        json: { error: 'temporarily_unavailable', error_description: expect.any(String), reason: 'chain_unavailable' },
      });
    }
  } finally {
    await h.chainProxy!.set('pass');
  }
  expect(
    lines()
      .filter((line) => line.msg === 'request')
      .map((line) => `${line.level} ${line.status} ${line.reason}`),
  ).toEqual(['error 503 chain_unavailable', 'error 503 chain_unavailable']);
});

test('anonymous reads are limited per address; reads with a credential are not counted', async () => {
  const from = '203.0.113.7';
  const claimPath = `/identities/${identity}/claims/${randomId()}`;
  const profilePath = `/identities/${identity}/profile`;
  // Profile and claim reads share the class.
  for (let i = 0; i < LIMIT / 2; i++) {
    expect(await read(profilePath, from)).toMatchObject({ status: 200, json: { identity, fields: [] } });
    expect(await read(claimPath, from)).toMatchObject({ status: 404, json: { reason: 'claim_not_found' } });
  }
  for (const path of [profilePath, claimPath]) {
    const over = await read(path, from);
    expect(over).toEqual({
      status: 429,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
      json: {
        error: 'rate_limited',
        error_description: expect.stringContaining(`at most ${LIMIT} reads without a credential from one address every 60 s`),
        reason: 'rate_limited',
      },
    });
    expect(Number(over.retryAfter)).toBeLessThanOrEqual(60);
  }
  // A credential is checked against its grant, never counted here: refused for itself, not 429.
  for (let i = 0; i < LIMIT + 1; i++) {
    expect(await read(profilePath, from, { authorization: 'Bearer not-a-real-token' })).toMatchObject({ status: 401, json: { reason: 'token_invalid' } });
    expect(await read(profilePath, from, { 'x-api-key': 'sk_not_a_real_key' })).toMatchObject({ status: 401, json: { reason: 'api_key_invalid' } });
  }
  // Another address has its own counter.
  expect(await read(profilePath, '203.0.113.8')).toMatchObject({ status: 200 });
  expect((await metric('signet_rate_limit_hits_total')).some((line) => line.includes('route="/identities/:identity/profile"'))).toBe(true);
});
