// Key rotation on a running deployment (real Redis, anvil, ONCHAINID), each step a restart
// with new settings on the same store:
// - JWKS: the first key signs, the others still verify: an ID token signed before the
//   rotation verifies against /jwks after it, until its key is removed.
// - COOKIE_KEYS: the first key signs, the others still verify: a login started before the
//   rotation finishes after it while the old key is second, and is refused once it is gone.
import { createPublicKey, verify } from 'node:crypto';
import { createApp } from '../../src/app/app.js';
import { validateConfig } from '../../src/config/config.js';
import { newSigningKey } from '../../src/infra/keys/new_secrets.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const KEY_A = newSigningKey('RS256', 'key-a');
const KEY_B = newSigningKey('RS256', 'key-b');
const OLD_COOKIE_KEY = 'old-cookie-key-0123456789';
const NEW_COOKIE_KEY = 'new-cookie-key-0123456789';

let h: Harness;

beforeAll(async () => {
  h = await startSignet({ configure: () => ({ jwks: { keys: [KEY_A] }, cookieKeys: [OLD_COOKIE_KEY] }) });
  await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
});

afterAll(async () => {
  await h.close();
});

/** A restart with other keys: a new app on the same server, store and chain. */
function restartWith(settings: { jwks?: { keys: Record<string, unknown>[] }; cookieKeys?: string[] }) {
  const { app } = createApp({
    config: validateConfig({ ...h.config, ...settings }),
    store: h.store,
    chain: { settings: h.config.chains[0]!, client: h.chain.client },
    webhooks: h.webhooks,
    now: h.clock.now,
  });
  h.server.removeAllListeners('request');
  h.server.on('request', app.callback());
}

/** Verifies an RS256 JWT against the JWKS Signet publishes now, as a website would. */
async function verifiesAgainstPublishedKeys(jwt: string): Promise<{ valid: boolean; kid: string }> {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
  const { keys } = (await (await fetch(`${h.issuer}/jwks`)).json()) as { keys: (Record<string, unknown> & { kid: string })[] };
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) return { valid: false, kid };
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  return { valid: verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')), kid };
}

async function idToken(): Promise<string> {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { tokens } = await logIn(login, h.chain.accounts[0]!);
  return tokens.id_token!;
}

test('JWKS rotation: the new first key signs, a token of the old key verifies until the old key is removed', async () => {
  const before = await idToken();
  expect(await verifiesAgainstPublishedKeys(before)).toEqual({ valid: true, kid: 'key-a' });

  restartWith({ jwks: { keys: [KEY_B, KEY_A] } });
  const published = (await (await fetch(`${h.issuer}/jwks`)).json()) as { keys: { kid: string; d?: string }[] };
  expect(published.keys.map((key) => key.kid)).toEqual(['key-b', 'key-a']);
  expect(published.keys.every((key) => key.d === undefined)).toBe(true);
  expect(await verifiesAgainstPublishedKeys(before)).toEqual({ valid: true, kid: 'key-a' });
  const after = await idToken();
  expect(await verifiesAgainstPublishedKeys(after)).toEqual({ valid: true, kid: 'key-b' });

  restartWith({ jwks: { keys: [KEY_B] } });
  expect(await verifiesAgainstPublishedKeys(before)).toEqual({ valid: false, kid: 'key-a' });
  expect(await verifiesAgainstPublishedKeys(after)).toEqual({ valid: true, kid: 'key-b' });
});

test('several signing keys need distinct key ids', () => {
  const { kid: _kid, ...withoutKid } = KEY_B;
  expect(() => validateConfig({ ...h.config, jwks: { keys: [KEY_A, withoutKid] } })).toThrow(
    'configuration: JWKS needs a distinct "kid" on each key when it holds several',
  );
  expect(() => validateConfig({ ...h.config, jwks: { keys: [KEY_A, KEY_A] } })).toThrow(
    'configuration: JWKS needs a distinct "kid" on each key when it holds several',
  );
});

test('COOKIE_KEYS rotation: a cookie signed with the old key is accepted while that key is second, refused once removed', async () => {
  restartWith({ jwks: { keys: [KEY_A] }, cookieKeys: [OLD_COOKIE_KEY] });
  const startedBefore = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const alsoBefore = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });

  restartWith({ jwks: { keys: [KEY_A] }, cookieKeys: [NEW_COOKIE_KEY, OLD_COOKIE_KEY] });
  expect((await startedBefore.agent.getJson(startedBefore.interactionUrl)).status).toBe(200);
  const { tokens } = await logIn(startedBefore, h.chain.accounts[0]!);
  expect(tokens.id_token).toBeDefined();

  restartWith({ jwks: { keys: [KEY_A] }, cookieKeys: [NEW_COOKIE_KEY] });
  const refused = await alsoBefore.agent.getJson(alsoBefore.interactionUrl);
  expect(refused).toEqual({
    status: 403,
    json: expect.objectContaining({ error: 'access_denied', reason: 'interaction_cookie_missing' }),
  });
  // A login started under the new key alone goes through.
  const startedAfter = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  expect((await logIn(startedAfter, h.chain.accounts[0]!)).tokens.id_token).toBeDefined();
});
