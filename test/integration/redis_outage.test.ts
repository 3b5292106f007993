// Redis killed under a light load of mixed requests, then started again on the same port:
// every route that needs Redis (the engine's included) answers 503 temporarily_unavailable
// with reason store_unavailable within 1 s, no request waits over 2 s, /readyz says so, and
// service resumes within 2 s of Redis being back, without a restart.

import type { Address, LocalAccount } from 'viem';
import { READINESS_FRESH_MS } from '../../src/features/health/readiness_probe.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { OUTAGE_ANSWER_MS, STORE_DOWN_REFUSAL_MS, STORE_RECOVERY_MS } from '../support/bounds.js';
import { authorizationUrl, type LoginStart, logIn, startLogin } from '../support/login_driver.js';
import { basicAuth, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';
import { sleep, waitUntil } from '../support/wait_until.js';

type Answer = { name: string; status: number; body: string; ms: number; startedAt: number };
type Probe = { name: string; send(): Promise<Response> };

let h: Harness;
let owner: LocalAccount;
let identity: Address;
let tokens: { access_token: string; refresh_token: string };
let pending: LoginStart;
let account: UserAgent;

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { authorization: basicAuth(WEBSITE), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: new URLSearchParams(fields),
});

beforeAll(async () => {
  // Append-only Redis: what was written survives the kill, as on a production Redis with AOF.
  h = await startSignet({ redisAppendOnly: true, deadlines: 'production' });
  owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada' });
  const done = await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile offline_access' }), owner);
  tokens = { access_token: done.tokens.access_token, refresh_token: done.tokens.refresh_token! };
  pending = await startLogin(h.issuer, WEBSITE);
  account = (await signInToAccount(h.issuer, owner)).agent;
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** Requests that all need Redis and change nothing while it is up. */
function readProbes(): Probe[] {
  const authorize = authorizationUrl(h.issuer, WEBSITE);
  const json = { headers: { accept: 'application/json' } };
  return [
    { name: 'userinfo', send: () => fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } }) },
    { name: 'introspection', send: () => fetch(`${h.issuer}/token/introspection`, form({ token: tokens.access_token })) },
    { name: 'authorization', send: () => fetch(authorize, { redirect: 'manual', ...json }) },
    { name: 'interaction', send: () => pending.agent.fetch(pending.interactionUrl, json) },
    { name: 'account consents', send: () => account.fetch(`${h.issuer}/account/consents`, json) },
    { name: 'grant list', send: () => account.fetch(`${h.issuer}/access-grants?identity=${identity}`, json) },
  ];
}

async function run(probe: Probe): Promise<Answer> {
  const startedAt = Date.now();
  const response = await probe.send();
  const body = await response.text();
  return { name: probe.name, status: response.status, body, ms: Date.now() - startedAt, startedAt };
}

/** A light load: `workers` loops sending the probes in turn until `stop` says so. */
async function load(probes: Probe[], workers: number, stop: () => boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = worker; !stop(); i++) answers.push(await run(probes[i % probes.length]!));
    }),
  );
  return answers;
}

const isSuccess = (answer: Answer) => answer.status === 200 || answer.status === 303;
const readyz: Probe = { name: 'readyz', send: () => fetch(`${h.issuer}/readyz`) };

