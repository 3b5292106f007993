// Nothing kept without an end, under load: hundreds of real logins (openid-client, wallet
// signatures, anvil), thousands of refreshes of one grant, revocations, and access grants of
// every end, on a real redis-server with every life and retention period set to seconds. The
// grant's record index stays bounded while its tokens rotate, and once the periods have passed
// Redis holds no more keys and no more memory than before, but for the stated bound.
import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import type { RateLimitSettings } from '../../src/config/config.js';
import { loadConfig } from '../../src/config/config.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';
import { sleep, waitUntil } from '../support/wait_until.js';

const LOGINS = 300;
const REVOKED_LOGINS = 150;
const REFRESHES = 2000;
const MIN_REFRESHES = 300;
const ACCESS_GRANTS = 300;
const OWNERS = 4;
const DAY = 86_400;
// Lives in seconds: an access token (and so a consumed refresh token's reuse window) 2 s, a
// refresh token 10 s, a login's grant and session 30 s (the refreshes must fit in them), a wallet
// challenge 30 s (the least the settings allow: the longest tail), retention periods 2 to 3 s.
const ACCESS_TOKEN_SECONDS = 2;
const TTL = { accessToken: ACCESS_TOKEN_SECONDS, idToken: 2, refreshToken: 10, grant: 30, session: 30, interaction: 10 };
const RECEIPT_SECONDS = 2;
const CHALLENGE_SECONDS = 30;
// A revoked login grant leaves a 1-hour mark that refuses records written under it (oidc_adapter.ts).
const REVOKED_GRANT_MARK_BYTES = 200;
// Redis's own overhead may move a little (client buffers, allocator pages): the stated bound.
const MEMORY_SLACK_BYTES = 512 * 1024;

// Every counting class the settings know (the windowed ones; a plain bound has no window), so a
// class added later is shortened here too.
const everyClass = (seconds: number): Partial<RateLimitSettings> =>
  Object.fromEntries(
    Object.entries(loadConfig({}).rateLimits)
      .filter(([, value]) => typeof value === 'object')
      .map(([name]) => [name, { points: 1_000_000, seconds }]),
  );

let h: Harness;
let redis: Redis;
let owners: { wallet: LocalAccount; identity: Address; agent: UserAgent }[];
let apiKey: string;
// When the last key living a challenge's life (30 s) was written: a login's challenge, an immediate grant's token.
let lastThirtySecondKeyAt = 0;

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS],
    challengeTtlSeconds: CHALLENGE_SECONDS,
    rateLimits: everyClass(1),
    configure: () => ({
      ttl: TTL,
      grants: { pendingSeconds: 3, webhookRetryDelaysMs: [50] },
      retention: { receiptDays: RECEIPT_SECONDS / DAY, endedGrantDays: 2 / DAY, endedClaimDays: 2 / DAY, historyDays: 3 / DAY },
    }),
  });
  redis = new Redis(h.redis.url);
  owners = [];
  for (const wallet of h.chain.accounts.slice(0, OWNERS)) {
    const identity = await h.chain.createIdentityFor(wallet.address);
    await h.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
    // Account sessions live 8 hours whatever the settings: opened before the start is measured.
    owners.push({ wallet, identity, agent: (await signInToAccount(h.issuer, wallet)).agent });
  }
  apiKey = (await h.signet.apiKeys.create('analytics', 'soak')).key;
}, 60_000);

afterAll(async () => {
  await redis.quit();
  await h.close();
});

async function api(method: string, path: string, options: { key?: string; token?: string; body?: unknown; agent?: UserAgent } = {}) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
  const response = options.agent ? await options.agent.fetch(`${h.issuer}${path}`, init) : await fetch(`${h.issuer}${path}`, init);
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read into answers of many shapes.
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

/** Runs `count` tasks, `width` at a time. */
async function inParallel(count: number, width: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);

async function usedMemory(): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
}

/** One access grant of each end, in turn: used once, read then revoked, denied, left pending. */
async function accessGrant(i: number) {
  const { wallet, identity, agent } = owners[i % OWNERS]!;
  const kind = i % 4 === 0 ? 'immediate' : 'persistent';
  const request = await api('POST', `/identities/${identity}/profile/access-requests`, { key: apiKey, body: { kind, fields: ['given_name'] } });
  expect(request.status).toBe(201);
  const id = request.json.id as string;
  if (i % 4 === 3) return;
  if (i % 4 === 2) {
    expect((await api('POST', `/access-grants/${id}/denials`, { agent, body: {} })).status).toBe(200);
    return;
  }
  const validated = await api('POST', `/access-grants/${id}/validations`, {
    body: { signature: await wallet.signMessage({ message: request.json.challenge }) },
  });
  expect(validated.status).toBe(200);
  if (kind === 'immediate') {
    lastThirtySecondKeyAt = Date.now();
    expect((await api('GET', `/identities/${identity}/profile`, { token: validated.json.access_token })).status).toBe(200);
    return;
  }
  expect((await api('GET', `/identities/${identity}/profile`, { key: apiKey })).status).toBe(200);
  expect((await api('POST', `/access-grants/${id}/revocations`, { agent, body: {} })).status).toBe(200);
}

