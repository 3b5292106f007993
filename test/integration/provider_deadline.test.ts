// The deadline of data held elsewhere, timed: with Information Provider B hanging (connections
// accepted, no answer), every step of a login at A answers within the chain's deadline plus
// PROVIDER_TIMEOUT_MS (and a slack), the claim released without data, provider_unavailable;
// the challenge step does not wait for B at all. Two Signet processes, each with its own Redis,
// one anvil, a proxy in front of B (test/support/provider_pair.ts), production chain deadlines.
import * as oidc from 'openid-client';
import { PROVIDER_SLACK_MS } from '../support/bounds.js';
import { kycLoginAtA, onchainClaimsOf, ownerWithKyc, type ProviderPair, startProviderPair } from '../support/provider_pair.js';

const TIMEOUT_MS = 500;
const RECHECK_SECONDS = 5;
let pair: ProviderPair;
let chainDeadlineMs: number;

beforeAll(async () => {
  pair = await startProviderPair({ timeoutMs: TIMEOUT_MS, recheckSeconds: RECHECK_SECONDS, deadlines: 'production' });
  chainDeadlineMs = pair.a.config.chainTimeouts.requestMs;
}, 120_000);

afterAll(async () => {
  await pair?.close();
});

afterEach(() => {
  pair.proxy.delayMs = 0;
});

/** B accepts every connection and answers nothing for ten times A's deadline. */
const hang = () => {
  pair.proxy.delayMs = 10 * TIMEOUT_MS;
};

test("B hangs at the first login: the challenge does not wait for it, B's challenge and the signature answer within the deadlines", async () => {
  const { owner, claimId } = await ownerWithKyc(pair, { level: 'basic' });
  hang();
  const times: Record<string, number> = {};
  const { providerChallenges, tokens } = await kycLoginAtA(pair, owner, { timed: (step, ms) => (times[step] = ms) });
  expect(providerChallenges).toEqual([{ claim_id: claimId, data_status: 'provider_unavailable' }]);
  expect(onchainClaimsOf(tokens.claims()!)[0]).toMatchObject({ claim_id: claimId, valid: true, data_status: 'provider_unavailable' });
  console.info(`B hanging, first login: ${JSON.stringify(times)}`);
  expect(times.challenge).toBeLessThan(chainDeadlineMs + PROVIDER_SLACK_MS);
  expect(times['provider-challenges']).toBeLessThan(TIMEOUT_MS + PROVIDER_SLACK_MS);
  expect(times.signature).toBeLessThan(chainDeadlineMs + TIMEOUT_MS + PROVIDER_SLACK_MS);
}, 30_000);

test('B hangs at a later login and at a userinfo past the recheck bound: each answers within the deadlines, without the data', async () => {
  const { owner, claimId } = await ownerWithKyc(pair, { level: 'basic' });
  await kycLoginAtA(pair, owner);
  hang();
  const times: Record<string, number> = {};
  const { tokens } = await kycLoginAtA(pair, owner, { timed: (step, ms) => (times[step] = ms) });
  expect(onchainClaimsOf(tokens.claims()!)[0]).toMatchObject({ claim_id: claimId, data_status: 'provider_unavailable' });
  expect(times.signature).toBeLessThan(chainDeadlineMs + TIMEOUT_MS + PROVIDER_SLACK_MS);

  // A copy older than the recheck bound is read again at B first: B hanging costs userinfo the provider deadline, no more.
  pair.proxy.delayMs = 0;
  const fresh = await kycLoginAtA(pair, owner);
  expect(onchainClaimsOf(fresh.tokens.claims()!)[0]).toMatchObject({ data: { level: 'basic' } });
  pair.a.clock.advance((RECHECK_SECONDS + 1) * 1000);
  hang();
  const started = performance.now();
  const userinfo = await oidc.fetchUserInfo(fresh.login.config, fresh.tokens.access_token, fresh.tokens.claims()!.sub);
  const userinfoMs = performance.now() - started;
  console.info(`B hanging: later login ${JSON.stringify(times)}, userinfo ${Math.round(userinfoMs)} ms`);
  expect(onchainClaimsOf(userinfo)[0]).toMatchObject({ claim_id: claimId, data_status: 'provider_unavailable' });
  expect(userinfoMs).toBeLessThan(chainDeadlineMs + TIMEOUT_MS + PROVIDER_SLACK_MS);
}, 30_000);
