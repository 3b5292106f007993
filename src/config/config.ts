// Reads config/*.json and the environment once, validates everything with one schema and
// returns a frozen Config. Nothing else in Signet reads process.env.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { ConfigError } from '../base/errors.js';
import { projectRoot } from '../base/project_root.js';
import { type ClientMetadata, clientProblem, clientSchema } from './client_metadata.js';
import { nearest, respellMembers, speltPath, unknownMember } from './config_members.js';
import { defaultOf, ENV_NAMES, fromEnv, LIST_PATHS } from './config_settings.js';

// Defaults come from the settings' declarations (config_settings.ts), which README shows.
function count(path: string): number {
  const value = defaultOf(path);
  if (typeof value !== 'number') throw new Error(`config_settings.ts: the default of ${path} must be a number`);
  return value;
}
function flag(path: string): boolean {
  const value = defaultOf(path);
  if (typeof value !== 'boolean') throw new Error(`config_settings.ts: the default of ${path} must be true or false`);
  return value;
}

const address = z
  .string()
  .refine((v) => isAddress(v), 'must be a 0x-prefixed 20-byte address')
  .transform((v) => getAddress(v));

// Signing keys: private JWKs (the engine publishes their public halves at /jwks).
const jwkSchema = z
  .object({ kty: z.enum(['RSA', 'EC', 'OKP']), kid: z.string().optional(), d: z.string({ error: 'is missing: the key must be private' }) })
  .loose();

const hexKey = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte private key')
  .transform((value) => value as `0x${string}`);