test('logins, refreshes, revocations and access grants leave Redis as they found it once their periods pass', async () => {
  // One of each flow first, so that what stays for good (scripts loaded, the webhook stream) is in the start.
  const warmUp = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const warm = await logIn(warmUp, owners[0]!.wallet);
  await oidc.refreshTokenGrant(warmUp.config, warm.tokens.refresh_token!);
  for (let i = 0; i < 4; i++) await accessGrant(i);

  const startKeys = new Set(await redis.keys('*'));
  const start = { keys: startKeys.size, memory: await usedMemory() };
  const peak = { ...start };
  const sampler = setInterval(async () => {
    const [count, memory] = await Promise.all([redis.dbsize(), usedMemory()]);
    peak.keys = Math.max(peak.keys, count);
    peak.memory = Math.max(peak.memory, memory);
  }, 200);
  const began = Date.now();

  try {
    // Logins (each one a challenge signed by a wallet, the engine's code flow, userinfo) beside the access grants.
    const tokens: { config: oidc.Configuration; refresh: string; startedAt: number }[] = [];
    await Promise.all([
      inParallel(LOGINS, 6, async (i) => {
        // Before the login starts: its grant, made during it, lives TTL.grant from later than this.
        const startedAt = Date.now();
        const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
        const { tokens: issued } = await logIn(login, owners[i % OWNERS]!.wallet);
        lastThirtySecondKeyAt = Date.now();
        await oidc.fetchUserInfo(login.config, issued.access_token, issued.claims()!.sub);
        tokens.push({ config: login.config, refresh: issued.refresh_token!, startedAt });
      }),
      inParallel(ACCESS_GRANTS, 2, accessGrant),
    ]);
    // The grant refreshed below, and the first one revoked, come from logins made now: on a loaded
    // host the phase above can outlast a refresh token's 10 s, and a token gone has no grant left
    // to refresh or to revoke.
    const freshLogin = async () => {
      const startedAt = Date.now();
      const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
      const { tokens: issued } = await logIn(login, owners[0]!.wallet);
      lastThirtySecondKeyAt = Date.now();
      return { config: login.config, refresh: issued.refresh_token!, startedAt };
    };
    const rotating = await freshLogin();
    const revokedFirst = await freshLogin();
    const loginsDone = Date.now();

    // Revocations of about half the logins (their grants go at once), while one grant is refreshed
    // thousands of times. After the fresh one, the newest logins first: their tokens live longest.
    const revoked = [revokedFirst, ...tokens.reverse()];
    const revocations = inParallel(REVOKED_LOGINS, 2, async (i) => oidc.tokenRevocation(revoked[i]!.config, revoked[i]!.refresh));
    const index = keys.grantIndex((await h.signet.provider.RefreshToken.find(rotating.refresh))!.grantId!);
    let refresh = rotating.refresh;
    const finished: number[] = [];
    let largest = 0;
    let boundHeld = true;
    // The rotating grant lives TTL.grant from its login: the refreshes stop 3 s before that, since
    // a refresh past it is refused by design.
    const refreshUntil = rotating.startedAt + (TTL.grant - 3) * 1000;
    for (let i = 0; i < REFRESHES && Date.now() < refreshUntil; i++) {
      refresh = (await oidc.refreshTokenGrant(rotating.config, refresh)).refresh_token!;
      finished.push(Date.now());
      if (i % 50 === 49) {
        const size = await redis.zcard(index);
        largest = Math.max(largest, size);
        // Listed: the grant, its live refresh token, and per refresh of the last window (plus a
        // second of slack) one access token and one consumed refresh token; counting the login as
        // one, for its code and first access token.
        const since = Date.now() - (ACCESS_TOKEN_SECONDS + 1) * 1000;
        const recent = finished.filter((at) => at >= since).length;
        if (size > 2 * (recent + 1) + 2) boundHeld = false;
      }
    }
    await revocations;
    const refreshesDone = Date.now();
    const refreshed = finished.length;
    // Enough refreshes for pruning to show (unpruned, the index would hold twice as many members
    // as refreshes), however slow the host: 2,000 fit on an idle one.
    expect(refreshed).toBeGreaterThanOrEqual(MIN_REFRESHES);
    const rate = Math.round(refreshed / ((refreshesDone - loginsDone) / 1000));

    // Every period ends by itself: the last challenge and one-time token 30 s after they were issued,
    // the receipts 32 s after their login, the last refresh token 10 s after the last refresh.
    // The TTLs are the subject and Redis keeps them on its own clock: a real wait, until the last
    // of them ends (each set as short as the load above allows), then a poll for Redis's reclaiming.
    const settled =
      Math.max(lastThirtySecondKeyAt + CHALLENGE_SECONDS * 1000, loginsDone + (TTL.grant + RECEIPT_SECONDS) * 1000, refreshesDone + TTL.refreshToken * 1000) +
      1000;
    await sleep(Math.max(0, settled - Date.now()));
    const bound = { keys: start.keys + REVOKED_LOGINS, memory: start.memory + REVOKED_LOGINS * REVOKED_GRANT_MARK_BYTES + MEMORY_SLACK_BYTES };
    // Redis reclaims expired keys in the background: poll until it has, with a bound.
    await waitUntil('Redis has reclaimed the expired keys', async () => (await redis.dbsize()) <= bound.keys, 15_000);
    clearInterval(sampler);
    const end = { keys: await redis.dbsize(), memory: await usedMemory() };
    const left = await redis.keys('*');
    const marks = left.filter((key) => /^signet:oidc:\{grant:[^}]+\}:revoked$/.test(key));
    // Nothing written during the run outlives its period: what is left was there at the start (profiles, account sessions, the API key, the webhook stream).
    const survivors = left.filter((key) => !marks.includes(key) && !startKeys.has(key));

    console.info(
      [
        `retention soak: ${LOGINS} logins and ${ACCESS_GRANTS} access grants in ${seconds(began, loginsDone)} s, ${refreshed} refreshes of one grant (${rate}/s) and ${REVOKED_LOGINS} revocations in ${seconds(loginsDone, refreshesDone)} s, all ended ${seconds(began, Date.now())} s after the start`,
        `keys: start ${start.keys}, peak ${peak.keys}, end ${end.keys} (bound ${bound.keys}: the start + ${REVOKED_LOGINS} revoked-grant marks of 1 h; ${end.keys - marks.length} besides the marks)`,
        `used_memory: start ${start.memory}, peak ${peak.memory}, end ${end.memory} (bound ${bound.memory})`,
        `grant record index: largest ${largest} members over ${refreshed} refreshes (without pruning it would hold ${2 * refreshed + 2})`,
      ].join('\n'),
    );
    expect(boundHeld).toBe(true);
    // One mark per revoked grant; a login whose refresh token had already expired (10 s) when
    // its revocation came, on a loaded host, had no grant left to revoke and leaves none.
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.length).toBeLessThanOrEqual(REVOKED_LOGINS);
    expect(survivors).toEqual([]);
    expect(end.keys).toBeLessThanOrEqual(bound.keys);
    expect(end.memory).toBeLessThanOrEqual(bound.memory);
    expect(await redis.exists(index)).toBe(0);
  } finally {
    clearInterval(sampler);
  }
}, 120_000);

