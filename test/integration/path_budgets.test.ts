// What each request of the paths people and services wait on costs, counted exactly on real
// Redis and anvil, against the budgets of test/support/path_budgets.ts: Redis round trips (what
// reached Redis through a counting proxy, commands sent together counting once), Redis commands
// (MONITOR's lines, those run inside scripts included) and chain round trips (JSON-RPC requests
// through a provider-like proxy). On a chain with Multicall3 and on one without it. Nothing runs
// beside the requests: no webhook worker, no chain watcher, client records kept in memory. The
// access history's entries, written after the answers in batches of a few milliseconds, are
// written here once each request has its answer: their commands count, not as a round trip.
// BUDGET_TRACE=1 prints the commands of each counted request, to see where a budget goes.
import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import type { Address, Hex, LocalAccount } from 'viem';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { jsonApi } from '../support/json_api.js';
import { kycIssuedBySignet } from '../support/kyc_claims.js';
import { followToCallback, type LoginStart, requestChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { type Budget, PATH_BUDGETS, type PathCost } from '../support/path_budgets.js';
import { type ProviderProxy, startProviderProxy } from '../support/provider_proxy.js';
import { type CountingProxy, startRedisCountingProxy } from '../support/redis_counting_proxy.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const ADMIN_TOKEN = 'admin-token-for-the-budgets';
const SCOPE = 'openid profile email';

type Counters = { harness: Harness; redis: CountingProxy; provider: ProviderProxy; monitor: Redis; watching: Redis; marks: Redis; seen: string[] };

async function startCounted(multicall3: boolean): Promise<Counters> {
  let redis: CountingProxy | undefined;
  let provider: ProviderProxy | undefined;
  const harness = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    redisUrlFor: async (url) => {
      redis = await startRedisCountingProxy(url);
      return redis.url;
    },
    rpcEndpoints: async (chain) => {
      provider = await startProviderProxy(chain.anvil.rpcUrl, { hideMulticall3: !multicall3 });
      return [{ url: provider.url, label: 'provider' }];
    },
    webhookWorker: false,
    clientCacheMs: 600_000,
    // The history's writes wait for costOf: off each request's path, counted apart from it.
    historySchedule: () => {},
    configure: (chain) => ({
      ...kycIssuedBySignet(chain),
      adminToken: ADMIN_TOKEN,
    }),
  });
  const monitor = new Redis(harness.redis.url);
  const marks = new Redis(harness.redis.url);
  const seen: string[] = [];
  const watching = await monitor.monitor();
  watching.on('monitor', (_time: string, args: string[]) => seen.push(args.join(' ')));
  return { harness, redis: redis!, provider: provider!, monitor, watching, marks, seen };
}

let marksSent = 0;

/** What `work` cost: its Redis round trips and commands and its chain requests, alone on both. */
async function costOf<T>(c: Counters, work: () => Promise<T>): Promise<[PathCost, T]> {
  const mark = `budget-mark-${++marksSent}`;
  // What earlier work left waiting in the history is written before counting starts.
  await c.harness.signet.history.flushed();
  await c.marks.echo(`${mark}-start`);
  await waitUntil('MONITOR reported the start mark', () => c.seen.includes(`echo ${mark}-start`));
  const [writes, chain] = [c.redis.writes(), Object.values(c.provider.counts()).reduce((sum, n) => sum + n, 0)];
  const done = await work();
  const cost = {
    redisRoundTrips: c.redis.writes() - writes,
    chainRoundTrips: Object.values(c.provider.counts()).reduce((sum, n) => sum + n, 0) - chain,
    redisCommands: 0,
  };
  // The history entries the request left waiting, written as the end of its batch would: their
  // commands count, their write is not one the request waited on.
  await c.harness.signet.history.flushed();
  await c.marks.echo(`${mark}-end`);
  await waitUntil('MONITOR reported the end mark', () => c.seen.includes(`echo ${mark}-end`));
  const lines = c.seen.slice(c.seen.indexOf(`echo ${mark}-start`) + 1, c.seen.indexOf(`echo ${mark}-end`));
  cost.redisCommands = lines.length;
  if (process.env.BUDGET_TRACE) console.info(lines.map((line) => line.slice(0, 100)).join('\n'));
  return [cost, done];
}

function withinBudget(path: string, cost: PathCost, budget: Budget) {
  // The whole cost is named, so a failure shows every count against its budget.
  expect({ path, ...cost }).toEqual({
    path,
    redisRoundTrips: Math.min(cost.redisRoundTrips, budget.redisRoundTrips),
    redisCommands: Math.min(cost.redisCommands, budget.redisCommands),
    chainRoundTrips: Math.min(cost.chainRoundTrips, budget.chainRoundTrips),
  });
}

