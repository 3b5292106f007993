// The API-key admin routes over HTTP (their route declarations in a small Koa app with Signet's
// error handler, every answer checked against their OpenAPI document) with their exact statuses
// and reasons, the admin token check, and the `signet api-keys` CLI against them.
import { createServer, type Server } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { runCli } from '../../src/app/cli.js';
import type { Reason } from '../../src/base/reasons.js';
import { type ApiKeys, createApiKeys } from '../../src/features/services/api_keys.js';
import { apiKeysRoutes } from '../../src/features/services/api_keys_routes.js';
import { errorHandler } from '../../src/http/error_handler.js';
import { mountRoutes } from '../../src/http/mount_routes.js';
import { openApiDocumentOf } from '../../src/http/openapi.js';
import { silentLogger } from '../../src/infra/observability/logger.js';
import { createMemoryStore } from '../../src/infra/store/memory_store.js';
import { contractCheck } from '../support/contract_check.js';

const ADMIN_TOKEN = 'admin-token-for-the-api-key-tests-only';
const SERVICES = new Set(['billing', 'shop']);
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const at = (ms: number) => new Date(ms).toISOString();

let clock = T0;
let apiKeys: ApiKeys;
const servers: Server[] = [];
const offContract: string[][] = [];
let base: string;

/** A refusal's body: matched on its code and reason, not on the sentence. */
const refusal = (error: string, reason: Reason) => ({ error, error_description: expect.any(String), reason });

/** The admin routes behind Signet's error handler, and /whoami naming the caller of an X-API-Key. */
async function serve(adminToken: string | undefined): Promise<string> {
  const app = new Koa();
  const routes = apiKeysRoutes({ apiKeys, serviceExists: (id: string) => SERVICES.has(id), adminToken });
  const contract = contractCheck(openApiDocumentOf(routes));
  offContract.push(contract.violations);
  app.use(contract.middleware);
  app.use(errorHandler(() => {}, silentLogger));
  const admin = mountRoutes(routes, { consumeAll: async () => {} });
  const whoami = new Router().get('/whoami', async (ctx) => {
    ctx.body = await apiKeys.authenticate(ctx.get('x-api-key') || undefined);
  });
  for (const router of [admin, whoami]) app.use(router.routes()).use(router.allowedMethods());
  const server = createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  apiKeys = createApiKeys(createMemoryStore(), () => clock);
  base = await serve(ADMIN_TOKEN);
});

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise<void>((done) => server.close(() => done()))));
  // /whoami is this file's probe, not part of the API.
  expect(offContract.flat().filter((violation) => !violation.includes('/whoami'))).toEqual([]);
});

async function call(method: string, path: string, options: { token?: string | null; body?: string; apiKey?: string } = {}) {
  const token = options.token === undefined ? ADMIN_TOKEN : options.token;
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey }),
    },
    body: options.body,
  });
  const body = (await response.json()) as Record<string, unknown>;
  // The probe route of these tests is not part of the API.
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body };
}

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

type NewKey = { id: string; key: string; prefix: string; service: string; label: string | null; created_at: string };

test('without the admin token, or with a wrong one: 401, and nothing about the service', async () => {
  const refused = refusal('invalid_token', 'admin_token_invalid');
  expect(await call('GET', '/admin/services/billing/api-keys', { token: null })).toEqual({ status: 401, cacheControl: 'no-store', body: refused });
  expect(await call('POST', '/admin/services/nope/api-keys', { token: 'wrong', body: '{}' })).toEqual({ status: 401, cacheControl: 'no-store', body: refused });
  expect(await call('DELETE', '/admin/services/billing/api-keys/AAAAAAAAAAAA', { token: `${ADMIN_TOKEN}x` })).toEqual({
    status: 401,
    cacheControl: 'no-store',
    body: refused,
  });
});

test('with no ADMIN_TOKEN configured the admin API is off', async () => {
  const offBase = await serve(undefined);
  const response = await fetch(`${offBase}/admin/services/billing/api-keys`, { headers: { authorization: 'Bearer anything', accept: 'application/json' } });
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual(refusal('not_found', 'admin_api_off'));
});

test('an unknown service: 404 on every route', async () => {
  const unknown = { ...refusal('not_found', 'client_not_found'), previous_reason: 'service_not_found' };
  for (const [method, path] of [
    ['POST', '/admin/services/nope/api-keys'],
    ['GET', '/admin/services/nope/api-keys'],
    ['POST', '/admin/services/nope/api-keys/AAAAAAAAAAAA/rotations'],
    ['DELETE', '/admin/services/nope/api-keys/AAAAAAAAAAAA'],
  ] as const) {
    expect(await call(method, path, method === 'POST' ? { body: '{}' } : {})).toEqual({ status: 404, cacheControl: 'no-store', body: unknown });
  }
});

