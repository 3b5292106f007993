// The counters of a step counted together (consumeAll) on a real redis-server, a real cluster
// and in memory: one consume after the other (the first over its limit is refused and stops the
// rest), on the library's own keys, by the library's own script, one per counter; a check is the
// library's read; with Redis down both fail closed, fast.
import { Redis } from 'ioredis';
import { SignetError } from '../../src/base/errors.js';
import type { RateLimitSettings } from '../../src/config/config.js';
import { createRateLimits, type RateLimits } from '../../src/infra/rate_limits/rate_limits.js';
import { keys } from '../../src/infra/store/keys.js';
import { createRedisStore } from '../../src/infra/store/redis_store.js';
import { STORE_DOWN_REFUSAL_MS } from '../support/bounds.js';
import { type RedisServer, startRedisServer } from '../support/redis_server.js';
import { backendForTests, clusterBackend, memoryBackend, redisBackend } from '../support/store_backends.js';
import { waitUntil } from '../support/wait_until.js';

const window = (points: number, seconds = 60) => ({ points, seconds });
const SETTINGS: RateLimitSettings = {
  challengesPerAddress: window(2),
  challengesPerInteraction: window(3, 300),
  signaturesPerAddress: window(30),
  signaturesPerInteraction: window(10, 300),
  failedSignaturesPerChallenge: 5,
  accountSignInsPerAddress: window(20, 600),
  tokenFailuresPerClient: window(2, 600),
  accessRequestsPerService: window(120),
  publicReadsPerAddress: window(120),
  identityCreationsPerAddress: window(5, 3600),
  identityCreationsPerWallet: window(3, 86400),
  registrationsPerAddress: window(20, 3600),
  authorizationsPerAddress: window(300),
  pushedRequestsPerAddress: window(600),
  backchannelStartsPerAddress: window(60),
  backchannelStartsPerClient: window(120),
  backchannelStartsPerIdentity: window(5, 600),
  backchannelPendingPerIdentity: 3,
  grantAttemptsPerAddress: window(120),
  grantAttemptsPerGrant: window(5, 600),
};

/** The refusal's description, or "counted" when both counters took the request. */
async function answer(work: Promise<void>): Promise<string> {
  try {
    await work;
    return 'counted';
  } catch (error) {
    if (error instanceof SignetError && error.status === 429) return error.message.replace(/try again in \d+ s/, 'try again in N s');
    throw error;
  }
}

const ADDRESS_OVER = 'at most 2 challenges requested from one address every 60 s; try again in N s';
const LOGIN_OVER = 'at most 3 challenges requested for one login or sign-in every 300 s; try again in N s';

describe.each([redisBackend, clusterBackend, memoryBackend])('the counters of a step ($name)', (backend) => {
  const b = backendForTests(backend);
  let limits: RateLimits;

  beforeEach(() => {
    limits = createRateLimits(b.store, SETTINGS);
  });

  const both = (address: string, login: string) =>
    limits.consumeAll([
      ['challengesPerAddress', address],
      ['challengesPerInteraction', login],
    ]);

  test('the first counter over its limit is refused and the second is not counted', async () => {
    expect(await answer(both('192.0.2.1', 'login-a'))).toBe('counted');
    expect(await answer(both('192.0.2.1', 'login-a'))).toBe('counted');
    expect(await answer(both('192.0.2.1', 'login-a'))).toBe(ADDRESS_OVER);
    expect(await answer(both('192.0.2.1', 'login-a'))).toBe(ADDRESS_OVER);
    // login-a was counted twice: one more from elsewhere passes, the next is over.
    expect(await answer(both('192.0.2.2', 'login-a'))).toBe('counted');
    expect(await answer(both('192.0.2.2', 'login-a'))).toBe(LOGIN_OVER);
  });

  test('the counters are the library’s own: consume and consumeAll count on the same keys', async () => {
    await limits.consume('challengesPerAddress', '192.0.2.3');
    expect(await answer(both('192.0.2.3', 'login-b'))).toBe('counted');
    expect(await answer(limits.consume('challengesPerAddress', '192.0.2.3'))).toBe(ADDRESS_OVER);
    await limits.consume('challengesPerInteraction', 'login-c');
    await limits.consume('challengesPerInteraction', 'login-c');
    expect(await answer(both('192.0.2.4', 'login-c'))).toBe('counted');
    expect(await answer(both('192.0.2.5', 'login-c'))).toBe(LOGIN_OVER);
  });

  test('a check refuses at the limit without counting, with the time left', async () => {
    await limits.check('tokenFailuresPerClient', 'client@192.0.2.6');
    await limits.count('tokenFailuresPerClient', 'client@192.0.2.6');
    await limits.check('tokenFailuresPerClient', 'client@192.0.2.6');
    await limits.count('tokenFailuresPerClient', 'client@192.0.2.6');
    const refused = await limits.check('tokenFailuresPerClient', 'client@192.0.2.6').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SignetError);
    expect((refused as SignetError).status).toBe(429);
    expect((refused as SignetError).retryAfterSeconds).toBeGreaterThan(590);
    expect((refused as SignetError).retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  test('concurrent requests: exactly the limit passes', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => answer(both('192.0.2.7', `login-${i}`))));
    expect(answers.filter((a) => a === 'counted')).toHaveLength(2);
    expect(answers.filter((a) => a === ADDRESS_OVER)).toHaveLength(10);
  });
});

