// Following the chain, on real parts: a real anvil with the ONCHAINID contracts, a real Redis,
// two Signet processes on them (one holds the watcher's lease), the chain read through a proxy
// the test can cut. Transactions come from the owners' wallets and the issuer's key, never
// through Signet's watcher; what the watcher hands on is recorded by the handlers given to
// each process.
import { type Address, type Hex, keccak256, type LocalAccount, toEventSelector } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { identityEvents, issuerEvents } from '../../src/domain/watch/chain_events.js';
import { type ChainConsentHandlers, createChainWatcher, type RoundResult } from '../../src/domain/watch/chain_watcher.js';
import { createWatchlist } from '../../src/domain/watch/watchlist.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { send } from '../../src/infra/chain/chain_writes.js';
import { claimIssuerArtifact, identityAbi, identityArtifact, KeyPurpose, keyOf } from '../../src/infra/chain/contracts.js';
import type { SettledPoint } from '../../src/infra/chain/settled_point.js';
import { addKey, removeKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { keys } from '../../src/infra/store/keys.js';
import { createMemoryStore } from '../../src/infra/store/memory_store.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { CHAIN_EVENT_HANDLED_MS, TAKEOVER_SLACK_MS, WATCH_ROUND_MS } from '../support/bounds.js';
import { kycIssuedBySignet } from '../support/kyc_claims.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { waitUntil } from '../support/wait_until.js';

const ADMIN_TOKEN = 'admin-token-for-the-chain-watch-tests';
const POLL_MS = 100;
const LEASE_SECONDS = 1;
const MAX_BLOCK_RANGE = 5;
const KYC = 1;

type Seen = {
  process: number;
  type: keyof ChainConsentHandlers;
  event: Record<string, unknown> & { transactionHash: Hex; logIndex: number; blockNumber: bigint };
  at: number;
};
const seen: Seen[] = [];
/** Throws once for the event that matches, as a handler whose process died mid-range would. */
let failOnce: ((seen: Seen) => boolean) | undefined;

function recorder(process: number): ChainConsentHandlers {
  const record = (type: keyof ChainConsentHandlers) => async (event: Seen['event']) => {
    const entry = { process, type, event, at: Date.now() };
    if (failOnce?.(entry)) {
      failOnce = undefined;
      throw new Error('a handler failed mid-range');
    }
    seen.push(entry);
  };
  return {
    onKeyRemoved: record('onKeyRemoved'),
    onKeyAdded: record('onKeyAdded'),
    onClaimRemoved: record('onClaimRemoved'),
    onClaimChanged: record('onClaimChanged'),
    onClaimRevoked: record('onClaimRevoked'),
  };
}

let h: Harness;
const metrics = createMetrics({ processMetrics: false });
/** eth_getLogs calls Signet's chain client made (both processes share it). */
let getLogsCalls = 0;

const countingFetch =
  (fetchFn: typeof fetch): typeof fetch =>
  async (input, init) => {
    if (typeof init?.body === 'string' && init.body.includes('"eth_getLogs"')) getLogsCalls++;
    return fetchFn(input, init);
  };

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    peers: 1,
    chainProxy: true,
    metrics,
    chainClient: (chain, rpcUrl) => createChainClient(rpcUrl, chain.anvil.chainId, { pollingInterval: 50, callTimeoutMs: 5000, observe: countingFetch }),
    chainConsentHandlers: recorder,
    configure: (chain) => ({
      chainWatch: { enabled: true, pollMs: POLL_MS, confirmations: 0, maxBlockRange: MAX_BLOCK_RANGE, leaseSeconds: LEASE_SECONDS },
      ...kycIssuedBySignet(chain),
      adminToken: ADMIN_TOKEN,
    }),
  });
  await followed();
}, 60_000);

afterAll(async () => {
  await h.close();
});

const processes = () => [h.signet, h.peers[0]!.signet];
/** The process whose watcher holds the lease (and has read the head), if any. */
const holder = () => processes().findIndex((signet) => signet.watcher.report() !== undefined);
const urlOf = (process: number) => (process === 0 ? h.issuer : h.peers[0]!.url);

