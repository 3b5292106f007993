// loadConfig and validateConfig: the files and the environment give one frozen Config, and a bad
// or missing setting stops the start with a ConfigError that names it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/base/errors.js';
import { type Config, DEMO_COOKIE_KEY_PREFIX, loadConfig, validateConfig } from '../../../src/config/config.js';
import { DEFAULT_ACCESS_TOKENS_PER_GRANT, DEFAULT_CLIENT_CREDENTIALS_PER_CLIENT } from '../../../src/infra/store/oidc_adapter.js';
import { redisConnectionOf } from '../../../src/infra/store/redis_connection.js';

type Env = Record<string, string | undefined>;

/** The ConfigError message `load` throws (2 assertions here, 3 with the caller's check of it); fails the test if none is thrown. */
function configErrorOf(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).name).toBe('ConfigError');
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const JWKS = {
  keys: [
    {
      kty: 'EC',
      kid: 'prod-1',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
      d: 'jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI',
    },
  ],
};
const CLIENTS = [
  {
    client_id: 'website',
    client_secret: 'a-real-secret-of-the-website',
    client_name: 'Website',
    redirect_uris: ['https://website.example.com/callback'],
  },
];

/** Everything production needs, given the way an operator gives it: in the environment. */
const productionEnv = (): Env => ({
  NODE_ENV: 'production',
  ISSUER: 'https://id.example.com',
  PORT: '8080',
  REDIS_URL: 'rediss://cache.example.com:6380',
  CHAIN_RPC_URL: 'https://rpc.example.com',
  CHAIN_ID: '8453',
  IDENTITY_FACTORY: FACTORY.toLowerCase(),
  JWKS: JSON.stringify(JWKS),
  COOKIE_KEYS: 'production-cookie-key-one, production-cookie-key-two',
  CLIENTS: JSON.stringify(CLIENTS),
});

describe('loadConfig: defaults', () => {
  test('with an empty environment it loads the development defaults and the demo client', () => {
    const config = loadConfig({});
    expect(config.mode).toBe('development');
    expect(config.issuer).toBe('http://localhost:3000');
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBe(undefined);
    expect(config.redis).toEqual({ commandTimeoutMs: 500, reconnectMaxDelayMs: 250, waitReplicas: 0 });
    expect(config.chains).toEqual([]);
    expect(config.jwks).toBe(undefined);
    expect(config.demo).toEqual({ enabled: true });
    expect(config.challengeTtlSeconds).toBe(300);
    expect(config.chainCacheSeconds).toBe(10);
    expect(config.ttl).toEqual({
      accessToken: 600,
      idToken: 600,
      refreshToken: 1209600,
      grant: 1209600,
      session: 86400,
      interaction: 600,
    });
    expect(config.cookieKeys).toEqual(['demo-only-cookie-key-change-me']);
    expect(config.cookieKeys[0]!.startsWith(DEMO_COOKIE_KEY_PREFIX)).toBe(true);
    expect(config.clients).toEqual([
      {
        client_id: 'demo',
        client_secret: 'demo-secret',
        client_name: 'Signet demo',
        redirect_uris: ['http://localhost:3000/demo/callback'],
        post_logout_redirect_uris: ['http://localhost:3000/demo'],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ]);
  });

  test('the demo client redirect URIs follow ISSUER', () => {
    const config = loadConfig({ ISSUER: 'http://localhost:4000' });
    expect(config.issuer).toBe('http://localhost:4000');
    expect(config.port).toBe(3000);
    expect(config.clients.map((client) => client.redirect_uris)).toEqual([['http://localhost:4000/demo/callback']]);
    expect(config.clients.map((client) => client.post_logout_redirect_uris)).toEqual([['http://localhost:4000/demo']]);
  });

  test('PORT alone moves the port, the issuer and the demo client', () => {
    const config = loadConfig({ PORT: '4100' });
    expect(config.port).toBe(4100);
    expect(config.issuer).toBe('http://localhost:4100');
    expect(config.clients[0]!.redirect_uris).toEqual(['http://localhost:4100/demo/callback']);
    expect(config.clients[0]!.post_logout_redirect_uris).toEqual(['http://localhost:4100/demo']);
  });

  test('ISSUER wins over PORT for the issuer', () => {
    const config = loadConfig({ ISSUER: 'https://id.example.com', PORT: '4100' });
    expect(config.issuer).toBe('https://id.example.com');
    expect(config.port).toBe(4100);
    expect(config.clients[0]!.redirect_uris).toEqual(['https://id.example.com/demo/callback']);
  });

  test('NODE_ENV test loads the defaults in test mode', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.mode).toBe('test');
    expect(config.demo.enabled).toBe(true);
  });

  test('overrides are merged last, over files and environment', () => {
    const config = loadConfig({ PORT: '4100' }, { port: 4200, ttl: { accessToken: 60 } });
    expect(config.port).toBe(4200);
    expect(config.issuer).toBe('http://localhost:4100');
    expect(config.ttl.accessToken).toBe(60);
    expect(config.ttl.refreshToken).toBe(1209600);
  });

  test('chain settings from the environment are parsed and the factory address checksummed', () => {
    const config = loadConfig({ CHAIN_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ID: '31337', IDENTITY_FACTORY: FACTORY.toLowerCase() });
    expect(config.chains).toEqual([{ chain_id: 31337, name: 'chain 31337', rpc_url: 'http://127.0.0.1:8545', identity_factory: FACTORY }]);
  });

  test('COOKIE_KEYS is split on commas and trimmed', () => {
    const config = loadConfig({ COOKIE_KEYS: ' first-cookie-key-0001 ,second-cookie-key-0002' });
    expect(config.cookieKeys).toEqual(['first-cookie-key-0001', 'second-cookie-key-0002']);
  });

  test('the returned config is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(config.port).toBe(3000);
  });

  test('a SIGNET_CONFIG file is merged over the defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signet-config-'));
    try {
      const file = join(dir, 'signet.json');
      writeFileSync(file, JSON.stringify({ chainCacheSeconds: 0, ttl: { session: 3600 } }));
      const config = loadConfig({ SIGNET_CONFIG: file });
      expect(config.chainCacheSeconds).toBe(0);
      expect(config.ttl.session).toBe(3600);
      expect(config.ttl.interaction).toBe(600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the Redis client settings come from REDIS_COMMAND_TIMEOUT_MS and REDIS_RECONNECT_MAX_DELAY_MS', () => {
  expect(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '800' }).redis).toEqual({ commandTimeoutMs: 800, reconnectMaxDelayMs: 250, waitReplicas: 0 });
  expect(loadConfig({ REDIS_RECONNECT_MAX_DELAY_MS: '400' }).redis).toEqual({ commandTimeoutMs: 500, reconnectMaxDelayMs: 400, waitReplicas: 0 });
  expect(loadConfig({ REDIS_WAIT_REPLICAS: '1' }).redis).toEqual({ commandTimeoutMs: 500, reconnectMaxDelayMs: 250, waitReplicas: 1 });
});