test('then every owner erases their data: within the proof period nothing of theirs is left but the challenges they signed, which end with their life', async () => {
  const erasures = await Promise.all(
    owners.map(async ({ wallet, agent }) => {
      const challenge = await api('POST', '/account/erasure/challenge', { agent });
      expect(challenge.status).toBe(200);
      const message = challenge.json.challenge as string;
      const accepted = await api('POST', '/account/erasure', { agent, body: { signature: await wallet.signMessage({ message }), message } });
      expect(accepted.status).toBe(202);
      return accepted.json.id as string;
    }),
  );
  const erased = Date.now();
  await waitUntil(
    'every erasure is done',
    async () => {
      const states = await Promise.all(erasures.map(async (id) => (await api('GET', `/account/erasures/${id}`)).json.status));
      return states.every((status) => status === 'done');
    },
    15_000,
  );
  // The receipts kept as proof and the ended access grants live 2 s here: the TTL is the subject,
  // kept by Redis's clock, so a real wait until it has ended (and a second for EXPIRE's rounding).
  await sleep(Math.max(0, erased + (RECEIPT_SECONDS + 1) * 1000 - Date.now()));
  const naming: Record<string, number> = {};
  for (const key of await redis.keys('*')) {
    const type = await redis.type(key);
    const text =
      type === 'string'
        ? ((await redis.get(key)) ?? '')
        : type === 'hash'
          ? JSON.stringify(await redis.hgetall(key))
          : type === 'set'
            ? (await redis.smembers(key)).join(' ')
            : type === 'zset'
              ? (await redis.zrange(key, '0', '-1')).join(' ')
              : '';
    const haystack = `${key} ${text}`.toLowerCase();
    if (owners.some(({ identity }) => haystack.includes(identity.slice(2).toLowerCase()))) naming[key] = await redis.ttl(key);
  }
  const kinds = [...new Set(Object.keys(naming).map((key) => key.replace(/\{challenge:[^}]+\}/, '{challenge:<nonce>}')))];
  console.info(
    `erasure soak: ${owners.length} owners erased; keys naming them ${RECEIPT_SECONDS + 1} s later: ${Object.keys(naming).length} (${kinds.join(', ') || 'none'})`,
  );
  expect(kinds.filter((kind) => kind !== 'signet:{challenge:<nonce>}')).toEqual([]);
  for (const [key, ttl] of Object.entries(naming)) expect([key, ttl > 0 && ttl <= CHALLENGE_SECONDS]).toEqual([key, true]);
}, 60_000);