/** Waits until a watcher holds the lease and has caught up with the chain's head. */
async function followed(timeoutMs = 5000) {
  const head = await h.chain.client.getBlockNumber({ cacheTime: 0 });
  await waitUntil(
    'a watcher follows the chain up to its head',
    () => processes().some((signet) => (signet.watcher.report()?.cursor ?? -1) >= Number(head)),
    timeoutMs,
  );
}

async function rpc(method: string, params: unknown[] = []) {
  const response = await fetch(h.chain.anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: unknown };
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}
const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);

const seenIn = (hash: Hex) => seen.filter((entry) => entry.event.transactionHash === hash);

async function waitForSeen(what: string, hash: Hex, count = 1, timeoutMs = 5000) {
  await waitUntil(what, () => seenIn(hash).length >= count, timeoutMs);
  return seenIn(hash);
}

async function counter(metric: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> }, labels: Record<string, string>) {
  const { values } = await metric.get();
  return values.filter((one) => Object.entries(labels).every(([name, value]) => one.labels[name] === value)).reduce((sum, one) => sum + one.value, 0);
}

/** A fresh identity for a fresh wallet (the wallet holds its MANAGEMENT key), funded by anvil. */
async function newOwner(): Promise<{ owner: LocalAccount; identity: Address }> {
  const owner = privateKeyToAccount(generatePrivateKey());
  await rpc('anvil_setBalance', [owner.address, '0x56BC75E2D63100000']);
  const identity = await h.chain.createIdentityFor(owner.address);
  return { owner, identity };
}

test('the event ABIs the watcher filters by are those of the ONCHAINID artifacts', () => {
  const artifactEvent = (abi: readonly unknown[], name: string) =>
    (abi as { type: string; name: string; inputs: { type: string; indexed: boolean }[] }[]).find((item) => item.type === 'event' && item.name === name)!;
  const shape = (item: { inputs: readonly { type: string; indexed?: boolean }[] }) =>
    item.inputs.map((input) => `${input.type}${input.indexed ? ' indexed' : ''}`);
  for (const event of identityEvents) {
    const real = artifactEvent(identityArtifact.abi, event.name);
    expect([event.name, toEventSelector(event), shape(event)]).toEqual([real.name, toEventSelector(real as never), shape(real)]);
  }
  const revoked = artifactEvent(claimIssuerArtifact.abi, 'ClaimRevoked');
  expect([toEventSelector(issuerEvents[0]), shape(issuerEvents[0])]).toEqual([toEventSelector(revoked as never), ['bytes indexed']]);
});

