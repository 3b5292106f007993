// Every door that stores or calls has a limit in front of it, counted before the work, with the
// production defaults, on a real redis-server shared by two Signet processes and a real anvil
// read through a provider-like proxy that counts each JSON-RPC request:
// - authorization requests per address (GET /auth, across both processes) and their stored size;
// - CIBA starts per identity and the bound on an identity's waiting requests, before the eth_call,
//   the bound exact under starts racing on two processes, and freed by a decision;
// - validations, revocations and CIBA approvals per grant, before any lookup or chain call;
// - a wallet check into a stranger's contract, capped in gas.
import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import { type Address, getAddress, type Hex } from 'viem';
import { configSchema, type RateLimitSettings } from '../../src/config/schema.js';
import { createBackchannelInbox } from '../../src/domain/backchannel/backchannel_inbox.js';
import { WALLET_CHECK_GAS } from '../../src/domain/wallet/verify_wallet_signature.js';
import { keys } from '../../src/infra/store/keys.js';
import { authorizationUrl, discover } from '../support/login_driver.js';
import { type ProviderProxy, startProviderProxy } from '../support/provider_proxy.js';
import { ANALYTICS, basicAuth, type Harness, KIOSK, startSignet, WEBSITE } from '../support/signet_harness.js';

/** The classes under test, at the values Signet runs with when nothing is set. */
const DEFAULTS: RateLimitSettings = configSchema.shape.rateLimits.parse({});

let h: Harness;
let provider: ProviderProxy;
let redis: Redis;
let identity: Address;
let processes: [string, string];

const chainCalls = (method: string) => provider.counts()[method] ?? 0;

async function keysMatching(pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== '0');
  return found;
}

const interactions = async () => (await keysMatching('signet:oidc:{Interaction:*}')).length;

/** Lifts a class's counters, as an operator would (docs/operations.md, "Rate limits"). */
async function forget(limitClass: string) {
  const counters = await keysMatching(`signet:rate:${limitClass}:*`);
  if (counters.length) await redis.del(...counters);
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS, KIOSK],
    peers: 1,
    rpcEndpoints: async (chain) => {
      provider = await startProviderProxy(chain.anvil.rpcUrl);
      return [{ url: provider.url, label: 'provider' }];
    },
    rateLimits: {
      authorizationsPerAddress: DEFAULTS.authorizationsPerAddress,
      pushedRequestsPerAddress: DEFAULTS.pushedRequestsPerAddress,
      backchannelStartsPerIdentity: DEFAULTS.backchannelStartsPerIdentity,
      backchannelPendingPerIdentity: DEFAULTS.backchannelPendingPerIdentity,
      grantAttemptsPerGrant: DEFAULTS.grantAttemptsPerGrant,
    },
  });
  processes = [h.issuer, h.peers[0]!.url];
  redis = new Redis(h.redis.url);
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
}, 60_000);

afterAll(async () => {
  redis?.disconnect();
  await h?.close();
  await provider?.close();
});

