// Signet on a chain as operators run it: a plain chain (no Multicall3 at its canonical address)
// behind two provider-like endpoints (test/support/provider_proxy.ts), each adding 100 ms to every
// request and refusing eth_getLogs over 10 blocks with Alchemy's error, the watcher taking an
// event as settled 3 blocks under the head. A browser's login waits 2 chain round trips (a
// contract wallet's signature is asked beside the live key read); the
// first endpoint dying in a stream of logins fails none of them; a key removed on chain ends the
// website's session within the bound; an event a reorganisation removes before it settles ends
// nothing; a 429's Retry-After keeps the watcher away; falling behind is said once. Real Redis,
// anvil (anvil_reorg), openid-client; the endpoints' URLs carry an API key that must never show.
import { setGlobalConfig } from '@openid4vc/utils';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { getAddress, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ClientConfig } from '../../src/config/config.js';
import { identityAbi, KeyPurpose, keyOf } from '../../src/infra/chain/contracts.js';
import { addKey, removeKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { createLogger } from '../../src/infra/observability/logger.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { CHAIN_END_MS } from '../support/bounds.js';
import { contractWalletInitCode } from '../support/contract_wallet.js';
import { credentialIssuerSettings } from '../support/credential_issuer_settings.js';
import { receive, statusOf } from '../support/credential_wallet.js';
import { captureLogs } from '../support/log_capture.js';
import { logIn, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { FAKE_API_KEY, type ProviderProxy, startProviderProxy } from '../support/provider_proxy.js';
import { type ReceivedRequest, type SignalReceiver, startSignalReceiver } from '../support/signal_receiver.js';
import { type Harness, startSignet } from '../support/signet_harness.js';
import { waitFor, waitUntil } from '../support/wait_until.js';

const LATENCY_MS = 100;
const MAX_LOG_BLOCKS = 10;
const CONFIRMATIONS = 3;
const POLL_MS = 500;
const LAG_WARN_SECONDS = 30;
const ADMIN_TOKEN = 'admin-token-for-the-public-chain-tests';

const SHOP = (logoutUri: string): ClientConfig => ({
  client_id: 'shop',
  client_secret: 'shop-secret-value',
  client_name: 'Shop',
  redirect_uris: ['https://shop.example/callback'],
  post_logout_redirect_uris: [],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'client_secret_basic',
  backchannel_logout_uri: logoutUri,
  backchannel_logout_session_required: true,
});

let h: Harness;
let providers: [ProviderProxy, ProviderProxy];
let logouts: SignalReceiver;
let jwks: ReturnType<typeof createRemoteJWKSet>;
const metrics = createMetrics({ processMetrics: false });
const logs = captureLogs<{ level: string; msg: string }>();

beforeAll(async () => {
  logouts = await startSignalReceiver(200);
  h = await startSignet({
    clients: [SHOP(logouts.url)],
    deadlines: 'production',
    metrics,
    logger: createLogger({ level: 'info', destination: logs.destination }),
    rpcEndpoints: async (chain) => {
      const behaviour = { latencyMs: LATENCY_MS, maxLogBlocks: MAX_LOG_BLOCKS, limitStyle: 'alchemy' as const, hideMulticall3: true };
      providers = [await startProviderProxy(chain.anvil.rpcUrl, behaviour), await startProviderProxy(chain.anvil.rpcUrl, behaviour)];
      return [
        { url: providers[0].url, label: 'provider-a' },
        { url: providers[1].url, label: 'provider-b' },
      ];
    },
    watchChain: true,
    configure: (chain) => ({
      // Credentials too: an ES256 key, the kyc topic with verified data, Signet issuing it.
      ...credentialIssuerSettings(chain, ADMIN_TOKEN),
      webhooks: { allowPrivate: true },
      chainWatch: { enabled: true, pollMs: POLL_MS, confirmations: CONFIRMATIONS, maxBlockRange: 2000, leaseSeconds: 10, lagWarnSeconds: LAG_WARN_SECONDS },
      chainTimeouts: { requestMs: 1500, callMs: 5000, probeMs: 200 },
    }),
  });
  jwks = createRemoteJWKSet(new URL(`${h.issuer}/jwks`));
}, 60_000);

afterAll(async () => {
  await h.close();
  await Promise.all([...providers.map((each) => each.close()), logouts.close()]);
});

const mine = (blocks: number) => h.chain.client.request({ method: 'anvil_mine' as never, params: [`0x${blocks.toString(16)}`] as never });
const head = () => h.chain.client.getBlockNumber({ cacheTime: 0 });
const ethCalls = () => providers.reduce((sum, each) => sum + (each.counts().eth_call ?? 0), 0);
/** The admin's readiness: the endpoints' states are not in the public /readyz. */
const readyz = async () =>
  (await (await fetch(`${h.issuer}/admin/readiness`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as Record<string, unknown> & {
    chain_endpoints?: { endpoints: { label: string; state: string }[] }[];
  };
const endpointState = async (label: string) => (await readyz()).chain_endpoints?.[0]?.endpoints.find((each) => each.label === label)?.state;
const logoutFor = async (request: ReceivedRequest) =>
  (await jwtVerify(new URLSearchParams(request.body).get('logout_token')!, jwks, { issuer: h.issuer, audience: 'shop', typ: 'logout+jwt' })).payload;

/** A person's browser: the authorization request, the consent page, challenge, signature, resume, code, userinfo. */
async function browserLogin(wallet: LocalAccount, body: Record<string, unknown> = {}) {
  const login = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid offline_access' });
  const page = await login.agent.fetch(login.interactionUrl, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  await page.text();
  const { tokens } = await logIn(login, wallet, body);
  const sub = tokens.claims()!.sub;
  await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
  return { login, tokens };
}

test('on a chain without Multicall3, a browser login waits 2 chain round trips, and nothing else asks the chain on its way', async () => {
  const owner = h.chain.accounts[0]!;
  await h.chain.createIdentityFor(owner.address);
  for (const each of providers) each.reset();
  const before = ethCalls();
  await browserLogin(owner);
  expect(ethCalls() - before).toBe(2);
  // What else reached the providers in the meantime was the watcher's (block headers, logs): no Multicall3 look-up.
  const methods = new Set(providers.flatMap((each) => each.log().map((request) => request.method)));
  expect([...methods].filter((method) => !['eth_call', 'eth_getBlockByNumber', 'eth_getLogs'].includes(method))).toEqual([]);
  expect(providers[0].log().some((request) => request.answered === 'multicall_hidden')).toBe(false);
}, 30_000);

test("a contract wallet's signature step: after the getCode that finds its code, its isValidSignature goes out beside the live key read", async () => {
  const owner = h.chain.accounts[4]!;
  const walletKey = h.chain.accounts[5]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const hash = await h.chain.deployer.wallet.sendTransaction({
    data: contractWalletInitCode(walletKey.address),
    account: h.chain.deployer.wallet.account,
    chain: h.chain.deployer.wallet.chain,
  });
  const wallet = getAddress((await h.chain.client.waitForTransactionReceipt({ hash })).contractAddress!);
  await addKey(h.chain.as(owner), identity, wallet, KeyPurpose.ACTION);
  const login = await startLogin(h.issuer, SHOP(logouts.url), { scope: 'openid' });
  const signing = { address: wallet, signMessage: walletKey.signMessage } as unknown as LocalAccount;
  const { message, signature } = await signChallenge(login, signing, { identity });
  for (const each of providers) each.reset();
  const answer = await submitSignature(login, { signature, message });
  expect(answer.status).toBe(200);
  const asked = providers
    .flatMap((each) => each.log())
    .filter((request) => request.method !== 'eth_getBlockByNumber' && request.method !== 'eth_getLogs')
    .sort((a, b) => a.at - b.at);
  expect(asked.map((request) => request.method)).toEqual(['eth_getCode', 'eth_call', 'eth_call']);
  // Each held LATENCY_MS by the provider: the second eth_call was sent before the first could
  // have been answered (two round trips in all, where one after the other made three).
  expect(asked[2]!.at - asked[1]!.at).toBeLessThan(LATENCY_MS);
}, 30_000);

test('the first endpoint dies in the middle of a stream of logins: none fails; it is reported down, probed, and rejoins', async () => {
  const owner = h.chain.accounts[1]!;
  await h.chain.createIdentityFor(owner.address);
  const outcomes: string[] = [];
  let done = 0;
  const lane = async () => {
    for (let i = 0; i < 4; i++) {
      try {
        await browserLogin(owner);
        outcomes.push('ok');
      } catch (error) {
        outcomes.push(String(error));
      }
      done++;
    }
  };
  const lanes = Promise.all([lane(), lane()]);
  await waitUntil('the first logins done', () => done >= 2, 20_000);
  await providers[0].set({ state: 'dead' });
  await lanes;
  expect(outcomes).toEqual(Array(8).fill('ok'));
  expect(await endpointState('provider-a')).toBe('down');
  expect(await endpointState('provider-b')).toBe('up');
  const exposition = await metrics.registry.metrics();
  expect(exposition).toMatch(/signet_chain_endpoint_up\{chain_id="31337",endpoint="provider-a"\} 0/);
  expect(exposition).toMatch(/signet_chain_endpoint_requests_total\{chain_id="31337",endpoint="provider-b",outcome="ok"\} [1-9]/);

  await providers[0].set({ state: 'up' });
  await waitUntil('provider-a rejoins', async () => (await endpointState('provider-a')) === 'up', 10_000);
  // Nowhere the endpoints show does the API key in their URLs appear.
  expect(JSON.stringify(await readyz())).not.toContain(FAKE_API_KEY);
  expect(await metrics.registry.metrics()).not.toContain(FAKE_API_KEY);
  expect(logs.written.join('')).not.toContain(FAKE_API_KEY);
  expect(logs.lines().map((line) => line.msg)).toContainEqual(expect.stringMatching(/RPC endpoint provider-a failed .*calls go to provider-b/));
}, 90_000);

test('through a provider that takes 10 blocks per eth_getLogs, a key removed on chain ends the website session within the bound once it settles', async () => {
  const owner = h.chain.accounts[2]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const phone = privateKeyToAccount(generatePrivateKey());
  await addKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  const { login, tokens } = await browserLogin(phone, { identity });
  const sid = tokens.claims()!.sid as string;
  // Ranges of many blocks behind the watcher's cursor: read 10 at a time.
  await mine(45);
  const before = logouts.requests.length;
  await removeKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  await mine(CONFIRMATIONS);
  const settled = Date.now();
  const [arrived] = await logouts.waitFor('the logout token', (requests) => requests.length > before, CHAIN_END_MS + 5000);
  const payload = await logoutFor(arrived!);
  expect(payload).toMatchObject({ sid });
  console.info(
    `public chain: key removed, settled after ${CONFIRMATIONS} blocks → logout token ${arrived!.at - settled} ms (10-block provider, 100 ms per request)`,
  );
  expect(arrived!.at - settled).toBeLessThanOrEqual(CHAIN_END_MS);
  await expect(oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  // The provider refused wider ranges, and once learned, no query asked more than 10 blocks.
  const getLogs = providers.flatMap((each) => each.log()).filter((request) => request.method === 'eth_getLogs');
  const answered = getLogs.filter((request) => request.answered === 'forwarded');
  const spans = answered.map((request) => {
    const [filter] = request.params as [{ fromBlock: string; toBlock: string }];
    return Number(BigInt(filter.toBlock) - BigInt(filter.fromBlock) + 1n);
  });
  expect(Math.max(...spans)).toBeLessThanOrEqual(MAX_LOG_BLOCKS);
  expect((await readyz()).chain_endpoints?.[0]?.endpoints).toContainEqual(expect.objectContaining({ label: 'provider-a', log_block_range: MAX_LOG_BLOCKS }));
}, 60_000);

test('through the same providers, a credential is issued from the chain and its claim revoked there reaches the status list within the bound', async () => {
  setGlobalConfig({ allowInsecureUrls: true });
  const owner = h.chain.accounts[6]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  const verified = { verification: { trust_framework: 'de_aml', time: '2026-10-01T10:00:00Z' }, claims: { birthdate: '1990-01-01' } };
  const admin = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` };
  const issued = await fetch(`${h.issuer}/admin/claims`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ identity, topic: 'kyc', data: { verified_claims: verified } }),
  });
  expect(issued.status).toBe(201);
  const claimId = ((await issued.json()) as { claim_id: string }).claim_id;
  const { agent } = await signInToAccount(h.issuer, owner);
  const offered = await agent.postJson(`${h.issuer}/account/credential-offers`, { credential_configuration_id: 'age' });
  expect(offered.status).toBe(201);
  const calls = ethCalls();
  const { response } = await receive(offered.json.link as string, offered.json.tx_code as string);
  const credential = (response.credentialResponse.credentials as { credential: string }[])[0]!.credential;
  console.info(`public chain: a credential's issuance asked the chain ${ethCalls() - calls} eth_call(s) (no Multicall3, 100 ms per request)`);
  expect(ethCalls() - calls).toBeLessThanOrEqual(2);
  expect(await statusOf(h.issuer, credential)).toBe(0);

  await mine(45);
  const revoked = await fetch(`${h.issuer}/admin/claims/revocations`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ identity, claim_id: claimId }),
  });
  expect(revoked.status).toBe(200);
  await mine(CONFIRMATIONS);
  const settled = Date.now();
  await waitUntil('the credential is revoked in its status list', async () => (await statusOf(h.issuer, credential)) === 1, CHAIN_END_MS + 5000);
  console.info(`public chain: claim revoked, settled after ${CONFIRMATIONS} blocks → credential revoked in its status list ${Date.now() - settled} ms`);
  expect(Date.now() - settled).toBeLessThanOrEqual(CHAIN_END_MS);
}, 60_000);

test('an event that a reorganisation removes before it settles ends nothing', async () => {
  const owner = h.chain.accounts[3]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const phone = privateKeyToAccount(generatePrivateKey());
  await addKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  const { login, tokens } = await browserLogin(phone, { identity });
  const before = logouts.requests.length;
  await removeKey(h.chain.as(owner), identity, phone.address, KeyPurpose.ACTION);
  const removedIn = await head();
  // A round after the removal was mined: a watcher acting on unsettled blocks would end the login here.
  await h.signet.watcher.round();
  await h.chain.client.request({ method: 'anvil_reorg' as never, params: [1, []] as never });
  expect(
    await h.chain.client.readContract({ address: identity, abi: identityAbi, functionName: 'keyHasPurpose', args: [keyOf(phone.address), KeyPurpose.ACTION] }),
  ).toBe(true);
  await mine(CONFIRMATIONS + 2);
  await waitFor('the watcher past the reorganised block', async () => {
    await h.signet.watcher.round();
    const report = h.signet.watcher.report();
    return report && report.cursor >= Number(removedIn) + 1 ? report : undefined;
  });
  expect(logouts.requests.length).toBe(before);
  expect((await oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).access_token).toEqual(expect.any(String));
}, 60_000);

test('a 429 on both endpoints: the watcher asks neither again before its Retry-After', async () => {
  await waitUntil('both up', async () => (await endpointState('provider-a')) === 'up' && (await endpointState('provider-b')) === 'up', 10_000);
  for (const each of providers) {
    each.reset();
    each.rateLimitNext(1, 2);
  }
  await waitFor('a 429 on each', () => providers.every((each) => each.log().some((request) => request.answered === 'rate_limited')), 5000);
  const limitedAt = Math.min(...providers.map((each) => each.log().find((request) => request.answered === 'rate_limited')!.at));
  await waitFor('the watcher back', () => providers.some((each) => each.log().some((request) => request.answered === 'forwarded')), 10_000);
  for (const each of providers) {
    const next = each.log().find((request) => request.answered !== 'rate_limited');
    if (next) expect(next.at - limitedAt).toBeGreaterThanOrEqual(1900);
  }
}, 30_000);

test('a watcher that cannot reach the settled point says so once at warn, with its lag; and once when it is back', async () => {
  const warnings = () => logs.lines().filter((line) => /has not reached the settled point/.test(line.msg));
  await Promise.all(providers.map((each) => each.set({ state: 'dead' })));
  await h.signet.watcher.round();
  h.clock.advance((LAG_WARN_SECONDS + 1) * 1000);
  await h.signet.watcher.round();
  await h.signet.watcher.round();
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]!.level).toBe('warn');
  await Promise.all(providers.map((each) => each.set({ state: 'up' })));
  await waitFor(
    'the watcher back at the settled point',
    async () => {
      const result = await h.signet.watcher.round();
      return result.outcome === 'followed' && !h.signet.watcher.report()?.behind_since;
    },
    10_000,
  );
  expect(logs.lines().map((line) => line.msg)).toContainEqual('the chain watcher has reached the settled point again');
  const report = h.signet.watcher.report()!;
  expect(report).toMatchObject({ settled_by: `${CONFIRMATIONS} confirmations`, lag_seconds: expect.any(Number) });
  expect(report.settled).toBe(Number((await head()) - BigInt(CONFIRMATIONS)));
  expect(warnings()).toHaveLength(1);
}, 30_000);
