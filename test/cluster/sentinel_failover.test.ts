// Signet on a master watched by three Sentinels (quorum 2, down-after 1 s), with one replica.
// The master is killed during a light login and token load: the Sentinels promote the replica,
// Signet follows the new master by itself, requests during the switch get fast 503s
// (store_unavailable, none over OUTAGE_ANSWER_MS), and none fails after it.
//
// What an acknowledged write can lose: Redis replicates asynchronously. A write the master
// acknowledged but had not yet sent to the replica when it died is gone on the promoted replica
// (on loopback the lag is well under a millisecond; across machines, the network's latency). For
// Signet that would be a consumed mark of a code or refresh token (the code could be redeemed a
// second time) or a revocation (the revoked tokens would work again until they expire). So
// those writes (the consumed mark, the grant's tombstone and the deletes of its records, a
// grant's status step, a taken challenge) can wait for replicas with WAIT:
// REDIS_WAIT_REPLICAS=1 makes Signet answer them only once a replica holds them, and answer 503
// store_unavailable when none acknowledges within half the command deadline (the WAIT tests).
// It is off by default: with one replica, that replica's outage would stop every login. Other
// writes (sessions, interactions, new tokens) are never waited for: losing one costs the user a
// new login, never a second use.
import type { Address, LocalAccount } from 'viem';
import { keys } from '../../src/infra/store/keys.js';
import { createOidcAdapter } from '../../src/infra/store/oidc_adapter.js';
import { redisConnectionOf } from '../../src/infra/store/redis_connection.js';
import { createRedisStore } from '../../src/infra/store/redis_store.js';
import { OUTAGE_ANSWER_MS, STORE_DOWN_REFUSAL_MS } from '../support/bounds.js';
import { authorizationUrl, followToCallback, logIn, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { basicAuth, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { sleep, waitFor } from '../support/wait_until.js';

type Answer = { name: string; status: number; body: string; ms: number; startedAt: number };
type Probe = { name: string; send(): Promise<Response> };

let h: Harness;
let owner: LocalAccount;
let identity: Address;
let tokens: { access_token: string; refresh_token: string };
let spentCode: Record<string, string>;

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { authorization: basicAuth(WEBSITE), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: new URLSearchParams(fields),
});

beforeAll(async () => {
  h = await startSignet({ store: 'sentinel', deadlines: 'production' });
  owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada' });
  const done = await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile offline_access' }), owner);
  tokens = { access_token: done.tokens.access_token, refresh_token: done.tokens.refresh_token! };
  // A code redeemed before the failover: it must stay spent on the new master.
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  const redeemed = await logIn(login, owner);
  spentCode = {
    grant_type: 'authorization_code',
    code: redeemed.callback.searchParams.get('code')!,
    redirect_uri: WEBSITE.redirect_uris[0]!,
    code_verifier: login.verifier,
  };
}, 60_000);

afterAll(async () => {
  await h.close();
});

function probes(): Probe[] {
  const authorize = authorizationUrl(h.issuer, WEBSITE);
  return [
    { name: 'authorization', send: () => fetch(authorize, { redirect: 'manual', headers: { accept: 'application/json' } }) },
    { name: 'userinfo', send: () => fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } }) },
    { name: 'introspection', send: () => fetch(`${h.issuer}/token/introspection`, form({ token: tokens.access_token })) },
  ];
}

async function run(probe: Probe): Promise<Answer> {
  const startedAt = Date.now();
  const response = await probe.send();
  const body = await response.text();
  return { name: probe.name, status: response.status, body, ms: Date.now() - startedAt, startedAt };
}

const isSuccess = (answer: Answer) => answer.status === 200 || answer.status === 303;

/** Full logins one after another (challenge, signature, code, tokens), each as one answer. */
async function loginLoad(stop: () => boolean): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (!stop()) {
    const startedAt = Date.now();
    try {
      await logIn(await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' }), owner);
      answers.push({ name: 'login', status: 200, body: '', ms: Date.now() - startedAt, startedAt });
    } catch (error) {
      // The driver names the status it met; the probes below hold the exact 503 bodies.
      answers.push({ name: 'login', status: 0, body: String(error), ms: Date.now() - startedAt, startedAt });
      await sleep(20);
    }
  }
  return answers;
}

/** A store on the same Sentinel group that WAITs for one replica, with the adapter over it. */
function waitingAdapter(commandTimeoutMs = h.config.redis.commandTimeoutMs) {
  const store = createRedisStore(redisConnectionOf(h.config)!, { ...h.config.redis, commandTimeoutMs, waitReplicas: 1 });
  return { store, Adapter: createOidcAdapter(store) };
}

test('WAIT with the replica up: a redemption and a revocation are answered once the replica holds them', async () => {
  // A long deadline (WAIT gets half of it): the proof is that the answer comes once the replica
  // holds the write, not how fast a loaded host's replica acknowledges it.
  const { store, Adapter } = waitingAdapter(5000);
  try {
    const refreshTokens = new Adapter('RefreshToken');
    await refreshTokens.upsert('wait-token', { grantId: 'wait-grant', kind: 'RefreshToken' }, 60);
    // Each resolves only if WAIT counted the replica within its bound: a WAIT not met is the
    // store's 503 (the cluster test shows that side), so answering is the proof, not a timer.
    await refreshTokens.consume('wait-token');
    await refreshTokens.revokeByGrantId('wait-grant');
    expect(await refreshTokens.find('wait-token')).toBe(undefined);
    expect(await store.get(keys.revokedGrant('wait-grant'))).toBe('1');
  } finally {
    await store.close();
  }
});