describe('authorization requests', () => {
  afterEach(() => forget('authorizationsPerAddress'));

  test('600 from one address, spread over two processes, store the limit’s worth of interactions; the rest are 429 with Retry-After', async () => {
    const { points, seconds } = DEFAULTS.authorizationsPerAddress;
    expect({ points, seconds }).toEqual({ points: 300, seconds: 60 });
    const before = await interactions();
    const statuses: number[] = [];
    const refusals: { reason: unknown; retryAfter: string | null }[] = [];
    for (let batch = 0; batch < 30; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const url = authorizationUrl(processes[(batch * 20 + i) % 2]!, WEBSITE);
          const response = await fetch(url, { redirect: 'manual', headers: { accept: 'application/json' } });
          statuses.push(response.status);
          if (response.status === 429)
            refusals.push({ reason: ((await response.json()) as { reason: unknown }).reason, retryAfter: response.headers.get('retry-after') });
          else await response.arrayBuffer();
        }),
      );
    }
    expect(statuses.filter((status) => status === 303)).toHaveLength(points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(600 - points);
    expect(new Set(refusals.map(({ reason }) => reason))).toEqual(new Set(['rate_limited']));
    for (const { retryAfter } of refusals) expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    for (const { retryAfter } of refusals) expect(Number(retryAfter)).toBeLessThanOrEqual(seconds);
    expect((await interactions()) - before).toBe(points);
    // Every spelling and method the engine answers with a login is counted in the same class.
    for (const [method, path] of [
      ['HEAD', '/auth'],
      ['GET', '/AUTH'],
      ['GET', '/auth/'],
      ['POST', '/auth'],
    ] as const) {
      const url = authorizationUrl(h.issuer, WEBSITE);
      url.pathname = path;
      const response = await fetch(url, { method, redirect: 'manual', headers: { accept: 'application/json' } });
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 429 });
    }
    expect((await interactions()) - before).toBe(points);
  });

  test('an interaction lives 10 minutes, and so do its cookies', async () => {
    const response = await fetch(authorizationUrl(h.issuer, WEBSITE), { redirect: 'manual' });
    expect(response.status).toBe(303);
    const uid = response.headers.get('location')!.split('/').pop()!;
    const ttl = await redis.ttl(`signet:oidc:{Interaction:${uid}}`);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    const cookies = response.headers.getSetCookie().filter((cookie) => /^_interaction(_resume)?=/.test(cookie));
    expect(cookies).toHaveLength(2);
    const sent = Date.parse(response.headers.get('date')!);
    for (const cookie of cookies) {
      const expires = Date.parse(/expires=([^;]+)/i.exec(cookie)![1]!);
      expect((expires - sent) / 1000).toBeGreaterThanOrEqual(599);
      expect((expires - sent) / 1000).toBeLessThanOrEqual(601);
    }
  });

  test('a parameter past 2 KiB, or parameters past 8 KiB in all, are refused with 400 before anything is stored', async () => {
    const before = await interactions();
    const withState = (state: string) => {
      const url = authorizationUrl(h.issuer, WEBSITE);
      url.searchParams.set('state', state);
      return url;
    };
    const long = await fetch(withState('s'.repeat(14 * 1024)), { redirect: 'manual', headers: { accept: 'application/json' } });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: 'invalid_request', reason: 'authorization_request_too_large' });
    const state = await fetch(withState('s'.repeat(2049)), { redirect: 'manual', headers: { accept: 'application/json' } });
    expect(state.status).toBe(400);
    expect(await state.json()).toMatchObject({ reason: 'authorization_request_too_large', error_description: expect.stringContaining('"state"') });
    // The same as a form body.
    const form = await fetch(`${h.issuer}/auth`, {
      method: 'POST',
      redirect: 'manual',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: withState('s'.repeat(3000)).searchParams.toString(),
    });
    expect(form.status).toBe(400);
    expect(await form.json()).toMatchObject({ reason: 'authorization_request_too_large' });
    // A pushed request, with its client's authentication.
    const pushed = await fetch(`${h.issuer}/request`, {
      method: 'POST',
      headers: { accept: 'application/json', authorization: basicAuth(WEBSITE), 'content-type': 'application/x-www-form-urlencoded' },
      body: withState('s'.repeat(9000)).searchParams.toString(),
    });
    expect(pushed.status).toBe(400);
    expect(await pushed.json()).toMatchObject({ reason: 'authorization_request_too_large' });
    expect(await interactions()).toBe(before);
    // Within the bounds, the login starts.
    expect((await fetch(withState('s'.repeat(2048)), { redirect: 'manual' })).status).toBe(303);
    expect(await interactions()).toBe(before + 1);
  });
});

