// Logs and metrics of a real login (real Redis, anvil, ONCHAINID): every line is JSON with the
// request id, an incoming X-Request-Id is kept and returned, the engine's refusals are logged
// as warnings, and nothing secret or personal reaches the log: not the code, the tokens, the
// signature, the cookies or the e-mail. The metrics count the login by outcome and reason.
import { createLogger } from '../../src/infra/observability/logger.js';
import { createMetrics } from '../../src/infra/observability/metrics.js';
import { captureLogs } from '../support/log_capture.js';
import { logIn, startLogin, submitSignature } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

type Line = Record<string, unknown> & { level: string; msg: string; request_id?: string };

let h: Harness;
let identity: `0x${string}`;
const { written, destination, lines } = captureLogs<Line>();
const metrics = createMetrics({ processMetrics: false });
const EMAIL = 'grace.hopper@example.org';

beforeAll(async () => {
  h = await startSignet({ logger: createLogger({ level: 'debug', destination }), metrics });
  identity = await h.chain.createIdentityFor(h.chain.accounts[0]!.address);
  await h.signet.profiles.set(identity, { given_name: 'Grace', email: EMAIL });
});

afterAll(async () => {
  await h.close();
});

test('a login: JSON lines with request ids, and no code, token, signature, cookie or e-mail in them', async () => {
  written.length = 0;
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email' });
  const { tokens, callback, signed } = await logIn(login, h.chain.accounts[0]!);
  const userinfo = await fetch(`${h.issuer}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(((await userinfo.json()) as { email: string }).email).toBe(EMAIL);

  const log = written.join('');
  const secrets = {
    code: callback.searchParams.get('code')!,
    access_token: tokens.access_token,
    id_token: tokens.id_token!,
    refresh_token: tokens.refresh_token!,
    signature: signed.signature,
    email: EMAIL,
    ...Object.fromEntries(login.agent.cookieValues().map((value, i) => [`cookie ${i}`, value])),
  };
  expect(Object.keys(secrets).length).toBeGreaterThan(7); // the interaction and session cookies are there
  for (const [name, secret] of Object.entries(secrets)) {
    expect(secret.length).toBeGreaterThan(10);
    expect({ name, found: log.includes(secret) }).toEqual({ name, found: false });
  }
  // Nor their halves (a token cut in a message), nor the state or verifier.
  expect(log).not.toContain(tokens.access_token.slice(0, 20));
  expect(log).not.toContain(login.verifier);
  expect(log).not.toContain(login.state);

  const requests = lines().filter((line) => line.msg === 'request');
  // authorize, interaction challenge and signature, resume, callback hop, token, userinfo…
  expect(requests.length).toBeGreaterThanOrEqual(6);
  for (const line of lines()) {
    expect(line).toEqual(expect.objectContaining({ level: expect.any(String), time: expect.any(String), pid: process.pid }));
    expect(line.request_id).toMatch(/^[0-9a-f-]{36}$/);
  }
  // Fields of one line never stick to the next lines of the same request.
  for (const line of requests) expect(line.event).toBeUndefined();
  const routes = requests.map((line) => `${line.method} ${line.route} ${line.status}`);
  expect(routes).toEqual(
    expect.arrayContaining(['GET /auth 303', 'POST /interaction/:uid/challenge 200', 'POST /interaction/:uid/signature 200', 'POST /token 200', 'GET /me 200']),
  );
  expect(lines().some((line) => line.msg === 'engine grant.success' && line.client_id === 'website')).toBe(true);
});

test('an incoming X-Request-Id is kept and returned; an unsafe one is replaced', async () => {
  written.length = 0;
  const kept = await fetch(`${h.issuer}/healthz`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
  expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42');
  const forged = await fetch(`${h.issuer}/healthz`, { headers: { 'x-request-id': 'x"} {"level":"fatal' } });
  const replaced = forged.headers.get('x-request-id')!;
  expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  const none = await fetch(`${h.issuer}/healthz`);
  expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(lines().map((line) => line.request_id)).toEqual(['lb-7f3a.42', replaced, none.headers.get('x-request-id')]);
});

test("the engine's refusals are logged as warnings with their request id; a failed login is counted with its reason", async () => {
  written.length = 0;
  const refused = await fetch(`${h.issuer}/auth?client_id=website&response_type=code&scope=openid&redirect_uri=https%3A%2F%2Fevil.example%2Fcb`, {
    headers: { 'x-request-id': 'bad-redirect-1' },
  });
  expect(refused.status).toBe(400);
  const warning = lines().find((line) => line.msg === 'engine authorization.error');
  expect(warning).toEqual(expect.objectContaining({ level: 'warn', request_id: 'bad-redirect-1', error: 'invalid_redirect_uri', client_id: 'website' }));

  const login = await startLogin(h.issuer, WEBSITE);
  const wrong = await submitSignature(login, { signature: `0x${'11'.repeat(65)}` });
  expect(wrong.status).toBeGreaterThanOrEqual(400);
  const text = await metrics.registry.getSingleMetricAsString('signet_login_outcomes_total');
  expect(text).toContain('signet_login_outcomes_total{outcome="success",reason="none"} 1');
  expect(text).toMatch(/signet_login_outcomes_total\{outcome="failure",reason="[a-z_]+"\} 1/);
});

test('a reused code: the refusal is a warning and the revoked grant an info line, with the request id', async () => {
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { callback } = await logIn(login, h.chain.accounts[0]!);
  written.length = 0;
  const reused = await fetch(`${h.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${WEBSITE.client_id}:${WEBSITE.client_secret}`).toString('base64')}`,
      'x-request-id': 'reuse-1',
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: WEBSITE.redirect_uris[0]!,
      code_verifier: login.verifier,
    }),
  });
  expect(reused.status).toBe(400);
  const events = lines().filter((line) => line.msg.startsWith('engine '));
  expect(events).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ msg: 'engine grant.error', level: 'warn', error: 'invalid_grant', client_id: 'website', request_id: 'reuse-1' }),
      expect.objectContaining({ msg: 'engine grant.revoked', level: 'info', grant_id: expect.any(String), request_id: 'reuse-1' }),
    ]),
  );
  expect(written.join('')).not.toContain(callback.searchParams.get('code')!);
});

test('HTTP metrics use route templates, never raw paths', async () => {
  const text = await metrics.registry.getSingleMetricAsString('signet_http_requests_total');
  expect(text).toContain('route="/interaction/:uid/signature",status="200"');
  expect(text).toContain('route="/token",status="200"');
  expect(text).not.toMatch(/route="\/interaction\/[A-Za-z0-9_-]{10,}/);
  expect(text).not.toContain(identity);
  const latency = await metrics.registry.getSingleMetricAsString('signet_http_request_duration_seconds');
  expect(latency).toContain('signet_http_request_duration_seconds_bucket{le="0.1",method="POST",route="/token"}');
});