test('the master is killed under load: fast 503s during the switch, Signet follows the new master by itself, none after', async () => {
  const oldMaster = await h.sentinels!.currentMaster();
  let over = false;
  const probeLoad = Promise.all(
    Array.from({ length: 3 }, async (_, worker) => {
      const answers: Answer[] = [];
      const list = probes();
      for (let i = worker; !over; i++) answers.push(await run(list[i % list.length]!));
      return answers;
    }),
  ).then((all) => all.flat());
  const logins = loginLoad(() => over);
  let killedAt = 0;
  let promotedAt = 0;
  let followedAt = 0;
  let lastRound: Answer[] = [];
  try {
    await sleep(500);
    await h.sentinels!.master.stop();
    killedAt = Date.now();
    // The Sentinels elect the replica; then Signet must serve again on its own.
    followedAt = await waitFor(
      'the Sentinels promote the replica and Signet serves every probe again',
      async () => {
        if (!promotedAt && (await h.sentinels!.currentMaster()) !== oldMaster) promotedAt = Date.now();
        lastRound = await Promise.all(probes().map(run));
        return promotedAt > 0 && lastRound.every(isSuccess) && Math.min(...lastRound.map((answer) => answer.startedAt));
      },
      {
        timeoutMs: 20_000,
        everyMs: 50,
        detail: () => `promoted: ${promotedAt > 0}; last round: ${lastRound.map((a) => `${a.name} ${a.status}`).join(', ')}`,
      },
    );
    // The load goes on after the switch for a while on purpose: none of it may fail.
    await sleep(1500);
  } finally {
    over = true;
  }
  const answers = await probeLoad;
  const loginAnswers = await logins;

  const during = answers.filter((answer) => answer.startedAt >= killedAt && answer.startedAt < followedAt);
  const after = answers.filter((answer) => answer.startedAt >= followedAt);
  // No request hangs: everything answered within the outage bound, the failures as the store's outage.
  expect(answers.filter((answer) => answer.ms >= OUTAGE_ANSWER_MS)).toEqual([]);
  for (const answer of answers.filter((one) => !isSuccess(one))) {
    expect({ name: answer.name, status: answer.status, json: JSON.parse(answer.body) }).toEqual({
      name: answer.name,
      status: 503,
      json: expect.objectContaining({ error: 'temporarily_unavailable', reason: 'store_unavailable' }),
    });
  }
  expect(during.filter((answer) => !isSuccess(answer)).length).toBeGreaterThan(0);
  // None after the switch: every probe and every login started afterwards succeeded.
  expect(after.length).toBeGreaterThan(10);
  expect(after.filter((answer) => !isSuccess(answer))).toEqual([]);
  expect(loginAnswers.filter((answer) => answer.startedAt >= followedAt && answer.status !== 200)).toEqual([]);
  expect(loginAnswers.filter((answer) => answer.startedAt >= followedAt).length).toBeGreaterThan(0);

  // What was written before the kill reached the replica: tokens still work, a spent code stays spent.
  expect((await run(probes()[1]!)).status).toBe(200);
  const again = await fetch(`${h.issuer}/token`, form(spentCode));
  expect({ status: again.status, error: ((await again.json()) as { error: string }).error }).toEqual({ status: 400, error: 'invalid_grant' });

  const slowest = Math.max(...answers.map((answer) => answer.ms));
  console.info(
    `sentinel failover: new master named ${promotedAt - killedAt} ms after the kill; Signet served again ${followedAt - killedAt} ms after it; ` +
      `${during.filter((answer) => !isSuccess(answer)).length} fast 503s during the switch (slowest answer ${slowest} ms); ` +
      `${after.length} requests after it, none failed; logins: ${loginAnswers.length} (${loginAnswers.filter((a) => a.status !== 200).length} cut by the switch)`,
  );
}, 60_000);

test('WAIT with no replica left (after the failover): a redemption is refused as store_unavailable, fast, and the code stays spent', async () => {
  const { store, Adapter } = waitingAdapter();
  try {
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('lonely-code', { grantId: 'lonely-grant', kind: 'AuthorizationCode' }, 60);
    const started = Date.now();
    const refused = await codes.consume('lonely-code').catch((error: unknown) => error);
    const ms = Date.now() - started;
    // Half the 500 ms command deadline for WAIT, then the refusal.
    expect({
      code: (refused as { code?: string }).code,
      reason: (refused as { reason?: string }).reason,
      fast: ms >= 240 && ms < STORE_DOWN_REFUSAL_MS,
    }).toEqual({
      code: 'temporarily_unavailable',
      reason: 'store_unavailable',
      fast: true,
    });
    // The mark is on the master: a retry is a second use, never a success (its revocation of
    // the grant cannot be replicated either, so it too is refused as the store's outage).
    expect(await store.get(keys.consumed(keys.model('AuthorizationCode', 'lonely-code')))).toEqual(expect.stringMatching(/^\d+$/));
    await expect(codes.consume('lonely-code')).rejects.toMatchObject({ code: 'temporarily_unavailable', reason: 'store_unavailable' });
  } finally {
    await store.close();
  }
});

test('a login completes on the new master, through code and tokens', async () => {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  const signed = await signChallenge(login, owner);
  const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
  const callback = await followToCallback(login, answer.json.redirect_to as string);
  const redeemed = await fetch(
    `${h.issuer}/token`,
    form({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: WEBSITE.redirect_uris[0]!,
      code_verifier: login.verifier,
    }),
  );
  expect(redeemed.status).toBe(200);
});