describe('CIBA starts', () => {
  test('40 starts for one identity: the bound’s worth wait in the inbox, the rest are 429 before any chain call', async () => {
    expect(DEFAULTS.backchannelPendingPerIdentity).toBe(3);
    expect(DEFAULTS.backchannelStartsPerIdentity).toEqual({ points: 5, seconds: 600 });
    const config = await discover(h.issuer, KIOSK);
    // The first start looks the identity up on the chain.
    const first = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid', login_hint: identity });
    expect(first.auth_req_id).toEqual(expect.any(String));
    const answers: { status: number; reason: unknown; retryAfter: string | null; chainCalls: number }[] = [];
    for (let i = 1; i < 40; i++) {
      const callsBefore = chainCalls('eth_call');
      const response = await fetch(`${processes[i % 2]}/backchannel`, {
        method: 'POST',
        headers: { accept: 'application/json', authorization: basicAuth(KIOSK), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ scope: 'openid', login_hint: identity }),
      });
      const json = (await response.json()) as { reason?: unknown };
      answers.push({
        status: response.status,
        reason: json.reason,
        retryAfter: response.headers.get('retry-after'),
        chainCalls: chainCalls('eth_call') - callsBefore,
      });
    }
    const accepted = answers.filter(({ status }) => status === 200);
    const refused = answers.filter(({ status }) => status === 429);
    expect(accepted).toHaveLength(DEFAULTS.backchannelPendingPerIdentity - 1);
    expect(refused).toHaveLength(39 - accepted.length);
    for (const refusal of refused) {
      // Refused before the identity was looked up on the chain.
      expect(refusal).toMatchObject({ reason: 'rate_limited', chainCalls: 0 });
      expect(Number(refusal.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    for (const start of accepted) expect(start.chainCalls).toBeGreaterThan(0);
    const inbox = await keysMatching('signet:backchannel:*');
    expect(inbox).toHaveLength(DEFAULTS.backchannelPendingPerIdentity);
  });
});

describe('each class at its door', () => {
  const form = (client: typeof KIOSK, fields: Record<string, string>) => ({
    method: 'POST',
    headers: { accept: 'application/json', authorization: basicAuth(client), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  let cibaIdentity: Address;
  beforeAll(async () => {
    cibaIdentity = await h.chain.createIdentityFor(h.chain.accounts[3]!.address);
  });
  const doors: [keyof RateLimitSettings & string, string, () => Promise<Response>][] = [
    [
      'authorizationsPerAddress',
      '127.0.0.1',
      () => fetch(authorizationUrl(h.issuer, WEBSITE), { redirect: 'manual', headers: { accept: 'application/json' } }),
    ],
    [
      'pushedRequestsPerAddress',
      '127.0.0.1',
      () => fetch(`${h.issuer}/request`, form(WEBSITE, Object.fromEntries(authorizationUrl(h.issuer, WEBSITE).searchParams))),
    ],
    ['backchannelStartsPerAddress', '127.0.0.1', () => fetch(`${h.issuer}/backchannel`, form(KIOSK, { scope: 'openid', login_hint: cibaIdentity }))],
    ['backchannelStartsPerClient', KIOSK.client_id, () => fetch(`${h.issuer}/backchannel`, form(KIOSK, { scope: 'openid', login_hint: cibaIdentity }))],
    [
      'grantAttemptsPerAddress',
      '127.0.0.1',
      () =>
        fetch(`${h.issuer}/access-grants/another-grant/validations`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ signature: `0x${'22'.repeat(65)}` }),
        }),
    ],
  ];

  test.each(doors)('%s: each request counted for %s; at the limit, 429 with Retry-After', async (limitClass, who, send) => {
    const counter = `signet:rate:${limitClass}:${who}`;
    const before = Number((await redis.get(counter)) ?? 0);
    const first = await send();
    await first.arrayBuffer();
    expect(first.status).toBeLessThan(429);
    expect(Number(await redis.get(counter))).toBe(before + 1);
    // The counter at the class's limit, as a flood would leave it.
    const { points } = h.config.rateLimits[limitClass] as { points: number };
    await redis.set(counter, String(points), 'EX', 60);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited', reason: 'rate_limited', error_description: expect.stringMatching(/^at most \d+ /) });
    await redis.del(counter);
  });
});

describe('the inbox bound', () => {
  test('20 starts at once for another identity, over two processes: exactly the bound is filed', async () => {
    const other = await h.chain.createIdentityFor(h.chain.accounts[1]!.address);
    const starts = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const response = await fetch(`${processes[i % 2]}/backchannel`, {
          method: 'POST',
          headers: { accept: 'application/json', authorization: basicAuth(KIOSK), 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ scope: 'openid', login_hint: other }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(starts.filter((status) => status === 200)).toHaveLength(DEFAULTS.backchannelPendingPerIdentity);
    expect(starts.filter((status) => status === 429)).toHaveLength(20 - DEFAULTS.backchannelPendingPerIdentity);
    expect(await h.peers[0]!.store.indexMembers(keys.backchannelRequestsOf(other))).toHaveLength(DEFAULTS.backchannelPendingPerIdentity);
  });

  test('a decided request frees its place at once', async () => {
    const inbox = createBackchannelInbox(h.peers[0]!.store);
    const owner = getAddress(h.chain.accounts[2]!.address);
    const request = (id: string) => ({
      id,
      identity: owner,
      client_id: KIOSK.client_id,
      client_name: KIOSK.client_name!,
      fields: [],
      scope: 'openid',
      binding_message: null,
      challenge: `text of ${id}`,
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    });
    const atMost = DEFAULTS.backchannelPendingPerIdentity;
    for (let i = 0; i < atMost; i++) expect(await inbox.file(request(`waiting-${i}`), 600, atMost)).toBe(true);
    expect(await inbox.file(request('one-too-many'), 600, atMost)).toBe(false);
    expect(await redis.exists(keys.backchannelRequest('one-too-many'))).toBe(0);
    expect(await inbox.take('waiting-1')).toMatchObject({ id: 'waiting-1' });
    expect(await inbox.file(request('in-its-place'), 600, atMost)).toBe(true);
    expect((await inbox.pendingFor(owner)).map(({ id }) => id).sort()).toEqual(['in-its-place', 'waiting-0', 'waiting-2']);
  });
});

describe('grant attempts', () => {
  /** A contract whose every call loops until its gas runs out: JUMPDEST PUSH1 0 JUMP. */
  async function deployGasBurner(): Promise<Address> {
    // PUSH4 <runtime> PUSH1 0 MSTORE PUSH1 4 PUSH1 28 RETURN: deploys the 4 bytes 5b600056.
    const hash = await h.chain.deployer.wallet.sendTransaction({
      data: '0x635b6000566000526004601cf3' as Hex,
      account: h.chain.deployer.wallet.account,
      chain: h.chain.deployer.wallet.chain,
    });
    const { contractAddress } = await h.chain.client.waitForTransactionReceipt({ hash });
    const burner = getAddress(contractAddress!);
    expect(await h.chain.client.getCode({ address: burner })).toBe('0x5b600056');
    return burner;
  }

  test('40 wrong validations of one grant naming a gas-burning contract: 5 reach the chain, each capped in gas; 35 are 429 before any lookup', async () => {
    const burner = await deployGasBurner();
    const { key } = await h.signet.apiKeys.create('analytics', 'door limits');
    const requested = await post(`${h.issuer}/identities/${identity}/profile/access-requests`, { kind: 'immediate' }, { 'x-api-key': key });
    expect(requested).toMatchObject({ status: 201 });
    const id = requested.json.id as string;
    const signature = await h.chain.accounts[5]!.signMessage({ message: requested.json.challenge as string });
    provider.reset();
    const answers: { status: number; reason: unknown; retryAfter: string | null }[] = [];
    for (let i = 0; i < 40; i++) {
      const answer = await post(`${processes[i % 2]}/access-grants/${id}/validations`, { signature, address: burner });
      answers.push({ status: answer.status, reason: answer.json.reason, retryAfter: answer.retryAfter });
    }
    const { points } = DEFAULTS.grantAttemptsPerGrant;
    expect(answers.slice(0, points)).toEqual(Array.from({ length: points }, () => ({ status: 422, reason: 'signature_invalid', retryAfter: null })));
    for (const answer of answers.slice(points)) {
      expect(answer).toMatchObject({ status: 429, reason: 'rate_limited' });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    // Each attempt let in asked the contract once, with the gas cap; the refused asked nothing.
    const calls = provider.log().filter((request) => request.method === 'eth_call');
    expect(calls).toHaveLength(points);
    for (const call of calls) {
      const [{ gas }] = call.params as [{ gas?: string }];
      expect(BigInt(gas!)).toBe(WALLET_CHECK_GAS);
    }
    // Uncapped, the same contract runs to the block's gas limit before failing.
    await expect(h.chain.client.estimateGas({ to: burner, account: h.chain.accounts[5]!.address })).rejects.toThrow();
  });

  test('revocations and CIBA approvals: 5 attempts per grant or request, then 429, even for one that does not exist', async () => {
    const { points } = DEFAULTS.grantAttemptsPerGrant;
    const signature = `0x${'11'.repeat(65)}`;
    const revocations = [];
    const approvals = [];
    for (let i = 0; i <= points; i++) {
      revocations.push(await post(`${h.issuer}/access-grants/no-such-grant/revocations`, { signature }));
      approvals.push(await post(`${h.issuer}/account/backchannel/no-such-request/approvals`, { signature }));
    }
    expect(revocations.map(({ status, json }) => [status, json.reason])).toEqual([
      ...Array.from({ length: points }, () => [404, 'grant_not_found']),
      [429, 'rate_limited'],
    ]);
    expect(approvals.map(({ status, json }) => [status, json.reason])).toEqual([
      ...Array.from({ length: points }, () => [404, 'backchannel_request_not_found']),
      [429, 'rate_limited'],
    ]);
  });
});