test('Redis killed under load: 503 store_unavailable within 1 s everywhere; back within 2 s once Redis returns', async () => {
  const probes = readProbes();
  for (const answer of await Promise.all(probes.map(run))) expect({ name: answer.name, ok: isSuccess(answer) }).toEqual({ name: answer.name, ok: true });

  // The refresh is sent only while Redis is down: had one been consumed, it would fail later.
  const refresh: Probe = {
    name: 'refresh',
    send: () => fetch(`${h.issuer}/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })),
  };
  let over = false;
  const before = load(probes, 4, () => over);
  await sleep(200);
  over = true;
  const up = await before;
  expect(up.filter((answer) => !isSuccess(answer))).toEqual([]);

  await h.redis.kill();
  const killedAt = Date.now();
  over = false;
  const running = load([...probes, refresh], 4, () => over);
  await sleep(1500);
  h.clock.advance(READINESS_FRESH_MS + 1); // a probe made during the outage, not one kept from before
  const ready = await run(readyz);
  over = true;
  const during = await running;

  expect(during.filter((answer) => answer.ms >= OUTAGE_ANSWER_MS)).toEqual([]);
  expect(during.length).toBeGreaterThan(20);
  expect(new Set(during.map((answer) => answer.name))).toEqual(new Set([...probes, refresh].map((probe) => probe.name)));
  for (const answer of during) {
    expect({ name: answer.name, status: answer.status, json: JSON.parse(answer.body), fast: answer.ms < STORE_DOWN_REFUSAL_MS }).toEqual({
      name: answer.name,
      status: 503,
      json: expect.objectContaining({ error: 'temporarily_unavailable', reason: 'store_unavailable' }),
      fast: true,
    });
  }
  const slowest = Math.max(...during.map((answer) => answer.ms));
  expect(ready.status).toBe(503);
  expect(JSON.parse(ready.body)).toMatchObject({ error: 'temporarily_unavailable', reason: 'store_unavailable' });

  // Redis back with its data: every probe answers as before within 2 s of Redis accepting
  // connections, without a restart of Signet.
  await h.redis.start();
  const backAt = Date.now();
  let lastRound: Answer[] = [];
  await waitUntil(
    'every probe answers as before Redis went down',
    async () => {
      lastRound = await Promise.all(probes.map(run));
      return lastRound.every(isSuccess);
    },
    { timeoutMs: STORE_RECOVERY_MS, everyMs: 25, detail: () => lastRound.map((answer) => `${answer.name} ${answer.status}`).join(', ') },
  );
  const recoveryMs = Date.now() - backAt;
  expect({ withinTwoSeconds: recoveryMs < STORE_RECOVERY_MS }).toEqual({ withinTwoSeconds: true });
  h.clock.advance(READINESS_FRESH_MS + 1);
  expect((await run(readyz)).status).toBe(200);
  // The refreshes refused during the outage consumed nothing: the token still rotates.
  expect((await run(refresh)).status).toBe(200);
  console.info(`redis outage: ${during.length} answers in ${Date.now() - killedAt} ms, slowest ${slowest} ms; recovered in ${recoveryMs} ms`);
}, 60_000);

test('a browser gets a page that says Signet is unavailable, with status 503, from the engine and from Signet', async () => {
  await h.redis.kill();
  try {
    const interaction = await pending.agent.fetch(pending.interactionUrl, { headers: { accept: 'text/html' } });
    expect(interaction.status).toBe(503);
    const interactionPage = await interaction.text();
    expect(interactionPage).toContain('Signet is unavailable for a moment');
    expect(interactionPage).toContain('store_unavailable');

    const started = Date.now();
    const response = await fetch(authorizationUrl(h.issuer, WEBSITE), {
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    const page = await response.text();
    expect(Date.now() - started).toBeLessThan(STORE_DOWN_REFUSAL_MS);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(page).toContain('Signet is unavailable for a moment');
    expect(page).toContain('store_unavailable');
  } finally {
    await h.redis.start();
  }
});

test('a Redis that hangs (connections open, no answer): 503 store_unavailable within 1 s, then service resumes', async () => {
  const userinfo = readProbes()[0]!;
  let last: Answer | undefined;
  const served = (when: string) =>
    waitUntil(
      `userinfo is served ${when}`,
      async () => {
        last = await run(userinfo);
        return last.status === 200;
      },
      { timeoutMs: STORE_RECOVERY_MS, detail: () => `last ${last?.status}: ${last?.body}` },
    );
  await served('with Redis back from the test before');
  h.redis.pause();
  try {
    const answers = await Promise.all(Array.from({ length: 5 }, () => run(userinfo)));
    for (const answer of answers) {
      // Refused by the command deadline (500 ms), not by a dropped connection.
      expect({ status: answer.status, reason: JSON.parse(answer.body).reason, byDeadline: answer.ms >= 450 && answer.ms < STORE_DOWN_REFUSAL_MS }).toEqual({
        status: 503,
        reason: 'store_unavailable',
        byDeadline: true,
      });
    }
  } finally {
    h.redis.resume();
  }
  await served('once Redis answers again');
});