test('create, list, rotate, revoke over HTTP; the keys work as X-API-Key until revoked', async () => {
  clock = T0;
  const created = await call('POST', '/admin/services/billing/api-keys', { body: '{"label":"ci"}' });
  const key = created.body as NewKey;
  expect(created).toEqual({
    status: 201,
    cacheControl: 'no-store',
    body: { id: key.id, key: key.key, prefix: `sgk_${key.id}`, service: 'billing', label: 'ci', created_at: at(T0) },
  });
  expect(key.key).toMatch(new RegExp(`^sgk_${key.id}_[A-Za-z0-9_-]{43}$`));

  clock = T0 + 1_000;
  expect(await call('GET', '/whoami', { apiKey: key.key })).toEqual({ status: 200, cacheControl: null, body: { service: 'billing', keyId: key.id } });
  expect(await call('GET', '/admin/services/billing/api-keys')).toEqual({
    status: 200,
    cacheControl: 'no-store',
    body: { api_keys: [{ id: key.id, prefix: `sgk_${key.id}`, service: 'billing', label: 'ci', created_at: at(T0), last_used_at: at(T0 + 1_000) }] },
  });

  clock = T0 + 2_000;
  const rotated = await call('POST', `/admin/services/billing/api-keys/${key.id}/rotations`);
  const fresh = rotated.body as NewKey;
  expect(rotated).toEqual({
    status: 201,
    cacheControl: 'no-store',
    body: { id: fresh.id, key: fresh.key, prefix: `sgk_${fresh.id}`, service: 'billing', label: 'ci', created_at: at(T0 + 2_000) },
  });
  expect(await call('GET', '/whoami', { apiKey: key.key })).toEqual({
    status: 401,
    cacheControl: null,
    body: refusal('invalid_client', 'api_key_invalid'),
  });
  expect(await call('GET', '/whoami', { apiKey: fresh.key })).toEqual({ status: 200, cacheControl: null, body: { service: 'billing', keyId: fresh.id } });
  expect(await call('GET', '/whoami')).toEqual({
    status: 401,
    cacheControl: null,
    body: refusal('invalid_client', 'api_key_invalid'),
  });
  expect(await call('POST', `/admin/services/billing/api-keys/${key.id}/rotations`)).toEqual({
    status: 409,
    cacheControl: 'no-store',
    body: refusal('conflict', 'api_key_revoked'),
  });

  clock = T0 + 3_000;
  expect(await call('DELETE', `/admin/services/billing/api-keys/${fresh.id}`)).toEqual({
    status: 200,
    cacheControl: 'no-store',
    body: {
      id: fresh.id,
      prefix: `sgk_${fresh.id}`,
      service: 'billing',
      label: 'ci',
      created_at: at(T0 + 2_000),
      last_used_at: at(T0 + 2_000),
      revoked_at: at(T0 + 3_000),
    },
  });
  expect(await call('GET', '/whoami', { apiKey: fresh.key })).toEqual({
    status: 401,
    cacheControl: null,
    body: refusal('invalid_client', 'api_key_invalid'),
  });
  expect(await call('DELETE', `/admin/services/billing/api-keys/${fresh.id}`)).toEqual({
    status: 409,
    cacheControl: 'no-store',
    body: refusal('conflict', 'api_key_revoked'),
  });
  expect(await call('DELETE', `/admin/services/shop/api-keys/${key.id}`)).toEqual({
    status: 404,
    cacheControl: 'no-store',
    body: refusal('not_found', 'api_key_not_found'),
  });
  const listed = await call('GET', '/admin/services/billing/api-keys');
  expect(
    (listed.body.api_keys as { id: string; revoked_at?: string; replaced_by?: string }[]).map(({ id, revoked_at, replaced_by }) => ({
      id,
      revoked_at,
      replaced_by,
    })),
  ).toEqual([
    { id: fresh.id, revoked_at: at(T0 + 3_000), replaced_by: undefined },
    { id: key.id, revoked_at: at(T0 + 2_000), replaced_by: fresh.id },
  ]);
  expect(JSON.stringify(listed.body)).not.toContain(key.key);
});

