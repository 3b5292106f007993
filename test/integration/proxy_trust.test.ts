// TRUST_PROXY: with 0 no X-Forwarded-* header counts; with 1 the client address is the entry
// the one proxy appended (the rightmost) and X-Forwarded-Proto is honoured. The identity
// creation limit (gas paid by the deployer key) cannot be dodged with a forged header.
import * as oidc from 'openid-client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let untrusting: Harness;
let oneProxy: Harness;

const settings = (trustProxy: number) => ({
  trustProxy,
  rateLimits: { identityCreationsPerAddress: { points: 2, seconds: 3600 } },
  configure: () => ({ identityDeployerKey: DEPLOYER_KEY }),
});

beforeAll(async () => {
  untrusting = await startSignet(settings(0));
  oneProxy = await startSignet(settings(1));
}, 90_000);

afterAll(async () => {
  await Promise.all([untrusting?.close(), oneProxy?.close()]);
});

/** A fresh wallet signs in and asks for its identity, with the given X-Forwarded-For. */
async function createIdentity(h: Harness, forwardedFor: string) {
  const { agent } = await signInToAccount(h.issuer, privateKeyToAccount(generatePrivateKey()));
  const response = await agent.fetch(`${h.issuer}/account/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': forwardedFor },
    body: '{}',
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const limited = {
  status: 429,
  json: {
    error: 'rate_limited',
    error_description: expect.stringMatching(/^at most 2 identities created from one address every 3600 s; try again in \d+ s$/),
    reason: 'rate_limited',
  },
};

test('TRUST_PROXY=0: a new X-Forwarded-For per request changes nothing, the socket address counts', async () => {
  expect(untrusting.config.trustProxy).toBe(0);
  expect((await createIdentity(untrusting, '203.0.113.1')).status).toBe(202);
  expect((await createIdentity(untrusting, '203.0.113.2')).status).toBe(202);
  expect(await createIdentity(untrusting, '203.0.113.3')).toEqual(limited);
  expect(await createIdentity(untrusting, '203.0.113.4, 198.51.100.9')).toEqual(limited);
});

test('TRUST_PROXY=1: a forged leftmost entry changes nothing, the rightmost counts', async () => {
  // The proxy appends the address it saw (198.51.100.7); the client chose everything left of it.
  expect((await createIdentity(oneProxy, '10.0.0.1, 198.51.100.7')).status).toBe(202);
  expect((await createIdentity(oneProxy, '10.0.0.2, 198.51.100.7')).status).toBe(202);
  expect(await createIdentity(oneProxy, '10.0.0.3, 198.51.100.7')).toEqual(limited);
  expect(await createIdentity(oneProxy, '198.51.100.7')).toEqual(limited);
  // Another client behind the same proxy has its own count.
  expect((await createIdentity(oneProxy, '198.51.100.7, 198.51.100.8')).status).toBe(202);
});

/** The engine's interaction cookie, set on /auth, is Secure only on a request seen as https. */
async function interactionCookie(h: Harness, headers: Record<string, string>) {
  const config = await oidc.discovery(new URL(h.issuer), WEBSITE.client_id, WEBSITE.client_secret, undefined, {
    execute: [oidc.allowInsecureRequests],
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: WEBSITE.redirect_uris[0]!,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
  });
  const response = await fetch(url, { headers, redirect: 'manual' });
  expect(response.status).toBe(303);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('_interaction='));
  expect(cookie).toBeDefined();
  return cookie!;
}

test('X-Forwarded-Proto is honoured only with TRUST_PROXY of 1 or more', async () => {
  const https = { 'x-forwarded-proto': 'https' };
  expect(await interactionCookie(oneProxy, https)).toMatch(/;\s*secure/i);
  expect(await interactionCookie(oneProxy, {})).not.toMatch(/;\s*secure/i);
  expect(await interactionCookie(untrusting, https)).not.toMatch(/;\s*secure/i);
});