test("a login and an access grant list their identity: for the login grant's life, a one-time grant's token, a lasting grant until revoked; never shortened", async () => {
  const { Redis } = await import('ioredis');
  const client = new Redis(h.redis.url);
  try {
    const { owner, identity } = await newOwner();
    const score = async (member: string = identity) => client.zscore(keys.watchedIdentities(), member);
    const loginStarted = Date.now();
    await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid' }), owner);
    const afterLogin = Number(await score());
    expect(afterLogin).toBeGreaterThanOrEqual(loginStarted + h.config.ttl.grant * 1000 - 2000);
    expect(afterLogin).toBeLessThanOrEqual(Date.now() + h.config.ttl.grant * 1000 + 1000);

    // A one-time access grant, shorter than the login's grant: the listing stays as it was.
    await h.signet.profiles.set(identity, { given_name: 'Ada' });
    const apiKey = (await h.signet.apiKeys.create('analytics')).key;
    const ask = async (kind: 'immediate' | 'persistent') => {
      const asked = await fetch(`${h.issuer}/identities/${identity}/profile/access-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ kind, fields: ['given_name'] }),
      });
      expect(asked.status).toBe(201);
      return (await asked.json()) as { id: string; challenge: string };
    };
    const once = await ask('immediate');
    const validated = await fetch(`${h.issuer}/access-grants/${once.id}/validations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signature: await owner.signMessage({ message: once.challenge }) }),
    });
    expect(validated.status).toBe(200);
    expect(Number(await score())).toBe(afterLogin);

    // A lasting grant: listed on its own until revoked, and the index never expires meanwhile.
    const lasting = await ask('persistent');
    const { agent } = await signInToAccount(h.issuer, owner);
    const post = (path: string, body: unknown) =>
      agent.fetch(`${h.issuer}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(`/access-grants/${lasting.id}/validations`, { signature: await owner.signMessage({ message: lasting.challenge }) })).status).toBe(200);
    expect(await score(`${identity}:${lasting.id}`)).toBe('inf');
    expect(await client.pttl(keys.watchedIdentities())).toBe(-1);
    expect((await h.signet.watchlist.identities()).filter((one) => one === identity)).toEqual([identity]);
    // A later login moves the identity's own listing later, never earlier.
    await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid' }), owner);
    expect(Number(await score())).toBeGreaterThanOrEqual(afterLogin);

    // Revoked: its listing goes; the identity stays listed for its login, and the index has an end again.
    expect((await post(`/access-grants/${lasting.id}/revocations`, {})).status).toBe(200);
    expect(await score(`${identity}:${lasting.id}`)).toBe(null);
    expect(await h.signet.watchlist.identities()).toContain(identity);
    expect(await client.pttl(keys.watchedIdentities())).toBeGreaterThan(0);
    await h.signet.watchlist.unwatch(identity);
    expect(await h.signet.watchlist.identities()).not.toContain(identity);
  } finally {
    await client.quit();
  }
});

test('(a) a key removed by the management wallet on the chain reaches onKeyRemoved within a poll or two', async () => {
  const { owner, identity } = await newOwner();
  const second = privateKeyToAccount(generatePrivateKey());
  await addKey(h.chain.as(owner), identity, second.address, KeyPurpose.ACTION);
  // Listed by a real login, as a website's would.
  await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid' }), owner);
  await followed();

  const sent = Date.now();
  const receipt = await removeKey(h.chain.as(owner), identity, second.address, KeyPurpose.ACTION);
  const mined = Date.now();
  const [removed] = await waitForSeen('the removal reaches onKeyRemoved', receipt.transactionHash, 1, 5000);
  expect(removed!.type).toBe('onKeyRemoved');
  expect(removed!.event).toEqual({
    identity,
    key: keyOf(second.address),
    purpose: KeyPurpose.ACTION,
    keyType: 1n,
    blockNumber: receipt.blockNumber,
    transactionHash: receipt.transactionHash,
    logIndex: expect.any(Number),
  });
  console.log(
    `(a) key removed: handler called ${removed!.at - mined} ms after the transaction's receipt (${removed!.at - sent} ms after it was sent); poll ${POLL_MS} ms`,
  );
  expect(removed!.at - mined).toBeLessThan(CHAIN_EVENT_HANDLED_MS);
});