describe('loadConfig: Redis Cluster and Sentinel', () => {
  test('REDIS_CLUSTER lists the seed nodes, with a password and TLS', () => {
    const { REDIS_URL: _url, ...env } = productionEnv();
    const config = loadConfig({
      ...env,
      REDIS_CLUSTER: '10.0.0.1:6379, 10.0.0.2:6379,redis-3.internal:7000',
      REDIS_PASSWORD: 'cluster-pass',
      REDIS_TLS: 'true',
    });
    expect(config.redisUrl).toBe(undefined);
    expect(config.redisServers).toEqual({
      cluster: ['10.0.0.1:6379', '10.0.0.2:6379', 'redis-3.internal:7000'],
      password: 'cluster-pass',
      tls: true,
    });
    expect(redisConnectionOf(config)).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 6379 },
        { host: '10.0.0.2', port: 6379 },
        { host: 'redis-3.internal', port: 7000 },
      ],
      password: 'cluster-pass',
      tls: true,
    });
  });

  test('REDIS_SENTINELS with REDIS_SENTINEL_NAME and both passwords', () => {
    const { REDIS_URL: _url, ...env } = productionEnv();
    const config = loadConfig({
      ...env,
      REDIS_SENTINELS: '[::1]:26379,sentinel-2:26379',
      REDIS_SENTINEL_NAME: 'signet',
      REDIS_PASSWORD: 'master-pass',
      REDIS_SENTINEL_PASSWORD: 'sentinel-pass',
    });
    expect(redisConnectionOf(config)).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '::1', port: 26379 },
        { host: 'sentinel-2', port: 26379 },
      ],
      name: 'signet',
      password: 'master-pass',
      sentinelPassword: 'sentinel-pass',
      tls: false,
    });
  });

  test('REDIS_URL stays the way to one server; without any, no Redis (the memory store)', () => {
    expect(redisConnectionOf(loadConfig({ REDIS_URL: 'rediss://cache:6380', REDIS_PASSWORD: 'pass' }))).toEqual({
      kind: 'server',
      url: 'rediss://cache:6380',
      password: 'pass',
    });
    expect(redisConnectionOf(loadConfig({}))).toBe(undefined);
  });

  test.each<[string, Env, string]>([
    [
      'two ways at once',
      { REDIS_URL: 'redis://a:6379', REDIS_CLUSTER: 'b:6379' },
      'configuration: REDIS_CLUSTER cannot be set with REDIS_URL: choose one way to reach Redis',
    ],
    [
      'cluster and sentinels',
      { REDIS_CLUSTER: 'b:6379', REDIS_SENTINELS: 'c:26379', REDIS_SENTINEL_NAME: 'm' },
      'configuration: REDIS_SENTINELS cannot be set with REDIS_CLUSTER: choose one way to reach Redis',
    ],
    ['a seed without a port', { REDIS_CLUSTER: '10.0.0.1' }, 'configuration: REDIS_CLUSTER must list host:port entries, comma separated'],
    [
      'a sentinel that is a URL',
      { REDIS_SENTINELS: 'redis://s:26379', REDIS_SENTINEL_NAME: 'm' },
      'configuration: REDIS_SENTINELS must list host:port entries, comma separated',
    ],
    ['sentinels without a name', { REDIS_SENTINELS: 's:26379' }, 'configuration: REDIS_SENTINEL_NAME is required with REDIS_SENTINELS'],
    ['a name without sentinels', { REDIS_CLUSTER: 'b:6379', REDIS_SENTINEL_NAME: 'm' }, 'configuration: REDIS_SENTINEL_NAME is only used with REDIS_SENTINELS'],
    [
      'a Sentinel password without sentinels',
      { REDIS_URL: 'redis://a:6379', REDIS_SENTINEL_PASSWORD: 'p' },
      'configuration: REDIS_SENTINEL_PASSWORD is only used with REDIS_SENTINELS',
    ],
    [
      'REDIS_TLS with a URL',
      { REDIS_URL: 'redis://a:6379', REDIS_TLS: 'true' },
      'configuration: REDIS_TLS is for REDIS_CLUSTER and REDIS_SENTINELS: give REDIS_URL as rediss://',
    ],
    ['REDIS_TLS not a boolean', { REDIS_CLUSTER: 'b:6379', REDIS_TLS: 'yes' }, 'configuration: REDIS_TLS must be true or false'],
    ['a password and no Redis', { REDIS_PASSWORD: 'p' }, 'configuration: REDIS_PASSWORD needs REDIS_URL, REDIS_CLUSTER or REDIS_SENTINELS'],
  ])('%s is refused', (_name, env, message) => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig(env))).toBe(message);
  });

  test('production accepts a cluster or Sentinels instead of REDIS_URL', () => {
    const { REDIS_URL: _url, ...env } = productionEnv();
    expect(loadConfig({ ...env, REDIS_CLUSTER: 'a:6379' }).redisServers.cluster).toEqual(['a:6379']);
    expect(loadConfig({ ...env, REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'signet' }).redisServers.sentinelName).toBe('signet');
  });
});