const claimsSchema = z.object({
  topics: z
    .array(
      z.object({
        name: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be lower case letters, digits, "_" or "-"'),
        topic: z.number().int().nonnegative(),
        description: z.string().min(1),
      }),
    )
    .default([]),
  trustedIssuers: z
    .array(
      z.object({
        address,
        topics: z.array(z.string()).min(1),
        /**
         * The OpenID Identity Assurance trust framework (e.g. "de_aml") the issuer's checks follow,
         * by topic name: only claims of a topic named here are released as `verified_claims`.
         */
        trustFrameworks: z
          .record(z.string(), z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be a trust framework identifier (printable ASCII, no spaces)'))
          .default({}),
        /** The chain the issuer is trusted on (required when several chains are configured): never every chain by default. */
        chain_id: z.number({ error: 'must be a chain id (a positive integer)' }).int().positive().optional(),
      }),
    )
    .default([]),
});

// An RPC endpoint: its URL (whose path or query may hold a provider's API key), and the label
// logs, metrics and /readyz name it by (default: the URL's host).
const rpcUrl = z.url({ error: 'must be an absolute URL' }).refine((value) => /^https?:\/\//.test(value), 'must be an http or https URL');
const rpcEndpoint = z.union(
  [
    rpcUrl,
    z
      .object({
        url: rpcUrl,
        label: z
          .string()
          .regex(/^[A-Za-z0-9._:-]{1,40}$/, 'must be 1 to 40 letters, digits, ".", "_", ":" or "-"')
          .optional(),
      })
      .strict(),
  ],
  { error: 'must be an http(s) URL, or { "url": "...", "label": "..." }' },
);
const rpcEndpointList = z.array(rpcEndpoint).min(1, 'must list at least one endpoint').max(8, 'must list at most 8 endpoints');
/** When a block's events count as settled: a number of confirmations, or the node's "safe" or "finalized" block. */
const settledSetting = z.union([z.coerce.number().int().min(0).max(1000), z.enum(['safe', 'finalized'])], {
  error: 'must be a number of confirmations (0 to 1000), "safe" or "finalized"',
});

// host:port, host a name, an IPv4 address or a bracketed IPv6 address.
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

// Rate limits (docs/operations.md, "Rate limits and proxy trust"): each class allows `points`
// requests per `seconds` window, counted in Redis (memory in the demo) by rate-limiter-flexible.
const limit = (points: number, seconds: number) =>
  z.object({ points: z.number().int().positive(), seconds: z.number().int().positive() }).default({ points, seconds });
const rateLimitsSchema = z.object({
  challengesPerAddress: limit(30, 60),
  challengesPerInteraction: limit(10, 300),
  signaturesPerAddress: limit(30, 60),
  signaturesPerInteraction: limit(10, 300),
  /** Wrong signatures a challenge takes before it is burnt; its window is the challenge's life. */
  failedSignaturesPerChallenge: z.number().int().positive().default(5),
  accountSignInsPerAddress: limit(20, 600),
  tokenFailuresPerClient: limit(10, 600),
  accessRequestsPerService: limit(120, 60),
  /** Anonymous reads of a profile's or a claim's public part (no token, no API key). */
  publicReadsPerAddress: limit(120, 60),
  identityCreationsPerAddress: limit(5, 3600),
  identityCreationsPerWallet: limit(3, 86400),
  /** Dynamic client registrations (POST /reg) from one address. */
  registrationsPerAddress: limit(20, 3600),
});
export type RateLimitSettings = z.infer<typeof rateLimitsSchema>;
// Names people read instead of addresses and topic codes, on the pages and the demo website.
const displayName = z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters');
const displayNamesSchema = z.object({
  /** A claim issuer's name, by its ClaimIssuer contract address. */
  issuers: z.array(z.object({ address, name: displayName })).default([]),
  /** A claim topic's name, by the topic's configured name (claims.topics[].name). */
  topics: z.array(z.object({ topic: z.string(), name: displayName })).default([]),
  /** A trust framework in words ("the German AML rules"), by its identifier (de_aml). */
  trustFrameworks: z.array(z.object({ trust_framework: z.string(), name: displayName })).default([]),
});

const schema = z.object({
  mode: z.enum(['development', 'test', 'production']),
  issuer: z.url({ error: 'must be an absolute URL' }).refine((v) => !v.endsWith('/'), 'must not end with "/"'),
  port: z.coerce.number().int().min(0).max(65535),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /**
   * Redis beyond one server (one of REDIS_URL, REDIS_CLUSTER, REDIS_SENTINELS): a Redis Cluster's
   * seed nodes, or the Sentinels of a master with its name; passwords and TLS for either.
   */
  redisServers: z
    .object({
      cluster: z.array(z.string().regex(HOST_PORT, 'must list host:port entries, comma separated')).min(1).optional(),
      sentinels: z.array(z.string().regex(HOST_PORT, 'must list host:port entries, comma separated')).min(1).optional(),
      sentinelName: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be the master name the Sentinels monitor')
        .optional(),
      password: z.string().min(1).optional(),
      sentinelPassword: z.string().min(1).optional(),
      tls: z.boolean({ error: 'must be true or false' }).default(flag('redisServers.tls')),
    })
    .prefault({}),
  /** How the Redis client meets an outage: each command's deadline, the longest pause between reconnections. */
  redis: z
    .object({
      commandTimeoutMs: z.coerce.number().int().min(50).max(10000).default(count('redis.commandTimeoutMs')),
      reconnectMaxDelayMs: z.coerce.number().int().min(10).max(10000).default(count('redis.reconnectMaxDelayMs')),
      /** Replicas that must hold a single-use or revocation write (WAIT) before Signet answers; 0: none. */
      waitReplicas: z.coerce.number().int().min(0).max(5).default(count('redis.waitReplicas')),
    })
    .prefault({}),
  chain: z.object({
    rpcUrl: rpcUrl.optional(),
    /** Several endpoints of the one chain, in order of preference (CHAIN_RPC_URLS). */
    rpcUrls: rpcEndpointList.optional(),
    chainId: z.coerce.number().int().positive().optional(),
    identityFactory: address.optional(),
  }),
  /** Several chains behind one issuer (CHAINS); the one-chain shorthand is `chain` (CHAIN_RPC_URL…). */
  chains: z
    .array(
      z.object({
        chain_id: z.number({ error: 'must be a chain id (a positive integer)' }).int().positive(),
        name: displayName,
        rpc_url: rpcUrl.optional(),
        /** The chain's endpoints in order of preference, instead of rpc_url. */
        rpc_urls: rpcEndpointList.optional(),
        identity_factory: address,
        /** Signet's own ClaimIssuer contract on this chain, when it is not at SIGNET_ISSUER_ADDRESS. */
        claim_issuer: address.optional(),
        /** When the watcher takes this chain's events as settled (default: CHAIN_WATCH_CONFIRMATIONS, else the chain's known default). */
        confirmations: settledSetting.optional(),
      }),
      { error: 'must be a JSON list of { chain_id, name, rpc_url or rpc_urls, identity_factory }' },
    )
    .min(1, 'must name at least one chain')
    .optional(),
  /** /readyz with a chain down: still ready while any chain answers (unset: any), or only while all do. */
  readyWithChains: z.enum(['any', 'all'], { error: 'must be "any" or "all"' }).optional(),
  challengeTtlSeconds: z.number().int().min(30).max(300),
  chainCacheSeconds: z.number().int().min(0).max(3600),
  ttl: z.object({
    accessToken: z.number().int().positive(),
    idToken: z.number().int().positive(),
    refreshToken: z.number().int().positive(),
    grant: z.number().int().positive(),
    session: z.number().int().positive(),
    interaction: z.number().int().positive(),
  }),
  /** How many live tokens a login grant, and a client on its own (client credentials), hold at most (decision 45). */
  tokenLimits: z
    .object({
      accessTokensPerGrant: z.coerce.number().int().min(1).max(100).default(count('tokenLimits.accessTokensPerGrant')),
      clientCredentialsPerClient: z.coerce.number().int().min(1).max(1000).default(count('tokenLimits.clientCredentialsPerClient')),
    })
    .prefault({}),
  clients: z.array(clientSchema),
  jwks: z.object({ keys: z.array(jwkSchema).min(1) }).optional(),
  cookieKeys: z.array(z.string().min(16, 'each key needs at least 16 characters')).min(1),
  demo: z.object({
    enabled: z.boolean(),
    /** Local chains the embedded demo starts (without CHAIN_RPC_URL or CHAINS). */
    chains: z.coerce.number().int().min(1, 'must be 1 or 2').max(2, 'must be 1 or 2').optional(),
  }),
  claims: claimsSchema.default({ topics: [], trustedIssuers: [] }),
  /** Signet as a claim issuer: its ClaimIssuer contract and a key with MANAGEMENT there. */
  claimIssuer: z.object({ address, key: hexKey }).optional(),
  grants: z
    .object({
      /** How long a persistent access request waits for the owner. */
      pendingSeconds: z.number().int().positive(),
      /** Delays between webhook delivery attempts; after the last, a dead letter. */
      webhookRetryDelaysMs: z.array(z.number().int().positive()).min(1),
    })
    .default({ pendingSeconds: 604800, webhookRetryDelaysMs: [1000, 5000, 30000, 120000, 600000, 1800000] }),
  /** Webhook delivery. allowPrivate lets owners' URLs reach private addresses: development only. */
  webhooks: z
    .object({
      allowPrivate: z.boolean({ error: 'must be true or false' }).default(flag('webhooks.allowPrivate')),
      timeoutMs: z.coerce.number().int().min(100).max(60000).default(count('webhooks.timeoutMs')),
      concurrency: z.coerce.number().int().min(1).max(256).default(count('webhooks.concurrency')),
      perTargetConcurrency: z.coerce.number().int().min(1).max(64).default(count('webhooks.perTargetConcurrency')),
    })
    .prefault({}),
  /** The IdFactory owner's key: Signet deploys identities for wallets that have none. */
  identityDeployerKey: hexKey.optional(),
  /** Chain deadlines: one budget for all chain calls of a request, and a bound per call (background work too). */
  chainTimeouts: z
    .object({
      requestMs: z.coerce.number().int().min(100).max(60_000).default(count('chainTimeouts.requestMs')),
      callMs: z.coerce.number().int().min(100).max(60_000).default(count('chainTimeouts.callMs')),
      /** How often a failed RPC endpoint is asked whether it answers again. */
      probeMs: z.coerce.number().int().min(100).max(600_000).default(count('chainTimeouts.probeMs')),
    })
    .prefault({}),
  /** Bearer token of the admin API; without it the admin API is off. */
  adminToken: z.string().min(24, 'needs at least 24 characters').optional(),
  /** Dynamic client registration (RFC 7591, 7592): off, behind a fixed initial access token, or open (decision 25). */
  clientRegistration: z.enum(['off', 'initial_access_token', 'open']).default('off'),
  /** What dynamic registration may hold: the clients it made at most, and how long one lives without a login. */
  clientRegistrationLimits: z
    .object({
      maxClients: z.coerce.number().int().min(1).max(1_000_000).default(count('clientRegistrationLimits.maxClients')),
      unusedHours: z.coerce.number().positive().max(8760).default(count('clientRegistrationLimits.unusedHours')),
    })
    .prefault({}),
  /** The fixed initial access token registrations bring when clientRegistration is initial_access_token. */
  registrationAccessToken: z.string().min(24, 'needs at least 24 characters').optional(),
  /** Operations: processes sharing the port, the metrics listener, logs, shutdown. */
  ops: z
    .object({
      /** Worker processes (node:cluster); 'auto' is one per core. 1 runs no cluster. */
      workers: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(count('ops.workers')),
      /** Port of the Prometheus /metrics listener; without it metrics are off. */
      metricsPort: z.coerce.number().int().min(0).max(65535).optional(),
      logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** On SIGTERM, how long requests in flight may take before their connections are cut. */
      shutdownGraceMs: z.coerce.number().int().min(0).max(120000).default(count('ops.shutdownGraceMs')),
    })
    .prefault({}),
  /** Reverse proxies in front of Signet whose X-Forwarded-* headers count; 0 trusts none. */
  trustProxy: z.coerce.number({ error: 'must be a number of proxy hops (0 to 10)' }).int().min(0).max(10).default(count('trustProxy')),
  rateLimits: rateLimitsSchema.default(rateLimitsSchema.parse({})),
  displayNames: displayNamesSchema.default({ issuers: [], topics: [], trustFrameworks: [] }),
  /** How long Signet keeps what it holds about owners once it is no longer in use (docs/data.md). Days may be fractions (tests run them in seconds). */
  retention: z
    .object({
      /** Days an entry of an identity's access history is kept. */
      historyDays: z.coerce.number().positive().max(3650).default(count('retention.historyDays')),
      /** Entries kept per identity at most (the oldest go first). */
      historyEntries: z.coerce.number().int().min(10).max(100_000).default(count('retention.historyEntries')),
      /** Days a consent receipt (signed text and signature) outlives its grant, as proof of what was agreed. */
      receiptDays: z.coerce.number().min(0).max(3650).default(count('retention.receiptDays')),
      /** Days an ended access grant (revoked, used, denied, expired) stays readable by its service and owner. */
      endedGrantDays: z.coerce.number().min(0).max(3650).default(count('retention.endedGrantDays')),
      /** Days the off-chain data of a claim Signet issued is kept once the claim is revoked or removed. */
      endedClaimDays: z.coerce.number().min(0).max(3650).default(count('retention.endedClaimDays')),
    })
    .prefault({}),
  /**
   * Following the chain: a watcher reads the events that end consent (a wallet's key removed, a
   * claim removed or revoked) from `eth_getLogs`, one process at a time (a lease in Redis).
   */
  chainWatch: z
    .object({
      enabled: z.boolean({ error: 'must be true or false' }).default(flag('chainWatch.enabled')),
      /** How often the watcher asks for new blocks. */
      pollMs: z.coerce.number().int().min(50).max(60_000).default(count('chainWatch.pollMs')),
      /**
       * When a block's events count, for every chain without its own `confirmations`: blocks under
       * the head (0 acts on the newest), or the node's `safe` or `finalized` block. Unset: each
       * chain's known default (src/infra/chain/settled_point.ts).
       */
      confirmations: settledSetting.optional(),
      /** The watcher says once, at warn, that it has not reached the settled point for this long. */
      lagWarnSeconds: z.coerce.number().int().min(5).max(86_400).default(count('chainWatch.lagWarnSeconds')),
      /** The most blocks one eth_getLogs asks for. */
      maxBlockRange: z.coerce.number().int().min(1).max(100_000).default(count('chainWatch.maxBlockRange')),
      /** A watcher that has not renewed its lease for this long is taken for dead. */
      leaseSeconds: z.coerce.number().int().min(1).max(600).default(count('chainWatch.leaseSeconds')),
    })
    .prefault({}),
  /** What a refresh does when the chain cannot be read to check the signing wallet's key: refuse (503) or allow. */
  refreshWhenChainDown: z.enum(['allow', 'refuse']).default('allow'),
  /** Key of the keyed hash (HMAC-SHA256) that stands in for identities and wallets in logs; random per process when unset. */
  logHashKey: z.string().min(16, 'needs at least 16 characters').optional(),
});

export type Config = Readonly<z.infer<typeof schema>>;
/** A client of CLIENTS (src/config/client_metadata.ts). */
export type ClientConfig = ClientMetadata;

type Env = Record<string, string | undefined>;

function settingName(path: PropertyKey[]): string {
  const dotted = path.map(String).join('.');
  // An entry of a list read from one variable (REDIS_CLUSTER's third seed) is named by the variable.
  const listPath = path.slice(0, -1).map(String).join('.');
  const list = typeof path.at(-1) === 'number' && LIST_PATHS.has(listPath) ? ENV_NAMES[listPath] : undefined;
  return ENV_NAMES[dotted] ?? list ?? (speltPath(path.map(String)).join('.') || '(root)');
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The cookie keys of config/default.json: fine for the demo, refused in production. */
export const DEMO_COOKIE_KEY_PREFIX = 'demo-only-';

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(file, `is not readable JSON (${(error as Error).message})`);
  }
}

function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const prior = out[key];
    out[key] =
      value && typeof value === 'object' && !Array.isArray(value) && prior && typeof prior === 'object' && !Array.isArray(prior)
        ? deepMerge(prior as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

function modeOf(env: Env): Config['mode'] {
  const mode = env.NODE_ENV ?? 'development';
  if (mode !== 'development' && mode !== 'test' && mode !== 'production') {
    throw new ConfigError('NODE_ENV', 'must be development, test or production');
  }
  return mode;
}

/** Builds the Config from files and environment; throws ConfigError naming the setting. */
export function loadConfig(env: Env = process.env, overrides: Record<string, unknown> = {}): Config {
  const mode = modeOf(env);
  const configDir = env.SIGNET_CONFIG_DIR ?? join(projectRoot, 'config');
  let raw = readJson(join(configDir, 'default.json'));
  const modeFile = join(configDir, `${mode}.json`);
  if (existsSync(modeFile)) raw = deepMerge(raw, readJson(modeFile));
  if (env.SIGNET_CONFIG) raw = deepMerge(raw, readJson(env.SIGNET_CONFIG));
  raw = deepMerge(raw, fromEnv(env, raw.issuer));
  raw = deepMerge(raw, overrides);
  raw.mode = mode;
  return validateConfig(withDemoClientAtIssuer(raw));
}

/** The demo client's redirect URIs follow the issuer, so PORT or ISSUER alone moves the demo. */
function withDemoClientAtIssuer(raw: Record<string, unknown>): Record<string, unknown> {
  const demo = raw.demo as { enabled?: unknown } | undefined;
  if (!demo?.enabled || !Array.isArray(raw.clients) || typeof raw.issuer !== 'string') return raw;
  const issuer = raw.issuer;
  return {
    ...raw,
    clients: raw.clients.map((client: { client_id?: unknown }) =>
      client?.client_id === 'demo' ? { ...client, redirect_uris: [`${issuer}/demo/callback`], post_logout_redirect_uris: [`${issuer}/demo`] } : client,
    ),
  };
}

type Parsed = z.infer<typeof schema>;

/** A rule across settings: it throws the ConfigError that stops the start. */
interface ConfigCheck {
  readonly name: string;
  check(config: Parsed): void;
}

const isEmbeddedChain = (config: Parsed) => !config.chain.rpcUrl && !config.chain.rpcUrls && !config.chains;
const hasSharedRedis = (config: Parsed) => Boolean(config.redisUrl || config.redisServers.cluster || config.redisServers.sentinels);
const topicNamesOf = (config: Parsed) => new Set(config.claims.topics.map((topic) => topic.name));

/** The rules across settings, run in this order after the schema; the first broken one stops the start. */
export const CONFIG_CHECKS: readonly ConfigCheck[] = [
  {
    name: 'oneWayToRedis',
    check(config) {
      const ways = [config.redisUrl && 'REDIS_URL', config.redisServers.cluster && 'REDIS_CLUSTER', config.redisServers.sentinels && 'REDIS_SENTINELS'].filter(
        Boolean,
      );
      if (ways.length > 1) throw new ConfigError(ways[1] as string, `cannot be set with ${ways[0]}: choose one way to reach Redis`);
    },
  },
  {
    name: 'sentinelSettingsGoTogether',
    check({ redisServers: { sentinels, sentinelName, sentinelPassword } }) {
      if (sentinels && !sentinelName) throw new ConfigError('REDIS_SENTINEL_NAME', 'is required with REDIS_SENTINELS');
      if (sentinelName && !sentinels) throw new ConfigError('REDIS_SENTINEL_NAME', 'is only used with REDIS_SENTINELS');
      if (sentinelPassword && !sentinels) throw new ConfigError('REDIS_SENTINEL_PASSWORD', 'is only used with REDIS_SENTINELS');
    },
  },
  {
    name: 'redisTlsNotWithUrl',
    check(config) {
      if (config.redisServers.tls && config.redisUrl) {
        throw new ConfigError('REDIS_TLS', 'is for REDIS_CLUSTER and REDIS_SENTINELS: give REDIS_URL as rediss://');
      }
    },
  },
  {
    name: 'redisPasswordAndTlsNeedRedis',
    check(config) {
      const { password, tls } = config.redisServers;
      if ((password || tls) && !hasSharedRedis(config)) {
        throw new ConfigError(password ? 'REDIS_PASSWORD' : 'REDIS_TLS', 'needs REDIS_URL, REDIS_CLUSTER or REDIS_SENTINELS');
      }
    },
  },
  {
    name: 'oneWayToNameChains',
    check(config) {
      const shorthand = ['CHAIN_RPC_URL', 'CHAIN_RPC_URLS', 'CHAIN_ID', 'IDENTITY_FACTORY'].find(
        (_, i) => [config.chain.rpcUrl, config.chain.rpcUrls, config.chain.chainId, config.chain.identityFactory][i],
      );
      if (config.chains && shorthand)
        throw new ConfigError('CHAINS', `cannot be set with ${shorthand}: list every chain in CHAINS, or use the one-chain shorthand`);
    },
  },
  {
    name: 'oneWayToNameEndpoints',
    check(config) {
      if (config.chain.rpcUrl && config.chain.rpcUrls)
        throw new ConfigError('CHAIN_RPC_URLS', 'cannot be set with CHAIN_RPC_URL: list every endpoint in CHAIN_RPC_URLS');
      for (const [i, chain] of (config.chains ?? []).entries()) {
        if (chain.rpc_url && chain.rpc_urls) throw new ConfigError(`chains.${i}.rpc_urls`, 'cannot be set with rpc_url: list every endpoint in rpc_urls');
        if (!chain.rpc_url && !chain.rpc_urls) throw new ConfigError(`chains.${i}.rpc_url`, 'is required, or rpc_urls');
      }
    },
  },
  {
    // Logs, metrics and /readyz tell endpoints apart by their labels alone.
    name: 'endpointLabelsAreDistinct',
    check(config) {
      const lists = config.chains
        ? config.chains.map((chain, i) => ({ name: `chains.${i}.rpc_urls`, list: chain.rpc_urls ?? [] }))
        : [{ name: 'CHAIN_RPC_URLS', list: config.chain.rpcUrls ?? [] }];
      for (const { name, list } of lists) {
        const labels = list.flatMap((each) => (typeof each === 'string' ? [] : each.label ? [each.label] : []));
        const twice = labels.find((label, i) => labels.indexOf(label) !== i);
        if (twice) throw new ConfigError(name, `names two endpoints "${twice}": give each its own label`);
      }
    },
  },
  {
    name: 'chainsAreDistinct',
    check(config) {
      const ids = new Set<number>();
      for (const [i, chain] of (config.chains ?? []).entries()) {
        if (ids.has(chain.chain_id)) throw new ConfigError(`chains.${i}.chain_id`, `${chain.chain_id} ("${chain.name}") is listed twice`);
        ids.add(chain.chain_id);
      }
    },
  },
  {
    // An issuer is trusted for a topic on a chain: a claim's signature does not cover the chain (decision 33).
    name: 'trustedIssuersNameTheirChain',
    check(config) {
      const chainIds = config.chains?.map((chain) => chain.chain_id);
      for (const [i, trusted] of config.claims.trustedIssuers.entries()) {
        if (trusted.chain_id === undefined) {
          if (chainIds && chainIds.length > 1) throw new ConfigError(`claims.trustedIssuers.${i}.chain_id`, 'is required when several chains are configured');
          continue;
        }
        const known = chainIds ?? (config.chain.chainId ? [config.chain.chainId] : undefined);
        if (known && !known.includes(trusted.chain_id)) {
          throw new ConfigError(`claims.trustedIssuers.${i}.chain_id`, `names chain ${trusted.chain_id}, which is not a configured chain`);
        }
      }
    },
  },
  {
    name: 'chainNeedsIdAndFactory',
    check(config) {
      if (isEmbeddedChain(config) || config.chains) return;
      const given = config.chain.rpcUrls ? 'CHAIN_RPC_URLS' : 'CHAIN_RPC_URL';
      if (!config.chain.chainId) throw new ConfigError('CHAIN_ID', `is required with ${given}`);
      if (!config.chain.identityFactory) throw new ConfigError('IDENTITY_FACTORY', `is required with ${given}`);
    },
  },
  {
    name: 'productionNeedsKeys',
    check(config) {
      if (config.mode === 'production' && !config.jwks) {
        throw new ConfigError('JWKS', "is required in production (the engine's development keys are refused)");
      }
    },
  },
  {
    name: 'productionNeedsHttps',
    check(config) {
      if (config.mode === 'production' && new URL(config.issuer).protocol !== 'https:') {
        throw new ConfigError('ISSUER', 'must be an https URL in production');
      }
    },
  },
  {
    name: 'productionRefusesDemoCookieKeys',
    check(config) {
      if (config.mode === 'production' && config.cookieKeys.some((k) => k.startsWith(DEMO_COOKIE_KEY_PREFIX))) {
        throw new ConfigError('COOKIE_KEYS', 'must be set in production (the demo cookie keys are refused)');
      }
    },
  },
  {
    name: 'productionNeedsRedis',
    check(config) {
      if (config.mode === 'production' && !hasSharedRedis(config)) {
        throw new ConfigError('REDIS_URL', 'is required in production, or REDIS_CLUSTER or REDIS_SENTINELS (the in-memory store is a demo)');
      }
    },
  },
  {
    name: 'productionNeedsChain',
    check(config) {
      if (config.mode === 'production' && isEmbeddedChain(config)) {
        throw new ConfigError('CHAIN_RPC_URL', 'is required in production (the embedded chain is a demo)');
      }
    },
  },
  {
    name: 'productionRefusesDemo',
    check(config) {
      if (config.mode === 'production' && config.demo.enabled) throw new ConfigError('demo.enabled', 'must be false in production');
    },
  },
  {
    name: 'productionRefusesPrivateWebhooks',
    check(config) {
      if (config.mode === 'production' && config.webhooks.allowPrivate) {
        throw new ConfigError('WEBHOOKS_ALLOW_PRIVATE', 'must be false in production (URLs given at run time would reach private addresses)');
      }
    },
  },
  {
    // Several processes share nothing but Redis and the chain: the demo's memory store and
    // embedded chain would give each worker its own world.
    name: 'workersNeedSharedRedisAndChain',
    check(config) {
      if (config.ops.workers !== 1 && (!hasSharedRedis(config) || isEmbeddedChain(config))) {
        throw new ConfigError('WORKERS', 'above 1 needs REDIS_URL and CHAIN_RPC_URL (the demo runs one process)');
      }
    },
  },
  {
    // Several signing keys: the first signs, the others verify; a kid tells them apart.
    name: 'signingKeysHaveDistinctKids',
    check(config) {
      if (!config.jwks || config.jwks.keys.length <= 1) return;
      const kids = config.jwks.keys.map((key) => key.kid);
      if (kids.some((kid) => !kid) || new Set(kids).size !== kids.length) {
        throw new ConfigError('JWKS', 'needs a distinct "kid" on each key when it holds several');
      }
    },
  },
  {
    name: 'topicsAreDistinct',
    check(config) {
      const names = new Set<string>();
      const numbers = new Set<number>();
      for (const [i, topic] of config.claims.topics.entries()) {
        if (names.has(topic.name) || numbers.has(topic.topic)) {
          throw new ConfigError(`claims.topics.${i}`, `"${topic.name}" (${topic.topic}) repeats a topic name or number`);
        }
        names.add(topic.name);
        numbers.add(topic.topic);
      }
    },
  },
  {
    name: 'trustedIssuersNameTopics',
    check(config) {
      const topicNames = topicNamesOf(config);
      for (const [i, trusted] of config.claims.trustedIssuers.entries()) {
        const unknown = trusted.topics.find((name) => !topicNames.has(name));
        if (unknown) throw new ConfigError(`claims.trustedIssuers.${i}.topics`, `names "${unknown}", which is not a configured topic`);
        // A trust framework is the issuer's for a topic it is trusted for, never beside it.
        const untrusted = Object.keys(trusted.trustFrameworks).find((name) => !trusted.topics.includes(name));
        if (untrusted) {
          throw new ConfigError(`claims.trustedIssuers.${i}.trustFrameworks`, `names "${untrusted}", which is not one of this issuer's topics`);
        }
      }
    },
  },
  {
    name: 'displayNamesNameTopics',
    check(config) {
      const topicNames = topicNamesOf(config);
      for (const [i, named] of config.displayNames.topics.entries()) {
        if (!topicNames.has(named.topic)) throw new ConfigError(`displayNames.topics.${i}.topic`, `names "${named.topic}", which is not a configured topic`);
      }
    },
  },
  {
    name: 'registrationTokenGoesWithItsMode',
    check(config) {
      const withToken = config.clientRegistration === 'initial_access_token';
      if (withToken && !config.registrationAccessToken) {
        throw new ConfigError('REGISTRATION_ACCESS_TOKEN', 'is required with CLIENT_REGISTRATION=initial_access_token');
      }
      if (!withToken && config.registrationAccessToken) {
        throw new ConfigError('REGISTRATION_ACCESS_TOKEN', `is only used with CLIENT_REGISTRATION=initial_access_token (it is ${config.clientRegistration})`);
      }
    },
  },
  {
    // Client by client, each rule in turn: the first client with a problem is the one named.
    name: 'clientsAreComplete',
    check(config) {
      const ids = new Set<string>();
      for (const [i, client] of config.clients.entries()) {
        if (ids.has(client.client_id)) throw new ConfigError(`clients.${i}.client_id`, `"${client.client_id}" is listed twice`);
        ids.add(client.client_id);
        // The rules every client meets, configured or added at run time (src/config/client_metadata.ts).
        const broken = clientProblem(client);
        if (broken) throw new ConfigError(`clients.${i}.${broken.field}`, broken.problem);
      }
    },
  },
];

/** What the start should say of the settings it read (old spellings), by the Config they made. */
const warningsOf = new WeakMap<Config, readonly string[]>();

/** The warnings the settings of `config` gave (logged once at start). */
export const configWarnings = (config: Config): readonly string[] => warningsOf.get(config) ?? [];

/** Validates a raw settings object; the first problem stops the start, naming its path. */
export function validateConfig(given: unknown): Config {
  // A copy: the members are read into the code's names in place.
  const raw = structuredClone(given) as Record<string, unknown>;
  const warnings = raw && typeof raw === 'object' ? respellMembers(raw, Object.keys(rateLimitsSchema.shape)) : [];
  const unknown = unknownMember(schema, raw);
  if (unknown) {
    const [top] = unknown.path.split('.');
    const variable = ENV_NAMES[top!];
    const meant = nearest(unknown.path.split('.').at(-1)!, unknown.known);
    throw new ConfigError(unknown.path, `is not a setting${variable ? ` (in ${variable})` : ''}${meant ? `; did you mean ${meant}?` : ''}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(settingName(issue.path), issue.message);
  }
  const config = parsed.data;
  for (const { check } of CONFIG_CHECKS) check(config);
  const frozen = deepFreeze(config);
  warningsOf.set(frozen, warnings);
  return frozen;
}