describe.each([
  ['with Multicall3', true],
  ['without Multicall3', false],
])('on a chain %s', (_, multicall3) => {
  let c: Counters;
  let owner: LocalAccount;
  let identity: Address;
  let claimId: Hex;
  const costs: Record<string, PathCost> = {};

  beforeAll(async () => {
    c = await startCounted(multicall3);
    owner = c.harness.chain.accounts[0]!;
    identity = await c.harness.chain.createIdentityFor(owner.address);
    await c.harness.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
    await addKey(c.harness.chain.as(owner), identity, c.harness.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
    const issued = await fetch(`${c.harness.issuer}/admin/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ identity, topic: 'kyc', data: { level: 'basic' } }),
    });
    expect(issued.status).toBe(201);
    claimId = ((await issued.json()) as { claim_id: Hex }).claim_id;
    // Every process-wide first (scripts loaded, client records cached, Multicall3 learned) before counting.
    await browserLogin({}, 'openid profile email claim:kyc');
  }, 60_000);

  afterAll(async () => {
    if (process.env.BUDGET_TRACE) console.info(`costs ${JSON.stringify(costs)}`);
    c.watching.disconnect();
    c.monitor.disconnect();
    c.marks.disconnect();
    await c.harness.close();
    await Promise.all([c.redis.close(), c.provider.close()]);
  });

  /** A login as the browser makes it, each request counted under `step` when `count` is set. */
  async function browserLogin(body: Record<string, unknown>, scope = SCOPE, count?: (step: string, cost: PathCost) => void) {
    const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
      if (!count) return work();
      const [cost, done] = await costOf(c, work);
      count(name, cost);
      return done;
    };
    const config = await oidc.discovery(new URL(c.harness.issuer), WEBSITE.client_id, WEBSITE.client_secret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const login: LoginStart = await step('authorize', () => startLogin(c.harness.issuer, WEBSITE, { scope }));
    const page = await step('consent page', () => login.agent.fetch(login.interactionUrl, { headers: { accept: 'text/html' } }));
    expect(page.status).toBe(200);
    await page.text();
    const challenge = await step('challenge', () => requestChallenge(login, { address: owner.address, ...body }));
    expect(challenge.status).toBe(200);
    const message = challenge.json.challenge as string;
    const signature = await owner.signMessage({ message });
    const signed = await step('signature', () => submitSignature(login, { signature, message }));
    expect(signed.status).toBe(200);
    const callback = await step('resume', () => followToCallback(login, signed.json.redirect_to as string));
    const tokens = await step('token', () =>
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: login.verifier, expectedState: login.state, expectedNonce: login.nonce }),
    );
    const sub = tokens.claims()!.sub;
    await step('userinfo', () => oidc.fetchUserInfo(config, tokens.access_token, sub));
    return { config, tokens, sub };
  }

  test("the browser's login: each request within its budget", async () => {
    await browserLogin({}, SCOPE, (step, cost) => {
      costs[`browser ${step}`] = cost;
    });
    for (const [step, budget] of Object.entries(PATH_BUDGETS.browserLogin)) withinBudget(`browser ${step}`, costs[`browser ${step}`]!, budget);
  });

  test("the wallet SDK's login (the identity named): each request within its budget", async () => {
    await browserLogin({ identity }, SCOPE, (step, cost) => {
      costs[`wallet SDK ${step}`] = cost;
    });
    for (const [step, budget] of Object.entries(PATH_BUDGETS.walletSdkLogin)) withinBudget(`wallet SDK ${step}`, costs[`wallet SDK ${step}`]!, budget);
  });

  test('userinfo, a refresh, a claim resource read and an access-grant read: each within its budget', async () => {
    const { config, tokens, sub } = await browserLogin({}, 'openid profile email offline_access claim:kyc');
    const [userinfo] = await costOf(c, () => oidc.fetchUserInfo(config, tokens.access_token, sub));
    costs.userinfo = userinfo;
    const [refresh] = await costOf(c, () => oidc.refreshTokenGrant(config, tokens.refresh_token!));
    costs.refresh = refresh;
    const [claimRead, claim] = await costOf(c, () =>
      fetch(`${c.harness.issuer}/identities/${identity}/claims/${claimId}`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
    );
    expect(claim.status).toBe(200);
    costs['claim read'] = claimRead;
    const api = jsonApi(() => c.harness.issuer);
    const key = (await c.harness.signet.apiKeys.create('analytics', 'budgets')).key;
    const request = await api('POST', `/identities/${identity}/profile/access-requests`, { key, body: { kind: 'persistent', fields: ['given_name'] } });
    expect(request.status).toBe(201);
    const validated = await api('POST', `/access-grants/${request.json.id}/validations`, {
      body: { signature: await owner.signMessage({ message: request.json.challenge }) },
    });
    const token = validated.json.access_token as string;
    // The first read under a grant token, then the steady one counted.
    expect((await api('GET', `/identities/${identity}/profile`, { token })).status).toBe(200);
    const [grantRead, read] = await costOf(c, () => api('GET', `/identities/${identity}/profile`, { token }));
    expect(read.status).toBe(200);
    costs['access-grant read'] = grantRead;
    for (const [path, budget] of Object.entries(PATH_BUDGETS.reads)) withinBudget(path, costs[path]!, budget);
  });
});