test('(e) the claim events: ClaimChanged and ClaimRemoved on a watched identity, ClaimRevoked on the trusted issuer, KeyAdded, in chain order', async () => {
  const { owner, identity } = await newOwner();
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  await h.signet.watchlist.watch(identity, 0);
  await followed();
  const before = seen.length;
  const issue = async (data: Record<string, unknown>) => {
    const response = await fetch(`${h.issuer}/admin/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ identity, topic: 'kyc', data }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { claim_id: Hex; claim: { signature: Hex } };
  };
  const first = await issue({ level: 'basic' });
  // Issued again: the claim on the identity changes, and the first signature is revoked.
  const second = await issue({ level: 'enhanced' });
  const revoked = await fetch(`${h.issuer}/admin/claims/revocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ identity, claim_id: second.claim_id }),
  });
  expect(revoked.status).toBe(200);
  const removal = await send(h.chain.as(owner), { address: identity, abi: identityAbi, functionName: 'removeClaim', args: [second.claim_id] });
  const spare = privateKeyToAccount(generatePrivateKey());
  const added = await addKey(h.chain.as(owner), identity, spare.address, KeyPurpose.ACTION);
  await waitForSeen('the key added reaches onKeyAdded', added.transactionHash);

  const recorded = seen.slice(before);
  const issuer = h.chain.suite.claimIssuer;
  // Signet revokes the replaced signature, then changes the claim.
  expect(recorded.map((entry) => entry.type)).toEqual(['onClaimRevoked', 'onClaimChanged', 'onClaimRevoked', 'onClaimRemoved', 'onKeyAdded']);
  const byType = (type: Seen['type']) => recorded.filter((entry) => entry.type === type).map((entry) => entry.event);
  expect(byType('onClaimChanged')).toEqual([expect.objectContaining({ identity, claimId: second.claim_id, topic: BigInt(KYC), issuer })]);
  expect(byType('onClaimRevoked')).toEqual([
    expect.objectContaining({ issuer, signatureHash: keccak256(first.claim.signature) }),
    expect.objectContaining({ issuer, signatureHash: keccak256(second.claim.signature) }),
  ]);
  expect(byType('onClaimRemoved')).toEqual([
    expect.objectContaining({ identity, claimId: second.claim_id, topic: BigInt(KYC), issuer, transactionHash: removal.transactionHash }),
  ]);
  expect(byType('onKeyAdded')[0]).toEqual(expect.objectContaining({ identity, key: keyOf(spare.address), purpose: KeyPurpose.ACTION }));
  // Chain order: by block, then by log index.
  const places = recorded.map((entry) => [entry.event.blockNumber, entry.event.logIndex] as const);
  expect([...places].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1))).toEqual(places);
  await h.signet.watchlist.unwatch(identity);
});

test('(b) watchers stopped while events are mined, then started again: every event handled, once', async () => {
  const { owner, identity } = await newOwner();
  await h.signet.watchlist.watch(identity, 0);
  await followed();
  for (const signet of processes()) await signet.watcher.stop();
  const cursorAtStop = Number(await h.store.get(keys.watchCursor()));

  // Three times more blocks than a range: the next round handles several ranges.
  const wallets = Array.from({ length: 4 }, () => privateKeyToAccount(generatePrivateKey()));
  const hashes: Hex[] = [];
  for (const wallet of wallets) {
    hashes.push((await addKey(h.chain.as(owner), identity, wallet.address, KeyPurpose.ACTION)).transactionHash);
    await mine(MAX_BLOCK_RANGE);
  }
  hashes.push((await removeKey(h.chain.as(owner), identity, wallets[0]!.address, KeyPurpose.ACTION)).transactionHash);
  expect(hashes.flatMap(seenIn)).toEqual([]);
  expect(Number(await h.store.get(keys.watchCursor()))).toBe(cursorAtStop);

  const restarted = Date.now();
  for (const signet of processes()) signet.watcher.start();
  for (const hash of hashes) await waitForSeen('each event mined while stopped is handled', hash);
  await followed();
  console.log(`(b) restart: ${hashes.length} events over ${4 * (MAX_BLOCK_RANGE + 1) + 1} blocks handled ${Date.now() - restarted} ms after the start`);
  // Each exactly once, in the order mined.
  expect(hashes.map((hash) => seenIn(hash).length)).toEqual([1, 1, 1, 1, 1]);
  expect(hashes.map((hash) => seenIn(hash)[0]!.type)).toEqual(['onKeyAdded', 'onKeyAdded', 'onKeyAdded', 'onKeyAdded', 'onKeyRemoved']);
  await h.signet.watchlist.unwatch(identity);
});

test('(b) a handler that fails mid-range: the cursor stays, the range is read again, the events before the failure come twice (idempotency)', async () => {
  const { owner, identity } = await newOwner();
  await h.signet.watchlist.watch(identity, 0);
  await followed();
  for (const signet of processes()) await signet.watcher.stop();
  const [a, b] = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
  const first = await addKey(h.chain.as(owner), identity, a.address, KeyPurpose.ACTION);
  const second = await addKey(h.chain.as(owner), identity, b.address, KeyPurpose.ACTION);
  failOnce = (entry) => entry.event.transactionHash === second.transactionHash;
  const errorsBefore = await counter(metrics.chainWatchErrors, { stage: 'handler' });
  for (const signet of processes()) signet.watcher.start();
  await waitForSeen('the second event is handled after the failure', second.transactionHash);
  expect(failOnce).toBeUndefined();
  expect(seenIn(first.transactionHash)).toHaveLength(2);
  expect(seenIn(second.transactionHash)).toHaveLength(1);
  expect(await counter(metrics.chainWatchErrors, { stage: 'handler' })).toBe(errorsBefore + 1);
  await h.signet.watchlist.unwatch(identity);
});