describe('loadConfig: a bad value names the setting', () => {
  test.each<[string, Env, string]>([
    ['ISSUER not a URL', { ISSUER: 'not a url' }, 'configuration: ISSUER must be an absolute URL'],
    ['ISSUER with a trailing slash', { ISSUER: 'https://id.example.com/' }, 'configuration: ISSUER must not end with "/"'],
    ['PORT not a number', { PORT: 'abc' }, 'configuration: PORT must be a port number (0 to 65535)'],
    ['PORT out of range', { PORT: '70000' }, 'configuration: PORT must be a port number (0 to 65535)'],
    ['PORT not a number beside ISSUER', { ISSUER: 'https://id.example.com', PORT: '80a' }, 'configuration: PORT must be a port number (0 to 65535)'],
    ['REDIS_URL of another scheme', { REDIS_URL: 'http://x' }, 'configuration: REDIS_URL must start with redis:// or rediss://'],
    ['REDIS_COMMAND_TIMEOUT_MS too short', { REDIS_COMMAND_TIMEOUT_MS: '10' }, 'configuration: REDIS_COMMAND_TIMEOUT_MS Too small: expected number to be >=50'],
    ['REDIS_WAIT_REPLICAS too many', { REDIS_WAIT_REPLICAS: '9' }, 'configuration: REDIS_WAIT_REPLICAS Too big: expected number to be <=5'],
    [
      'REDIS_RECONNECT_MAX_DELAY_MS not a number',
      { REDIS_RECONNECT_MAX_DELAY_MS: 'soon' },
      'configuration: REDIS_RECONNECT_MAX_DELAY_MS Invalid input: expected number, received NaN',
    ],
    ['IDENTITY_FACTORY not an address', { IDENTITY_FACTORY: '0x1234' }, 'configuration: IDENTITY_FACTORY must be a 0x-prefixed 20-byte address'],
    [
      'CHAIN_RPC_URL without CHAIN_ID',
      { CHAIN_RPC_URL: 'http://127.0.0.1:8545', IDENTITY_FACTORY: FACTORY },
      'configuration: CHAIN_ID is required with CHAIN_RPC_URL',
    ],
    [
      'CHAIN_RPC_URL without IDENTITY_FACTORY',
      { CHAIN_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ID: '31337' },
      'configuration: IDENTITY_FACTORY is required with CHAIN_RPC_URL',
    ],
    ['JWKS not JSON', { JWKS: '{' }, 'configuration: JWKS must be JSON'],
    ['JWKS without keys', { JWKS: '{"keys":[]}' }, 'configuration: jwks.keys Too small: expected array to have >=1 items'],
    ['CLIENTS not JSON', { CLIENTS: '[{' }, 'configuration: CLIENTS must be JSON'],
    ['a short cookie key', { COOKIE_KEYS: 'long-enough-cookie-key,short' }, 'configuration: cookieKeys.1 each key needs at least 16 characters'],
    ['NODE_ENV staging', { NODE_ENV: 'staging' }, 'configuration: NODE_ENV must be development, test or production'],
    ['CHAIN_DEADLINE_MS under 100 ms', { CHAIN_DEADLINE_MS: '50' }, 'configuration: CHAIN_DEADLINE_MS Too small: expected number to be >=100'],
    [
      'CHAIN_CALL_TIMEOUT_MS not a number',
      { CHAIN_CALL_TIMEOUT_MS: 'soon' },
      'configuration: CHAIN_CALL_TIMEOUT_MS Invalid input: expected number, received NaN',
    ],
    [
      'CLIENT_REGISTRATION of another mode',
      { CLIENT_REGISTRATION: 'sometimes' },
      'configuration: CLIENT_REGISTRATION Invalid option: expected one of "off"|"initial_access_token"|"open"',
    ],
    [
      'CLIENT_REGISTRATION=initial_access_token without its token',
      { CLIENT_REGISTRATION: 'initial_access_token' },
      'configuration: REGISTRATION_ACCESS_TOKEN is required with CLIENT_REGISTRATION=initial_access_token',
    ],
    [
      'REGISTRATION_ACCESS_TOKEN with registration open',
      { CLIENT_REGISTRATION: 'open', REGISTRATION_ACCESS_TOKEN: 'an-initial-access-token-long-enough' },
      'configuration: REGISTRATION_ACCESS_TOKEN is only used with CLIENT_REGISTRATION=initial_access_token (it is open)',
    ],
    [
      'REGISTRATION_ACCESS_TOKEN too short',
      { CLIENT_REGISTRATION: 'initial_access_token', REGISTRATION_ACCESS_TOKEN: 'short' },
      'configuration: REGISTRATION_ACCESS_TOKEN needs at least 24 characters',
    ],
    [
      'CLIENT_REGISTRATION_PER_NETWORK below CLIENT_REGISTRATION_PER_ADDRESS',
      { CLIENT_REGISTRATION: 'open', CLIENT_REGISTRATION_PER_ADDRESS: '8', CLIENT_REGISTRATION_PER_NETWORK: '4' },
      'configuration: CLIENT_REGISTRATION_PER_NETWORK is 4, below CLIENT_REGISTRATION_PER_ADDRESS (8): a network holds its addresses',
    ],
    [
      'CLIENT_REGISTRATION_PER_ADDRESS zero',
      { CLIENT_REGISTRATION_PER_ADDRESS: '0' },
      'configuration: CLIENT_REGISTRATION_PER_ADDRESS Too small: expected number to be >=1',
    ],
    ['WEBHOOKS_ALLOW_PRIVATE not a boolean', { WEBHOOKS_ALLOW_PRIVATE: 'yes' }, 'configuration: WEBHOOKS_ALLOW_PRIVATE must be true or false'],
    ['WEBHOOKS_TIMEOUT_MS too short', { WEBHOOKS_TIMEOUT_MS: '10' }, 'configuration: WEBHOOKS_TIMEOUT_MS Too small: expected number to be >=100'],
    ['WEBHOOKS_CONCURRENCY zero', { WEBHOOKS_CONCURRENCY: '0' }, 'configuration: WEBHOOKS_CONCURRENCY Too small: expected number to be >=1'],
    [
      'WEBHOOKS_PER_TARGET_CONCURRENCY not a number',
      { WEBHOOKS_PER_TARGET_CONCURRENCY: 'two' },
      'configuration: WEBHOOKS_PER_TARGET_CONCURRENCY Invalid input: expected number, received NaN',
    ],
  ])('%s', (_case, env, message) => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig(env))).toBe(message);
  });

  test('duplicate client ids', () => {
    expect.assertions(3);
    const clients = [...CLIENTS, { ...CLIENTS[0]!, client_name: 'Website again' }];
    expect(configErrorOf(() => loadConfig({ CLIENTS: JSON.stringify(clients) }))).toBe('configuration: clients.1.client_id "website" is listed twice');
  });

  test('a confidential client without a secret', () => {
    expect.assertions(3);
    const clients = [{ client_id: 'spa', client_name: 'SPA', redirect_uris: ['https://spa.example.com/cb'] }];
    expect(configErrorOf(() => loadConfig({ CLIENTS: JSON.stringify(clients) }))).toBe(
      'configuration: clients.0.client_secret is required unless token_endpoint_auth_method is "none" or "private_key_jwt"',
    );
  });

  test('a public client needs no secret', () => {
    const clients = [{ client_id: 'spa', client_name: 'SPA', redirect_uris: ['https://spa.example.com/cb'], token_endpoint_auth_method: 'none' }];
    const config = loadConfig({ CLIENTS: JSON.stringify(clients) });
    expect(config.clients).toEqual([
      {
        client_id: 'spa',
        client_name: 'SPA',
        redirect_uris: ['https://spa.example.com/cb'],
        post_logout_redirect_uris: [],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
      },
    ]);
  });

  test('an unreadable SIGNET_CONFIG file is named', () => {
    expect.assertions(6);
    const dir = mkdtempSync(join(tmpdir(), 'signet-config-'));
    try {
      const file = join(dir, 'broken.json');
      writeFileSync(file, '{ not json');
      const message = configErrorOf(() => loadConfig({ SIGNET_CONFIG: file }));
      expect(message.startsWith(`configuration: ${file} is not readable JSON (`)).toBe(true);
      const missing = join(dir, 'missing.json');
      expect(configErrorOf(() => loadConfig({ SIGNET_CONFIG: missing }))).toBe(
        `configuration: ${missing} is not readable JSON (ENOENT: no such file or directory, open '${missing}')`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('loadConfig: production', () => {
  test('production runs one worker per core unless WORKERS says otherwise; other modes one process', () => {
    expect(loadConfig(productionEnv()).ops.workers).toBe('auto');
    expect(loadConfig({ ...productionEnv(), WORKERS: '1' }).ops.workers).toBe(1);
    expect(loadConfig({}).ops.workers).toBe(1);
  });

  test('a complete production environment loads', () => {
    const config = loadConfig(productionEnv());
    expect(config.mode).toBe('production');
    expect(config.issuer).toBe('https://id.example.com');
    expect(config.port).toBe(8080);
    expect(config.redisUrl).toBe('rediss://cache.example.com:6380');
    expect(config.chains).toEqual([{ chain_id: 8453, name: 'chain 8453', rpc_url: 'https://rpc.example.com', identity_factory: FACTORY }]);
    expect(config.jwks).toEqual(JWKS);
    expect(config.cookieKeys).toEqual(['production-cookie-key-one', 'production-cookie-key-two']);
    expect(config.demo).toEqual({ enabled: false });
    expect(config.clients.map((client) => client.client_id)).toEqual(['website']);
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('config/production.json turns the demo off and lists no clients of its own', () => {
    const { CLIENTS: _clients, ...env } = productionEnv();
    const config = loadConfig(env);
    expect(config.demo.enabled).toBe(false);
    expect(config.clients).toEqual([]);
  });

  test.each<[string, string]>([
    ['JWKS', "configuration: JWKS is required in production (the engine's development keys are refused)"],
    ['COOKIE_KEYS', 'configuration: COOKIE_KEYS must be set in production (the demo cookie keys are refused)'],
    ['REDIS_URL', 'configuration: REDIS_URL is required in production, or REDIS_CLUSTER or REDIS_SENTINELS (the in-memory store is a demo)'],
    ['CHAIN_RPC_URL', 'configuration: CHAIN_RPC_URL is required in production (the embedded chain is a demo)'],
    ['CHAIN_ID', 'configuration: CHAIN_ID is required with CHAIN_RPC_URL'],
    ['IDENTITY_FACTORY', 'configuration: IDENTITY_FACTORY is required with CHAIN_RPC_URL'],
  ])('without %s it refuses to start', (name, message) => {
    expect.assertions(3);
    const env = productionEnv();
    delete env[name];
    expect(configErrorOf(() => loadConfig(env))).toBe(message);
  });

  test('an empty value counts as missing', () => {
    expect.assertions(6);
    expect(configErrorOf(() => loadConfig({ ...productionEnv(), JWKS: '' }))).toBe(
      "configuration: JWKS is required in production (the engine's development keys are refused)",
    );
    expect(configErrorOf(() => loadConfig({ ...productionEnv(), REDIS_URL: '' }))).toBe(
      'configuration: REDIS_URL is required in production, or REDIS_CLUSTER or REDIS_SENTINELS (the in-memory store is a demo)',
    );
  });

  test('one demo cookie key among others is refused', () => {
    expect.assertions(3);
    const env = { ...productionEnv(), COOKIE_KEYS: `production-cookie-key-one,${DEMO_COOKIE_KEY_PREFIX}but-long-enough` };
    expect(configErrorOf(() => loadConfig(env))).toBe('configuration: COOKIE_KEYS must be set in production (the demo cookie keys are refused)');
  });

  test('production needs an https issuer', () => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig({ ...productionEnv(), ISSUER: 'http://id.example.com' }))).toBe(
      'configuration: ISSUER must be an https URL in production',
    );
  });

  test('a signing key without its private part is refused', () => {
    expect.assertions(3);
    const publicOnly = JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', kid: 'pub' }] });
    expect(configErrorOf(() => loadConfig({ ...productionEnv(), JWKS: publicOnly }))).toBe('configuration: jwks.keys.0.d is missing: the key must be private');
  });

  test('the configuration is frozen all the way down', () => {
    const config = loadConfig(productionEnv());
    expect(Object.isFrozen(config.chains[0])).toBe(true);
    expect(Object.isFrozen(config.clients[0])).toBe(true);
    expect(Object.isFrozen(config.cookieKeys)).toBe(true);
  });

  test('webhook settings come from the environment', () => {
    const config = loadConfig({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_TIMEOUT_MS: '2500', WEBHOOKS_CONCURRENCY: '8', WEBHOOKS_PER_TARGET_CONCURRENCY: '1' });
    expect(config.webhooks).toEqual({ allowPrivate: true, timeoutMs: 2500, concurrency: 8, perTargetConcurrency: 1 });
    expect(loadConfig({}).webhooks).toEqual({ allowPrivate: false, timeoutMs: 5000, concurrency: 16, perTargetConcurrency: 2 });
  });

  test("owners' webhooks cannot reach private addresses in production", () => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig({ ...productionEnv(), WEBHOOKS_ALLOW_PRIVATE: 'true' }))).toBe(
      'configuration: WEBHOOKS_ALLOW_PRIVATE must be false in production (URLs given at run time would reach private addresses)',
    );
  });

  test('the demo cannot be switched on in production', () => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig(productionEnv(), { demo: { enabled: true } }))).toBe('configuration: demo.enabled must be false in production');
  });
});