describe('on one redis-server', () => {
  let server: RedisServer;
  let admin: Redis;
  let monitor: Awaited<ReturnType<Redis['monitor']>>;
  const seen: string[] = [];
  let store: ReturnType<typeof createRedisStore> | undefined;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
    monitor = await admin.monitor();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua') seen.push(args[0]!.toLowerCase());
    });
  });
  afterAll(async () => {
    await store?.close();
    await server.stop();
  });

  /** Until MONITOR has reported a PING sent now: every earlier command is in `seen`. */
  async function caughtUp() {
    const pings = seen.filter((command) => command === 'ping').length;
    await admin.ping();
    await waitUntil('MONITOR reported the PING', () => seen.filter((command) => command === 'ping').length > pings);
  }

  async function commandsOf(work: () => Promise<unknown>): Promise<string[]> {
    await caughtUp();
    seen.length = 0;
    await work();
    await caughtUp();
    return seen.filter((command) => command !== 'ping');
  }

  test("a counter's window starts at its first count and later counts do not move it; its script runs at most two commands", async () => {
    const local = createRedisStore(server.url);
    const limits = createRateLimits(local, SETTINGS);
    const count = () => limits.consume('signaturesPerAddress', '192.0.2.77');
    const key = `${keys.rateLimitPrefix('signaturesPerAddress')}:192.0.2.77`;
    const window = SETTINGS.signaturesPerAddress.seconds * 1000;
    const inScripts: string[] = [];
    const listen = (_time: string, args: string[], source: string) => {
      if (source === 'lua') inScripts.push(args[0]!.toLowerCase());
    };
    monitor.on('monitor', listen);
    try {
      await commandsOf(count);
      const first = await admin.pttl(key);
      expect(first).toBeGreaterThan(window - 1000);
      expect(first).toBeLessThanOrEqual(window);
      await admin.pexpire(key, 5_000);
      await commandsOf(count);
      expect(await admin.get(key)).toBe('2');
      // The second count kept the window's end.
      expect(await admin.pttl(key)).toBeLessThanOrEqual(5_000);
      // Within the limit a count reads no time left: the count alone.
      expect(inScripts).toEqual(['incrby', 'expire', 'incrby']);
      // A counter left without a life (none should be) gets the window's once it passes the
      // limit, where its time left is read: a refusal that would otherwise never end.
      await admin.persist(key);
      await admin.set(key, String(SETTINGS.signaturesPerAddress.points));
      const refused = await count().catch((error: unknown) => error);
      expect({ status: (refused as SignetError).status, reason: (refused as SignetError).reason }).toEqual({ status: 429, reason: 'rate_limited' });
      expect(await admin.pttl(key)).toBeGreaterThan(window - 1000);
      expect(inScripts).toEqual(['incrby', 'expire', 'incrby', 'incrby', 'pttl', 'expire']);
    } finally {
      monitor.off('monitor', listen);
      await local.close();
    }
  });

  test('one script per counter, a check in one GET (the time left read only when over), and Redis down fails closed within the bound', async () => {
    store = createRedisStore(server.url);
    const limits = createRateLimits(store, SETTINGS);
    const both = () =>
      limits.consumeAll([
        ['challengesPerAddress', '192.0.2.9'],
        ['challengesPerInteraction', 'login-z'],
      ]);
    // The first use of a script sends its text; later ones its hash.
    await both();
    await limits.check('tokenFailuresPerClient', 'c@192.0.2.9');
    expect(await commandsOf(both)).toEqual(['evalsha', 'evalsha']);
    expect(await commandsOf(() => limits.check('tokenFailuresPerClient', 'c@192.0.2.9'))).toEqual(['get']);
    await limits.count('tokenFailuresPerClient', 'c@192.0.2.9');
    await limits.count('tokenFailuresPerClient', 'c@192.0.2.9');
    const over = await commandsOf(() => limits.check('tokenFailuresPerClient', 'c@192.0.2.9').catch((error: unknown) => error));
    expect(over).toEqual(['get', 'multi', 'get', 'pttl', 'exec']);

    monitor.disconnect();
    await admin.quit();
    await server.stop();
    for (const work of [both, () => limits.check('tokenFailuresPerClient', 'c@192.0.2.9')]) {
      const started = performance.now();
      const refused = await work().catch((error: unknown) => error);
      expect(performance.now() - started).toBeLessThan(STORE_DOWN_REFUSAL_MS);
      expect(refused).toBeInstanceOf(SignetError);
      expect({ status: (refused as SignetError).status, reason: (refused as SignetError).reason }).toEqual({ status: 503, reason: 'store_unavailable' });
    }
  });
});