test('(d) a chain outage: rounds fail and are counted, the cursor stays; after it, the events mined meanwhile are delivered', async () => {
  const { owner, identity } = await newOwner();
  await h.signet.watchlist.watch(identity, 0);
  await followed();
  const following = holder();
  const cursorBefore = Number(await h.store.get(keys.watchCursor()));
  const errorsBefore = await counter(metrics.chainWatchErrors, { stage: 'chain' });

  await h.chainProxy!.set('refuse');
  const wallet = privateKeyToAccount(generatePrivateKey());
  // Mined meanwhile (the test's own client reaches anvil directly).
  const added = await addKey(h.chain.as(owner), identity, wallet.address, KeyPurpose.ACTION);
  const removed = await removeKey(h.chain.as(owner), identity, wallet.address, KeyPurpose.ACTION);
  await waitUntil('rounds fail on the chain', async () => (await counter(metrics.chainWatchErrors, { stage: 'chain' })) >= errorsBefore + 3, 5000);
  expect(seenIn(added.transactionHash)).toEqual([]);
  expect(Number(await h.store.get(keys.watchCursor()))).toBe(cursorBefore);
  const failed = processes()[following]!.watcher.report();
  expect(failed?.last_error?.stage).toBe('chain');

  await h.chainProxy!.set('pass');
  const back = Date.now();
  await waitForSeen('the removal mined during the outage is delivered', removed.transactionHash);
  console.log(
    `(d) outage: ${(await counter(metrics.chainWatchErrors, { stage: 'chain' })) - errorsBefore} failed rounds counted; events delivered ${Date.now() - back} ms after the chain came back`,
  );
  expect(seenIn(added.transactionHash).map((entry) => entry.type)).toEqual(['onKeyAdded']);
  expect(seenIn(removed.transactionHash).map((entry) => entry.type)).toEqual(['onKeyRemoved']);
  await followed();

  // Readiness (the admin's details) of the process that follows the chain reports the lag and the last error; it stays ready.
  const now = holder();
  const ready = await fetch(`${urlOf(now)}/admin/readiness`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(ready.status).toBe(200);
  const body = (await ready.json()) as { chain_watch?: { lag_blocks: number; cursor: number; head: number; last_error?: { stage: string } } };
  expect(body.chain_watch).toMatchObject({ lag_blocks: 0 });
  if (now === following) expect(body.chain_watch?.last_error?.stage).toBe('chain');
  // The other process says nothing of the watcher.
  const other = (await (await fetch(`${urlOf(1 - now)}/admin/readiness`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as Record<
    string,
    unknown
  >;
  expect(other.chain_watch).toBeUndefined();
  await h.signet.watchlist.unwatch(identity);
});

/** A watcher of its own on a memory store, with a settled point, recording the KeyAdded events it hands on. */
function keyAddedWatcher(settled: SettledPoint) {
  const memory = createMemoryStore();
  const watchlist = createWatchlist(memory, Date.now);
  const handled: Hex[] = [];
  const handlers = { ...recorder(8), onKeyAdded: async (event: { transactionHash: Hex }) => void handled.push(event.transactionHash) };
  const watcher = createChainWatcher({ store: memory, client: h.chain.client, watchlist, issuers: [], handlers, settings: h.config.chainWatch, settled });
  return { watcher, watchlist, handled };
}

test('confirmations: an event counts once its block is that many under the head; the lag says how far behind', async () => {
  const { watcher: confirmed, watchlist, handled } = keyAddedWatcher({ confirmations: 2 });
  await confirmed.round();
  const { owner, identity } = await newOwner();
  await watchlist.watch(identity, 0);
  const added = await addKey(h.chain.as(owner), identity, privateKeyToAccount(generatePrivateKey()).address, KeyPurpose.ACTION);
  // Rounds at the key's block, one above it, two above it: only the last hands it on.
  const seenAt: boolean[] = [];
  for (const step of [0, 1, 1]) {
    if (step) await mine(step);
    await confirmed.round();
    seenAt.push(handled.includes(added.transactionHash));
  }
  expect(seenAt).toEqual([false, false, true]);
  expect(confirmed.report()).toMatchObject({ lag_blocks: 2, cursor: Number(added.blockNumber) });
});

test("the node's safe block as the settled point: an event counts once that block reaches it (anvil: 32 under the head)", async () => {
  const { watcher: safe, watchlist, handled } = keyAddedWatcher({ tag: 'safe' });
  // Past anvil's first 32 blocks, where its safe block is still the genesis.
  await mine(40);
  await safe.round();
  const { owner, identity } = await newOwner();
  await watchlist.watch(identity, 0);
  const added = await addKey(h.chain.as(owner), identity, privateKeyToAccount(generatePrivateKey()).address, KeyPurpose.ACTION);
  const safeBlock = async () => (await h.chain.client.getBlock({ blockTag: 'safe' })).number;
  await mine(Number(added.blockNumber - (await safeBlock())) - 1);
  await safe.round();
  expect(await safeBlock()).toBe(added.blockNumber - 1n);
  expect(handled).not.toContain(added.transactionHash);
  await mine(1);
  await safe.round();
  expect(handled).toContain(added.transactionHash);
  expect(safe.report()).toMatchObject({ settled_by: 'safe', cursor: Number(added.blockNumber), settled: Number(added.blockNumber) });
});

test('0 confirmations: an event that a reorganisation later removes has ended the consent all the same (the safe side)', async () => {
  const { watcher: newest, watchlist, handled } = keyAddedWatcher({ confirmations: 0 });
  await newest.round();
  const { owner, identity } = await newOwner();
  await watchlist.watch(identity, 0);
  const added = await addKey(h.chain.as(owner), identity, privateKeyToAccount(generatePrivateKey()).address, KeyPurpose.ACTION);
  await newest.round();
  expect(handled).toContain(added.transactionHash);
  await h.chain.client.request({ method: 'anvil_reorg' as never, params: [1, []] as never });
  await mine(2);
  await newest.round();
  // The reorganised block was read once; nothing undoes what its event did.
  expect(handled.filter((hash) => hash === added.transactionHash)).toHaveLength(1);
  expect(await h.chain.client.getTransactionReceipt({ hash: added.transactionHash }).catch(() => undefined)).toBeUndefined();
});

test('(f) cost: one eth_getLogs per chunk of watched addresses per range, none with no block, none with nothing watched', async () => {
  for (const signet of processes()) await signet.watcher.stop();
  // From an empty watchlist (the logins above listed their identities for a day).
  await h.store.delete(keys.watchedIdentities());
  try {
    await costRounds();
  } finally {
    // The watched addresses leave; the watchers go back to their timers.
    await h.store.delete(keys.watchedIdentities());
    for (const signet of processes()) signet.watcher.start();
  }
  await followed();
}, 120_000);

async function costRounds() {
  // Rounds by hand, on process 0 (it takes the lease once the stopped holder's last second has passed).
  const round = async () => {
    let result: RoundResult | undefined;
    await waitUntil(
      'process 0 follows the chain',
      async () => {
        result = await h.signet.watcher.round();
        return result.outcome === 'followed';
      },
      3000,
    );
    return result!;
  };
  await round();
  const measure = async (rounds: number) => {
    const results: { getLogs: number; calls: number; ms: number }[] = [];
    for (let i = 0; i < rounds; i++) {
      await mine(1);
      const calls = getLogsCalls;
      const result = await round();
      results.push({ getLogs: result.getLogs, calls: getLogsCalls - calls, ms: result.ms });
    }
    return results;
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const report: string[] = [];
  const chunksFor = (identities: number) => Math.ceil((identities + 1) / 1000); // + the issuer
  let listed = (await h.signet.watchlist.identities()).length;
  for (const target of [0, 1000, 10_000]) {
    const added = Array.from({ length: target - listed }, () => privateKeyToAccount(generatePrivateKey()).address);
    for (let i = 0; i < added.length; i += 500)
      await Promise.all(added.slice(i, i + 500).map((identity) => h.signet.watchlist.watch(identity, Date.now() + 600_000)));
    listed = (await h.signet.watchlist.identities()).length;
    expect(listed).toBe(target);
    const results = await measure(10);
    expect(results.map((one) => one.getLogs)).toEqual(Array(10).fill(chunksFor(target)));
    expect(results.map((one) => one.calls)).toEqual(Array(10).fill(chunksFor(target)));
    const ms = results.map((one) => one.ms);
    report.push(
      `${target} watched: ${chunksFor(target)} eth_getLogs per round, round median ${median(ms).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`,
    );
    expect(Math.max(...ms)).toBeLessThan(WATCH_ROUND_MS);
  }
  // No new block: no eth_getLogs, however many are watched.
  const calls = getLogsCalls;
  const idle = await round();
  expect([idle.getLogs, getLogsCalls - calls]).toEqual([0, 0]);
  report.push(`10000 watched, no new block: 0 eth_getLogs, round ${idle.ms.toFixed(1)} ms`);

  // Nothing watched and no issuer: no eth_getLogs at all, and the cursor still moves.
  let alone = 0;
  const client = createChainClient(h.chain.anvil.rpcUrl, h.chain.anvil.chainId, {
    observe: (fetchFn) => async (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"eth_getLogs"')) alone++;
      return fetchFn(input, init);
    },
  });
  const memory = createMemoryStore();
  const own = createMetrics({ processMetrics: false });
  const empty = createChainWatcher({
    store: memory,
    client,
    watchlist: createWatchlist(memory, Date.now),
    issuers: [],
    handlers: recorder(9),
    settings: h.config.chainWatch,
    metrics: own,
  });
  const start = await empty.round();
  await mine(3 * MAX_BLOCK_RANGE);
  const after = await empty.round();
  expect([start.getLogs, after.getLogs, alone]).toEqual([0, 0, 0]);
  expect(empty.report()?.lag_blocks).toBe(0);
  expect([
    await counter(own.chainWatchLeaseHeld, {}),
    await counter(own.chainWatchLag, {}),
    await counter(own.chainWatchRounds, { outcome: 'followed' }),
  ]).toEqual([1, 0, 2]);
  report.push('nothing watched, no issuer: 0 eth_getLogs over 15 new blocks');
  console.log(`(f) cost:\n  ${report.join('\n  ')}`);
}

test('(c) two processes, one follows: its store gone, the other takes over within the lease and a poll, and goes on', async () => {
  await followed();
  const first = holder();
  expect(first).toBeGreaterThanOrEqual(0);
  // Only one of them holds the lease.
  expect(processes().filter((signet) => signet.watcher.report() !== undefined)).toHaveLength(1);
  const other = 1 - first;
  const dying = first === 0 ? h.store : h.peers[0]!.store;
  const died = Date.now();
  await dying.close();
  await waitUntil('the other process takes over', () => processes()[other]!.watcher.report() !== undefined, 5000);
  const tookOver = Date.now() - died;
  console.log(
    `(c) takeover: process ${other} follows the chain ${tookOver} ms after process ${first}'s store closed (lease ${LEASE_SECONDS} s, poll ${POLL_MS} ms)`,
  );
  expect(tookOver).toBeLessThanOrEqual(LEASE_SECONDS * 1000 + POLL_MS + TAKEOVER_SLACK_MS);

  // It goes on from the cursor: an event now reaches the new holder's handlers.
  const { owner, identity } = await newOwner();
  await processes()[other]!.watchlist.watch(identity, 0);
  const wallet = privateKeyToAccount(generatePrivateKey());
  const added = await addKey(h.chain.as(owner), identity, wallet.address, KeyPurpose.ACTION);
  const [handled] = await waitForSeen('the new holder hands on an event', added.transactionHash);
  expect(handled!.process).toBe(other);
});
