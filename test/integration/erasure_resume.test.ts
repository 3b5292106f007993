// An erasure is a job recorded before it starts: cut short by a process that dies or by a Redis
// that crashes half way, it is finished by whichever process sweeps next, and it ends exactly
// as an uninterrupted one does. Real Redis (append-only, so a crash keeps what it acknowledged)
// and a second Signet process on the same store and chain.
import type { ErasureStep } from '../../src/features/owner_data/erasure_steps.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { ERASURE_TAKEOVER_SLACK_MS } from '../support/bounds.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { basicAuth, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';

let h: Harness;
/** The fault a test plants: run by process `process` just before step `step` of the next erasure. */
let fault: { process: number; step: ErasureStep; act: () => Promise<void> } | undefined;

const LEASE_SECONDS = 1;
const SWEEP_MS = 100;

beforeAll(async () => {
  h = await startSignet({
    peers: 1,
    redisAppendOnly: true,
    erasureSettings: { leaseSeconds: LEASE_SECONDS, sweepMs: SWEEP_MS },
    beforeErasureStep: async (step, process) => {
      if (fault && fault.process === process && fault.step === step) {
        const act = fault.act;
        fault = undefined;
        await act();
      }
    },
  });
}, 60_000);

afterAll(async () => {
  await h.close();
});

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes.
type Json = Record<string, any>;

async function ownerLoggedIn(index: number) {
  const owner = h.chain.accounts[index]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email offline_access' });
  const { tokens } = await logIn(login, owner, { fields: ['given_name', 'email'] });
  const { agent } = await signInToAccount(h.issuer, owner);
  return { owner, identity, tokens, agent };
}

async function askErasure(issuer: string, agent: UserAgent, owner: { signMessage(args: { message: string }): Promise<string> }) {
  const challenge = await agent.postJson(`${issuer}/account/erasure/challenge`, {});
  expect(challenge.status).toBe(200);
  const message = challenge.json.challenge as string;
  const answer = await agent.postJson(`${issuer}/account/erasure`, { signature: await owner.signMessage({ message }), message });
  expect(answer.status).toBe(202);
  return answer.response.headers.get('location')!;
}

/** The job's state, read from `issuer` (the job's id is in the location). */
async function stateAt(issuer: string, location: string): Promise<Json> {
  const answer = await fetch(`${issuer}${new URL(location).pathname}`, { headers: { accept: 'application/json' } });
  return (await answer.json()) as Json;
}

/** The website's refresh through `issuer`: its status and error. */
async function refreshAt(issuer: string, refreshToken: string) {
  const answer = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(WEBSITE), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  return { status: answer.status, error: ((await answer.json()) as Json).error };
}

const ALL_STEPS = ['sessions', 'requests', 'access_grants', 'logins', 'issued_claims', 'data'];

test('Redis crashes mid-erasure: once it is back, the sweep finishes the job from the step it was on', async () => {
  const { owner, identity, tokens, agent } = await ownerLoggedIn(0);
  const peer = h.peers[0]!;
  let crashedAt = 0;
  fault = {
    process: 0,
    step: 'access_grants',
    act: async () => {
      await h.redis.kill();
      crashedAt = Date.now();
    },
  };
  const location = await askErasure(h.issuer, agent, owner);
  await waitUntil('Redis was killed mid-erasure', () => crashedAt > 0);
  await h.redis.start();

  // What the job had recorded before the crash is still there: it stopped after its first two steps.
  let interrupted: Json = {};
  await waitUntil(
    'the store answers again',
    async () => {
      interrupted = await stateAt(peer.url, location);
      return interrupted.status !== undefined;
    },
    10_000,
  );
  expect(interrupted).toMatchObject({ status: 'running', steps_done: ['sessions', 'requests'] });

  peer.signet.erasures.start();
  let done: Json = {};
  await waitUntil(
    'the job is finished',
    async () => {
      done = await stateAt(peer.url, location);
      return done.status === 'done';
    },
    10_000,
  );
  console.log(`erasure finished ${Date.now() - crashedAt} ms after Redis was killed mid-way (lease ${LEASE_SECONDS} s, sweep ${SWEEP_MS} ms)`);
  expect(done.steps_done).toEqual(ALL_STEPS);
  expect(await refreshAt(peer.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
  expect(await peer.signet.profiles.get(identity)).toEqual({});
});

test('a process that dies mid-erasure: the other process finishes the job once the lease lapses', async () => {
  const { owner, identity, tokens, agent } = await ownerLoggedIn(1);
  const peer = h.peers[0]!;
  // Process 0 loses its Redis connection for good before the logins step: a dead process.
  let diedAt = 0;
  fault = {
    process: 0,
    step: 'logins',
    act: async () => {
      await h.store.close();
      diedAt = Date.now();
    },
  };
  const location = await askErasure(h.issuer, agent, owner);
  // The other process is sweeping already (the test above started it): it takes over once the lease lapses.
  let done: Json = {};
  await waitUntil(
    'the other process finished the job',
    async () => {
      done = await stateAt(peer.url, location);
      return done.status === 'done';
    },
    10_000,
  );
  const tookMs = Date.now() - diedAt;
  console.log(`erasure finished by the other process ${tookMs} ms after the first one died (lease ${LEASE_SECONDS} s, sweep ${SWEEP_MS} ms)`);
  expect(done.steps_done).toEqual(ALL_STEPS);
  // No sooner than the lease allows (the dead process still held it), and not much later.
  expect(tookMs).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000 - 200);
  expect(tookMs).toBeLessThan(LEASE_SECONDS * 1000 + 2 * SWEEP_MS + ERASURE_TAKEOVER_SLACK_MS);
  expect(await refreshAt(peer.url, tokens.refresh_token!)).toEqual({ status: 400, error: 'invalid_grant' });
  expect(await peer.signet.profiles.get(identity)).toEqual({});
});