test('bad bodies and paths: 400, naming the field', async () => {
  // The sentence names the field: that is its point.
  expect(await call('POST', '/admin/services/billing/api-keys', { body: '{"label":""}' })).toEqual({
    status: 400,
    cacheControl: 'no-store',
    body: { error: 'invalid_request', error_description: '"label" must not be empty', reason: 'invalid_body' },
  });
  expect(await call('POST', '/admin/services/billing/api-keys', { body: '{"label":7}' })).toEqual({
    status: 400,
    cacheControl: 'no-store',
    body: { error: 'invalid_request', error_description: '"label" must be a string', reason: 'invalid_body' },
  });
  expect(await call('POST', '/admin/services/billing/api-keys', { body: '{' })).toEqual({
    status: 400,
    cacheControl: 'no-store',
    body: refusal('invalid_request', 'invalid_json'),
  });
  expect(await call('DELETE', `/admin/services/billing/api-keys/${'A'.repeat(65)}`)).toEqual({
    status: 400,
    cacheControl: 'no-store',
    body: refusal('invalid_request', 'invalid_path'),
  });
});

test('the CLI: create, list, rotate, revoke print the JSON answer', async () => {
  clock = T0 + 10_000;
  const created = await cli('api-keys', 'create', '--url', base, '--token', ADMIN_TOKEN, '--service', 'shop', '--label', 'till');
  expect(created.code).toBe(0);
  expect(created.err).toBe('');
  const key = JSON.parse(created.out) as NewKey;
  expect(key).toEqual({ id: key.id, key: key.key, prefix: `sgk_${key.id}`, service: 'shop', label: 'till', created_at: at(T0 + 10_000) });
  expect(await apiKeys.authenticate(key.key)).toEqual({ service: 'shop', keyId: key.id });

  const listed = await cli('api-keys', 'list', '--url', `${base}/`, '--token', ADMIN_TOKEN, '--service', 'shop');
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.out)).toEqual({
    api_keys: [{ id: key.id, prefix: `sgk_${key.id}`, service: 'shop', label: 'till', created_at: at(T0 + 10_000), last_used_at: at(T0 + 10_000) }],
  });

  clock = T0 + 11_000;
  const rotated = await cli('api-keys', 'rotate', '--url', base, '--token', ADMIN_TOKEN, '--service', 'shop', '--key-id', key.id);
  expect(rotated.code).toBe(0);
  const fresh = JSON.parse(rotated.out) as NewKey;
  expect(fresh).toEqual({ id: fresh.id, key: fresh.key, prefix: `sgk_${fresh.id}`, service: 'shop', label: 'till', created_at: at(T0 + 11_000) });

  clock = T0 + 12_000;
  const revoked = await cli('api-keys', 'revoke', '--url', base, '--token', ADMIN_TOKEN, '--service', 'shop', '--key-id', fresh.id);
  expect(revoked).toEqual({
    code: 0,
    err: '',
    out: JSON.stringify(
      { id: fresh.id, prefix: `sgk_${fresh.id}`, service: 'shop', label: 'till', created_at: at(T0 + 11_000), revoked_at: at(T0 + 12_000) },
      null,
      2,
    ),
  });
});

test('the CLI: missing flags, an unknown action, refusals from Signet', async () => {
  expect(await cli('api-keys', 'create', '--url', base, '--token', ADMIN_TOKEN)).toMatchObject({
    code: 2,
    out: '',
    err: expect.stringMatching(/^signet: --service is required\nusage:/),
  });
  expect(await cli('api-keys', 'rotate', '--url', base, '--token', ADMIN_TOKEN, '--service', 'shop')).toMatchObject({
    code: 2,
    err: expect.stringMatching(/^signet: --key-id is required\nusage:/),
  });
  expect(await cli('api-keys', 'renew', '--url', base)).toMatchObject({
    code: 2,
    err: expect.stringMatching(/^signet: unknown api-keys action "renew": use create, list, rotate or revoke\nusage:/),
  });
  expect(await cli('api-keys', 'list', '--url', base, '--token', 'wrong', '--service', 'shop')).toEqual({
    code: 1,
    out: '',
    err: 'signet: 401 invalid_token: the admin token is missing or wrong',
  });
  expect(await cli('api-keys', 'list', '--url', base, '--token', ADMIN_TOKEN, '--service', 'nope')).toEqual({
    code: 1,
    out: '',
    err: 'signet: 404 not_found: no service "nope" is registered',
  });
  expect(await cli('api-keys', 'revoke', '--url', base, '--token', ADMIN_TOKEN, '--service', 'shop', '--key-id', 'AAAAAAAAAAAA')).toEqual({
    code: 1,
    out: '',
    err: 'signet: 404 not_found: service "shop" has no API key "AAAAAAAAAAAA"',
  });
  const help = await cli('help');
  expect(help.out).toContain('signet api-keys rotate --url <signet url> --token <admin token> --service <client_id> --key-id <id>');
});