describe('validateConfig', () => {
  const valid = () => ({
    mode: 'development',
    issuer: 'http://localhost:3000',
    port: 3000,
    chain: {},
    challengeTtlSeconds: 120,
    chainCacheSeconds: 10,
    ttl: { accessToken: 600, idToken: 600, refreshToken: 3600, grant: 3600, session: 3600, interaction: 600 },
    clients: [],
    cookieKeys: ['a-cookie-key-of-16+chars'],
    demo: { enabled: false },
  });

  test('a valid raw object gives a frozen Config', () => {
    const config: Config = validateConfig(valid());
    expect(config).toEqual({
      ...valid(),
      // The one-chain shorthand, empty here, is read as the list of chains: none, the embedded chain.
      chain: undefined,
      chains: [],
      claims: { topics: [], trustedIssuers: [] },
      grants: { pendingSeconds: 604800, webhookRetryDelaysMs: [1000, 5000, 30000, 120000, 600000, 1800000] },
      credentials: { ageThresholds: [18, 21], lifetimeDays: 90, offerSeconds: 600, perIdentityPerDay: 30 },
      defaultLanguage: 'en',
      ops: { workers: 1, logLevel: 'info', shutdownGraceMs: 10000 },
      http: { maxConnections: 4096, headersTimeoutMs: 10000, requestTimeoutMs: 30000, keepAliveTimeoutMs: 5000, idleTimeoutMs: 60000 },
      trustProxy: 0,
      // Listed in full in test/unit/proxy_trust_settings.test.ts.
      rateLimits: expect.any(Object),
      redis: { commandTimeoutMs: 500, reconnectMaxDelayMs: 250, waitReplicas: 0 },
      redisServers: { tls: false },
      chainTimeouts: { requestMs: 1500, callMs: 5000, probeMs: 2000 },
      displayNames: { issuers: [], topics: [], trustFrameworks: [] },
      webhooks: { allowPrivate: false, timeoutMs: 5000, concurrency: 16, perTargetConcurrency: 2 },
      retention: { historyDays: 90, historyEntries: 1000, receiptDays: 365, endedGrantDays: 30, endedClaimDays: 30 },
      chainWatch: { enabled: true, pollMs: 1000, lagWarnSeconds: 120, maxBlockRange: 2000, leaseSeconds: 10 },
      refreshWhenChainDown: 'allow',
      clientRegistration: 'off',
      clientRegistrationLimits: { maxClients: 1000, perAddress: 5, perNetwork: 10, unusedHours: 24 },
      tokenLimits: { accessTokensPerGrant: DEFAULT_ACCESS_TOKENS_PER_GRANT, clientCredentialsPerClient: DEFAULT_CLIENT_CREDENTIALS_PER_CLIENT },
      informationProviders: [],
      providerTimeoutMs: 3000,
      providerRecheckSeconds: 30,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('the retention periods come from the environment, days in fractions too, and are bounded', () => {
    expect(loadConfig({ RETENTION_HISTORY_DAYS: '0.5', RETENTION_RECEIPT_DAYS: '10' }).retention).toEqual({
      historyDays: 0.5,
      historyEntries: 1000,
      receiptDays: 10,
      endedGrantDays: 30,
      endedClaimDays: 30,
    });
    expect(() => loadConfig({ RETENTION_HISTORY_ENTRIES: '5' })).toThrow('RETENTION_HISTORY_ENTRIES');
    expect(() => loadConfig({ RETENTION_HISTORY_DAYS: '0' })).toThrow('RETENTION_HISTORY_DAYS');
  });

  test("the token bounds come from the environment, each on its own, and are the adapter's defaults otherwise", () => {
    expect(loadConfig({}).tokenLimits).toEqual({ accessTokensPerGrant: 3, clientCredentialsPerClient: 10 });
    expect([DEFAULT_ACCESS_TOKENS_PER_GRANT, DEFAULT_CLIENT_CREDENTIALS_PER_CLIENT]).toEqual([3, 10]);
    expect(loadConfig({ ACCESS_TOKENS_PER_GRANT: '1' }).tokenLimits).toEqual({ accessTokensPerGrant: 1, clientCredentialsPerClient: 10 });
    expect(loadConfig({ CLIENT_CREDENTIALS_TOKENS_PER_CLIENT: '50' }).tokenLimits).toEqual({ accessTokensPerGrant: 3, clientCredentialsPerClient: 50 });
    expect(configErrorOf(() => loadConfig({ ACCESS_TOKENS_PER_GRANT: '0' }))).toBe(
      'configuration: ACCESS_TOKENS_PER_GRANT Too small: expected number to be >=1',
    );
    expect(configErrorOf(() => loadConfig({ CLIENT_CREDENTIALS_TOKENS_PER_CLIENT: '1001' }))).toBe(
      'configuration: CLIENT_CREDENTIALS_TOKENS_PER_CLIENT Too big: expected number to be <=1000',
    );
  });

  test('INFORMATION_PROVIDERS: each provider named, at an http(s) URL, with its API key; strict like every setting', () => {
    const provider = { name: 'KYC Provider B', url: 'https://kyc.example/signet/', api_key: 'key-issued-by-the-provider' };
    expect(loadConfig({ INFORMATION_PROVIDERS: JSON.stringify([provider]) }).informationProviders).toEqual([
      // One spelling of the URL: no trailing slash, so a claim's uri lies under it at a "/".
      { name: 'KYC Provider B', url: 'https://kyc.example/signet', apiKey: 'key-issued-by-the-provider' },
    ]);
    const refusal = (providers: unknown[]) => configErrorOf(() => loadConfig({ INFORMATION_PROVIDERS: JSON.stringify(providers) }));
    expect(refusal([{ ...provider, apiKey: 'x' }])).toContain('INFORMATION_PROVIDERS');
    expect(refusal([{ ...provider, apiKey: 'x' }])).toContain('apiKey');
    expect(refusal([{ ...provider, url: 'ftp://kyc.example' }])).toContain('must be an http(s) URL without query, fragment or credentials');
    expect(refusal([{ ...provider, url: 'https://kyc.example/?x=1' }])).toContain('must be an http(s) URL without query, fragment or credentials');
    expect(refusal([{ ...provider, api_key: 'short' }])).toContain('needs at least 16 characters');
    expect(refusal([{ ...provider, name: '' }])).toContain('needs 1 to 60 characters');
    expect(refusal([provider, { ...provider, url: 'https://other.example' }])).toContain('names "KYC Provider B" twice');
    expect(refusal([provider, { ...provider, name: 'Other' }])).toContain('lists https://kyc.example/signet twice');
    expect(refusal([{ ...provider, url: 'http://localhost:3000/kyc' }])).toContain("is this Signet's own issuer");
    expect(
      configErrorOf(() => loadConfig({ ...productionEnv(), INFORMATION_PROVIDERS: JSON.stringify([{ ...provider, url: 'http://kyc.example' }]) })),
    ).toContain('must be an https URL in production');
    // Its name may be given per language: the English form names it everywhere but the pages.
    const named = { ...provider, name: { en: 'KYC Provider B', fr: 'Fournisseur KYC B', ar: 'مزود KYC ب' } };
    expect(loadConfig({ INFORMATION_PROVIDERS: JSON.stringify([named]) }).informationProviders).toEqual([
      { name: 'KYC Provider B', names: named.name, url: 'https://kyc.example/signet', apiKey: 'key-issued-by-the-provider' },
    ]);
    expect(refusal([{ ...provider, name: { fr: '' } }])).toContain('informationProviders.0.name.fr needs 1 to 60 characters');
    expect(refusal([{ ...provider, name: { xx: 'Provider' } }])).toContain('INFORMATION_PROVIDERS');
    expect(loadConfig({ PROVIDER_TIMEOUT_MS: '800', PROVIDER_RECHECK_SECONDS: '5' })).toMatchObject({ providerTimeoutMs: 800, providerRecheckSeconds: 5 });
    // No copy older than 30 s is ever released (decision 76).
    expect(configErrorOf(() => loadConfig({ PROVIDER_RECHECK_SECONDS: '31' }))).toContain('PROVIDER_RECHECK_SECONDS');
    expect(configErrorOf(() => loadConfig({ PROVIDER_TIMEOUT_MS: '50' }))).toContain('PROVIDER_TIMEOUT_MS');
  });

  test('the chain deadlines come from the environment, each on its own', () => {
    expect(loadConfig({ CHAIN_DEADLINE_MS: '800' }).chainTimeouts).toEqual({ requestMs: 800, callMs: 5000, probeMs: 2000 });
    expect(loadConfig({ CHAIN_CALL_TIMEOUT_MS: '2000' }).chainTimeouts).toEqual({ requestMs: 1500, callMs: 2000, probeMs: 2000 });
    expect(loadConfig({ CHAIN_RPC_PROBE_MS: '500' }).chainTimeouts).toEqual({ requestMs: 1500, callMs: 5000, probeMs: 500 });
  });

  test('the port is coerced from a string', () => {
    expect(validateConfig({ ...valid(), port: '8080' }).port).toBe(8080);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['an unknown mode', { mode: 'staging' }, 'configuration: mode Invalid option: expected one of "development"|"test"|"production"'],
    ['a challenge TTL under 30 s', { challengeTtlSeconds: 10 }, 'configuration: challengeTtlSeconds Too small: expected number to be >=30'],
    ['a challenge TTL over 300 s', { challengeTtlSeconds: 301 }, 'configuration: challengeTtlSeconds Too big: expected number to be <=300'],
    [
      'a zero token TTL',
      { ttl: { accessToken: 0, idToken: 600, refreshToken: 3600, grant: 3600, session: 3600, interaction: 600 } },
      'configuration: ttl.accessToken Too small: expected number to be >0',
    ],
    ['no cookie keys', { cookieKeys: [] }, 'configuration: COOKIE_KEYS Too small: expected array to have >=1 items'],
    [
      'a client redirect URI that is not a URL',
      { clients: [{ client_id: 'x', client_secret: 'long-enough', client_name: 'X', redirect_uris: ['nope'] }] },
      'configuration: clients.0.redirect_uris.0 must be an absolute URL',
    ],
    [
      'a client secret under 8 characters',
      { clients: [{ client_id: 'x', client_secret: 'short', client_name: 'X', redirect_uris: ['https://x.example.com/cb'] }] },
      'configuration: clients.0.client_secret Too small: expected string to have >=8 characters',
    ],
  ])('%s is refused', (_case, change, message) => {
    expect.assertions(3);
    expect(configErrorOf(() => validateConfig({ ...valid(), ...change }))).toBe(message);
  });

  test('a missing object is refused at the root', () => {
    expect.assertions(3);
    expect(configErrorOf(() => validateConfig(undefined))).toBe('configuration: (root) Invalid input: expected object, received undefined');
  });
});

describe('loadConfig: display names', () => {
  test('the defaults name the demo topics; DISPLAY_NAMES replaces them and names issuers by checksummed address', () => {
    expect(loadConfig({}).displayNames).toEqual({
      issuers: [],
      // Given in the six languages (decision 82): read as the English name, the others beside it.
      topics: [
        { topic: 'kyc', name: 'KYC check', names: expect.objectContaining({ en: 'KYC check', fr: 'Vérification KYC', ar: 'التحقق من الهوية (KYC)' }) },
        { topic: 'accredited', name: 'Accredited investor', names: expect.objectContaining({ de: 'Akkreditierter Anleger', ja: '適格投資家' }) },
      ],
      trustFrameworks: [],
    });
    // A name per language without English: the first given stands for it; an unknown language stops the start.
    const perLanguage = { topics: [{ topic: 'kyc', name: { fr: 'Contrôle', de: 'Prüfung' } }] };
    expect(loadConfig({ DISPLAY_NAMES: JSON.stringify(perLanguage) }).displayNames.topics).toEqual([
      { topic: 'kyc', name: 'Contrôle', names: { fr: 'Contrôle', de: 'Prüfung' } },
    ]);
    expect(() => loadConfig({ DISPLAY_NAMES: JSON.stringify({ topics: [{ topic: 'kyc', name: { pt: 'Verificação' } }] }) })).toThrow(/DISPLAY_NAMES/);
    const names = {
      issuers: [{ address: FACTORY.toLowerCase(), name: '  Example Issuer ' }],
      topics: [{ topic: 'kyc', name: 'Identity check' }],
      trust_frameworks: [{ trust_framework: 'uk_tfida', name: 'the UK trust framework' }],
    };
    expect(loadConfig({ DISPLAY_NAMES: JSON.stringify(names) }).displayNames).toEqual({
      issuers: [{ address: FACTORY, name: 'Example Issuer' }],
      topics: [{ topic: 'kyc', name: 'Identity check' }],
      trustFrameworks: [{ trust_framework: 'uk_tfida', name: 'the UK trust framework' }],
    });
  });

  test.each<[string, unknown, string]>([
    [
      'a topic that is not configured',
      { topics: [{ topic: 'aml', name: 'AML' }] },
      'configuration: displayNames.topics.0.topic names "aml", which is not a configured topic',
    ],
    [
      'an issuer that is not an address',
      { issuers: [{ address: '0x12', name: 'X' }] },
      'configuration: displayNames.issuers.0.address must be a 0x-prefixed 20-byte address',
    ],
    ['an empty name', { issuers: [{ address: FACTORY, name: '  ' }] }, 'configuration: displayNames.issuers.0.name must not be empty'],
    [
      'a name longer than 60 characters',
      { topics: [{ topic: 'kyc', name: 'x'.repeat(61) }] },
      'configuration: displayNames.topics.0.name must be at most 60 characters',
    ],
  ])('%s is refused, naming the setting', (_case, names, message) => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig({ DISPLAY_NAMES: JSON.stringify(names) }))).toBe(message);
  });

  test('DISPLAY_NAMES not JSON', () => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig({ DISPLAY_NAMES: '{' }))).toBe('configuration: DISPLAY_NAMES must be JSON');
  });
});

