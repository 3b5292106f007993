// Anything single-use, redeemed by 50 requests at once, over several rounds, on the real
// redis-server, on a real three-master Redis Cluster and on the memory store: exactly one answer carries tokens, the 49 others get
// invalid_grant, and the grant's tokens (the winner's included) are revoked.
import * as oidc from 'openid-client';
import type { Address, LocalAccount } from 'viem';
import type { ClientConfig } from '../../src/config/config.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { discover, followToCallback, logIn, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { basicAuth, type Harness, KIOSK, startSignet, WEBSITE } from '../support/signet_harness.js';

const PARALLEL = 50;
const ROUNDS = 4;

type TokenAnswer = { status: number; json: Record<string, unknown> };

async function postToken(issuer: string, client: ClientConfig, form: Record<string, string>): Promise<TokenAnswer> {
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { authorization: basicAuth(client), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The same request sent PARALLEL times at once. */
function inParallel(send: () => Promise<TokenAnswer>): Promise<TokenAnswer[]> {
  return Promise.all(Array.from({ length: PARALLEL }, send));
}

function expectOneWinner(answers: TokenAnswer[]): TokenAnswer {
  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  const losers = answers.filter((answer) => answer.status !== 200);
  expect(losers).toHaveLength(PARALLEL - 1);
  for (const loser of losers) expect(loser).toMatchObject({ status: 400, json: { error: 'invalid_grant', reason: 'invalid_grant' } });
  return answers.find((answer) => answer.status === 200)!;
}

async function userinfoStatus(issuer: string, accessToken: string): Promise<number> {
  const response = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
  await response.arrayBuffer();
  return response.status;
}

describe.each(['redis', 'cluster', 'memory'] as const)('single use under %i parallel redemptions (%s store)'.replace('%i', String(PARALLEL)), (store) => {
  let h: Harness;
  let owner: LocalAccount;
  let identity: Address;

  beforeAll(async () => {
    h = await startSignet({ clients: [WEBSITE, KIOSK], store });
    owner = h.chain.accounts[0]!;
    identity = await h.chain.createIdentityFor(owner.address);
    await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });
  }, 60_000);

  afterAll(async () => {
    await h.close();
  });

  test("an authorization code gives tokens once; the losers revoke the grant, the winner's tokens included", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email offline_access' });
      const signed = await signChallenge(login, owner);
      const answer = await submitSignature(login, { signature: signed.signature, message: signed.message });
      expect(answer.status).toBe(200);
      const callback = await followToCallback(login, answer.json.redirect_to as string);
      const code = callback.searchParams.get('code')!;
      const form = { grant_type: 'authorization_code', code, redirect_uri: WEBSITE.redirect_uris[0]!, code_verifier: login.verifier };

      const winner = expectOneWinner(await inParallel(() => postToken(h.issuer, WEBSITE, form)));
      expect(winner.json).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'Bearer' });
      expect(await userinfoStatus(h.issuer, winner.json.access_token as string)).toBe(401);
      const refreshed = await postToken(h.issuer, WEBSITE, { grant_type: 'refresh_token', refresh_token: winner.json.refresh_token as string });
      expect(refreshed).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
      // The code stays spent.
      expect(await postToken(h.issuer, WEBSITE, form)).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    }
  }, 120_000);

  test('a refresh token rotates once; the losers revoke the grant', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email offline_access' });
      const { tokens } = await logIn(login, owner);
      expect(await userinfoStatus(h.issuer, tokens.access_token)).toBe(200);
      const form = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! };

      const winner = expectOneWinner(await inParallel(() => postToken(h.issuer, WEBSITE, form)));
      expect(winner.json.refresh_token).not.toBe(tokens.refresh_token);
      expect(await userinfoStatus(h.issuer, tokens.access_token)).toBe(401);
      expect(await userinfoStatus(h.issuer, winner.json.access_token as string)).toBe(401);
      const next = await postToken(h.issuer, WEBSITE, { grant_type: 'refresh_token', refresh_token: winner.json.refresh_token as string });
      expect(next).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    }
  }, 120_000);

  test('an approved CIBA request gives tokens to one poll only', async () => {
    const config = await discover(h.issuer, KIOSK);
    const { agent } = await signInToAccount(h.issuer, owner);
    for (let round = 0; round < ROUNDS; round++) {
      const started = await oidc.initiateBackchannelAuthentication(config, { scope: 'openid email', login_hint: identity });
      const inbox = await agent.getJson(`${h.issuer}/account/inbox`);
      expect({ status: inbox.status, reason: inbox.json.reason }).toEqual({ status: 200, reason: undefined });
      const request = (inbox.json.backchannel as { id: string; challenge: string }[]).find((one) => one.id === started.auth_req_id)!;
      const approved = await agent.postJson(`${h.issuer}/account/backchannel/${request.id}/approvals`, {
        signature: await owner.signMessage({ message: request.challenge }),
      });
      expect(approved.status).toBe(200);
      const form = { grant_type: 'urn:openid:params:grant-type:ciba', auth_req_id: started.auth_req_id };

      const winner = expectOneWinner(await inParallel(() => postToken(h.issuer, KIOSK, form)));
      expect(await userinfoStatus(h.issuer, winner.json.access_token as string)).toBe(401);
    }
  }, 120_000);
});