describe('loadConfig: trust frameworks of trusted issuers', () => {
  test('by topic name, for the topics the issuer is trusted for', () => {
    const issuers = [{ address: FACTORY, topics: ['kyc'], trust_frameworks: { kyc: 'de_aml' } }];
    // Read into the code's name of the member.
    expect(loadConfig({ TRUSTED_ISSUERS: JSON.stringify(issuers) }).claims.trustedIssuers).toEqual([
      { address: FACTORY, topics: ['kyc'], trustFrameworks: { kyc: 'de_aml' } },
    ]);
    expect(loadConfig({ TRUSTED_ISSUERS: JSON.stringify([{ address: FACTORY, topics: ['kyc'] }]) }).claims.trustedIssuers[0]!.trustFrameworks).toEqual({});
  });

  test.each<[string, unknown, string]>([
    [
      'a topic the issuer is not trusted for',
      [{ address: FACTORY, topics: ['kyc'], trust_frameworks: { accredited: 'de_aml' } }],
      'configuration: claims.trustedIssuers.0.trust_frameworks names "accredited", which is not one of this issuer\'s topics',
    ],
    [
      'an identifier with a space',
      [{ address: FACTORY, topics: ['kyc'], trust_frameworks: { kyc: 'de aml' } }],
      'configuration: claims.trustedIssuers.0.trust_frameworks.kyc must be a trust framework identifier (printable ASCII, no spaces)',
    ],
  ])('%s is refused, naming the setting', (_case, issuers, message) => {
    expect.assertions(3);
    expect(configErrorOf(() => loadConfig({ TRUSTED_ISSUERS: JSON.stringify(issuers) }))).toBe(message);
  });
});
