// The one schema of the settings: every setting's type, bounds and structure. Defaults come from
// the settings' declarations (config_settings.ts); the members of JSON settings are written here
// as people write them, snake_case, and read into the code's names where those differ.
import { getAddress } from 'viem';
import { z } from 'zod';
import { CHAIN_ID_RULE } from '../base/chain_id.js';
import { ADDRESS_RULE, isEthereumAddress } from '../base/ethereum_address.js';
import { BYTES32_PATTERN } from '../base/hex_text.js';
import { LANGUAGES, type Language, type LocalizedText, textIn } from '../base/languages.js';
import { type ClientMetadata, clientSchema } from './client_metadata.js';
import { defaultChoice, defaultFlag, defaultNumber, defaultNumbers, defaultText } from './config_settings.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const CLIENT_REGISTRATION_MODES = ['off', 'initial_access_token', 'open'] as const;
const WHEN_CHAIN_DOWN = ['allow', 'refuse'] as const;

/** camelCase of a snake_case name, as a type: the code's name of a member written snake_case. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** An object written snake_case, in the code's camelCase names. */
function inCodeNames<T extends Record<string, unknown>>(value: T): { [K in keyof T & string as Camel<K>]: T[K] } {
  return Object.fromEntries(Object.entries(value).map(([name, inner]) => [camel(name), inner])) as { [K in keyof T & string as Camel<K>]: T[K] };
}

const address = z
  .string()
  .refine(isEthereumAddress, ADDRESS_RULE)
  .transform((v) => getAddress(v));

/** An Information Provider the operator trusts: its name for owners, its base URL, the API key it issued to this Signet. */
/** A chain id in a JSON setting (base/chain_id.ts, as a number). */
const chainId = z.number({ error: CHAIN_ID_RULE }).int().positive();

const informationProviderSchema = z
  .object({
    // Shown to owners, so it may be given per language; its English (else first) form names the provider in logs, metrics and the signed text.
    name: localizedText(z.string().trim().min(1, 'needs 1 to 60 characters').max(60, 'needs 1 to 60 characters')),
    names: perLanguageTexts(z.string().trim().min(1, 'needs 1 to 60 characters').max(60, 'needs 1 to 60 characters')).optional(),
    url: z
      .string()
      .refine((value) => {
        const url = URL.parse(value);
        return (url?.protocol === 'https:' || url?.protocol === 'http:') && !url.search && !url.hash && !url.username && !url.password;
      }, 'must be an http(s) URL without query, fragment or credentials')
      // One spelling: no trailing slash, so "under the URL" is a plain prefix with "/" after it.
      .transform((value) => new URL(value).href.replace(/\/+$/, '')),
    api_key: z
      .string()
      .min(16, 'needs at least 16 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  })
  .transform((provider) => inCodeNames(withNames(provider)));

// Signing keys: private JWKs (the engine publishes their public halves at /jwks).
const jwkSchema = z
  .object({ kty: z.enum(['RSA', 'EC', 'OKP']), kid: z.string().optional(), d: z.string({ error: 'is missing: the key must be private' }) })
  .loose();

const hexKey = z
  .string()
  .regex(BYTES32_PATTERN, 'must be a 0x-prefixed 32-byte private key')
  .transform((value) => value as `0x${string}`);

/**
 * An operator's text people read, plain (the same in every language) or given per language
 * ({ "en": "…", "fr": "…" }, decision 82): read as its English text (else the first given), the
 * per-language forms kept beside it for the pages.
 */
function localizedText(text: z.ZodType<string>) {
  const perLanguage = perLanguageTexts(text).refine(
    (given) => Object.values(given).some((value) => value !== undefined),
    'must give the text in at least one language',
  );
  return z.union([text, perLanguage], { error: `must be text, or an object of texts by language (${LANGUAGES.join(', ')})` });
}

/** Texts by language, each optional: also how Signet keeps a text given per language, so a read config validates again as itself. */
function perLanguageTexts(text: z.ZodType<string>) {
  return z.strictObject(Object.fromEntries(LANGUAGES.map((language) => [language, text.optional()])) as Record<Language, z.ZodOptional<z.ZodType<string>>>);
}

/** The English (else first) form of a text, and the per-language forms when they were given. */
const readLocalized = (given: LocalizedText) => (typeof given === 'string' ? { text: given } : { text: textIn(given, 'en'), byLanguage: given });

const claimsSchema = z.object({
  topics: z
    .array(
      z
        .object({
          name: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be lower case letters, digits, "_" or "-"'),
          topic: z.number().int().nonnegative(),
          description: localizedText(z.string().min(1)),
          descriptions: perLanguageTexts(z.string().min(1)).optional(),
        })
        .transform(({ description, descriptions, ...topic }) => {
          const { text, byLanguage } = readLocalized(description);
          const forms = byLanguage ?? descriptions;
          return { ...topic, description: text, ...(forms ? { descriptions: forms } : {}) };
        }),
    )
    .default([]),
  trustedIssuers: z
    .array(
      z
        .object({
          address,
          topics: z.array(z.string()).min(1),
          /**
           * The OpenID Identity Assurance trust framework (e.g. "de_aml") the issuer's checks follow,
           * by topic name: only claims of a topic named here are released as `verified_claims`.
           */
          trust_frameworks: z
            .record(z.string(), z.string().regex(/^[\x21-\x7e]{1,200}$/, 'must be a trust framework identifier (printable ASCII, no spaces)'))
            .default({}),
          /** The chain the issuer is trusted on (required when several chains are configured): never every chain by default. */
          chain_id: chainId.optional(),
        })
        .transform(({ trust_frameworks, ...issuer }) => ({ ...issuer, trustFrameworks: trust_frameworks })),
    )
    .default([]),
});

// An RPC endpoint: its URL (whose path or query may hold a provider's API key), and the label
// logs, metrics and /admin/readiness name it by (default: the URL's host).
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
// The classes are written snake_case (RATE_LIMITS) and read into the code's camelCase names.
const rateLimitClasses = z.object({
  challenges_per_address: limit(30, 60),
  challenges_per_interaction: limit(10, 300),
  signatures_per_address: limit(30, 60),
  signatures_per_interaction: limit(10, 300),
  /** Wrong signatures a challenge takes before it is burnt; its window is the challenge's life. */
  failed_signatures_per_challenge: z.number().int().positive().default(5),
  account_sign_ins_per_address: limit(20, 600),
  token_failures_per_client: limit(10, 600),
  access_requests_per_service: limit(120, 60),
  /** Anonymous reads of a profile's or a claim's public part (no token, no API key). */
  public_reads_per_address: limit(120, 60),
  identity_creations_per_address: limit(5, 3600),
  identity_creations_per_wallet: limit(3, 86400),
  /** Dynamic client registrations (POST /reg) from one address. */
  registrations_per_address: limit(20, 3600),
  /** Authorization requests (GET and POST /auth) from one address: each may store an interaction. */
  authorizations_per_address: limit(300, 60),
  /** Pushed authorization requests (POST /request) from one address: a website's server sends them for all its users. */
  pushed_requests_per_address: limit(600, 60),
  /** CIBA starts (POST /backchannel), counted before the identity is looked up on the chain. */
  backchannel_starts_per_address: limit(60, 60),
  backchannel_starts_per_client: limit(120, 60),
  backchannel_starts_per_identity: limit(5, 600),
  /** CIBA requests waiting in one identity's inbox at once. */
  backchannel_pending_per_identity: z.number().int().positive().default(3),
  /** Validations, revocations and CIBA approvals: counted before any lookup or chain call. */
  grant_attempts_per_address: limit(120, 60),
  grant_attempts_per_grant: limit(5, 600),
});
const rateLimitsSchema = rateLimitClasses.transform(inCodeNames);
/** The rate-limit classes as RATE_LIMITS spells them. */
export const RATE_LIMIT_CLASSES: readonly string[] = Object.keys(rateLimitClasses.shape);
export type RateLimitSettings = z.output<typeof rateLimitsSchema>;
// Names people read instead of addresses and topic codes, on the pages and the demo website.
const displayName = z.string().trim().min(1, 'must not be empty').max(60, 'must be at most 60 characters');
/** A display name read: `name` in English (else the first given), `names` by language when given so. */
const withNames = <T extends { name: LocalizedText; names?: Partial<Record<Language, string>> }>({ name, names, ...entry }: T) => {
  const { text, byLanguage } = readLocalized(name);
  const forms = byLanguage ?? names;
  return { ...entry, name: text, ...(forms ? { names: forms } : {}) } as Omit<T, 'name' | 'names'> & {
    name: string;
    names?: Partial<Record<Language, string>>;
  };
};

const displayNamesSchema = z
  .object({
    /** A claim issuer's name, by its ClaimIssuer contract address. */
    issuers: z.array(z.object({ address, name: localizedText(displayName), names: perLanguageTexts(displayName).optional() }).transform(withNames)).default([]),
    /** A claim topic's name, by the topic's configured name (claims.topics[].name). */
    topics: z
      .array(z.object({ topic: z.string(), name: localizedText(displayName), names: perLanguageTexts(displayName).optional() }).transform(withNames))
      .default([]),
    /** A trust framework in words ("the German AML rules"), by its identifier (de_aml). */
    trust_frameworks: z.array(z.object({ trust_framework: z.string(), name: displayName })).default([]),
  })
  .transform(({ trust_frameworks, ...names }) => ({ ...names, trustFrameworks: trust_frameworks }));

/** Every setting, as config/*.json nests them (the environment's variables are read into this shape). */
export const configSchema = z.object({
  mode: z.enum(['development', 'test', 'production']),
  issuer: z
    .url({ error: 'must be an absolute URL' })
    .refine((v) => !v.endsWith('/'), 'must not end with "/"')
    .default(defaultText('issuer')),
  port: z.coerce.number().int().min(0).max(65535).default(defaultNumber('port')),
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
      tls: z.boolean({ error: 'must be true or false' }).default(defaultFlag('redisServers.tls')),
    })
    .prefault({}),
  /** How the Redis client meets an outage: each command's deadline, the longest pause between reconnections. */
  redis: z
    .object({
      commandTimeoutMs: z.coerce.number().int().min(50).max(10000).default(defaultNumber('redis.commandTimeoutMs')),
      reconnectMaxDelayMs: z.coerce.number().int().min(10).max(10000).default(defaultNumber('redis.reconnectMaxDelayMs')),
      /** Replicas that must hold a single-use or revocation write (WAIT) before Signet answers; 0: none. */
      waitReplicas: z.coerce.number().int().min(0).max(5).default(defaultNumber('redis.waitReplicas')),
    })
    .prefault({}),
  /** The one-chain shorthand; empty, the embedded chain. */
  chain: z
    .object({
      rpcUrl: rpcUrl.optional(),
      /** Several endpoints of the one chain, in order of preference (CHAIN_RPC_URLS). */
      rpcUrls: rpcEndpointList.optional(),
      chainId: z.coerce.number().int().positive().optional(),
      identityFactory: address.optional(),
    })
    .prefault({}),
  /** Several chains behind one issuer (CHAINS); the one-chain shorthand is `chain` (CHAIN_RPC_URL…). */
  chains: z
    .array(
      z.object({
        chain_id: chainId,
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
    // Empty only in a loaded Config given back (the embedded chain): settings that name none are refused at load.
    .optional(),
  /** /readyz with a chain down: still ready while any chain answers (unset: any), or only while all do. */
  readyWithChains: z.enum(['any', 'all'], { error: 'must be "any" or "all"' }).optional(),
  challengeTtlSeconds: z.number().int().min(30).max(300).default(defaultNumber('challengeTtlSeconds')),
  chainCacheSeconds: z.number().int().min(0).max(3600).default(defaultNumber('chainCacheSeconds')),
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
      accessTokensPerGrant: z.coerce.number().int().min(1).max(100).default(defaultNumber('tokenLimits.accessTokensPerGrant')),
      clientCredentialsPerClient: z.coerce.number().int().min(1).max(1000).default(defaultNumber('tokenLimits.clientCredentialsPerClient')),
    })
    .prefault({}),
  /** What Signet issues to owners' wallets (OpenID4VCI, SD-JWT VC): docs/credentials.md. */
  credentials: z
    .object({
      ageThresholds: z.array(z.coerce.number().int().min(1).max(150)).default(defaultNumbers('credentials.ageThresholds')),
      lifetimeDays: z.coerce.number().min(1).max(366).default(defaultNumber('credentials.lifetimeDays')),
      offerSeconds: z.coerce.number().int().min(60).max(3600).default(defaultNumber('credentials.offerSeconds')),
      perIdentityPerDay: z.coerce.number().int().min(1).max(1000).default(defaultNumber('credentials.perIdentityPerDay')),
    })
    .prefault({}),
  clients: z.array(clientSchema),
  jwks: z.object({ keys: z.array(jwkSchema).min(1) }).optional(),
  cookieKeys: z.array(z.string().min(16, 'each key needs at least 16 characters')).min(1),
  demo: z
    .object({
      enabled: z.boolean().default(defaultFlag('demo.enabled')),
      /** Local chains the embedded demo starts (without CHAIN_RPC_URL or CHAINS). */
      chains: z.coerce.number().int().min(1, 'must be 1 or 2').max(2, 'must be 1 or 2').optional(),
    })
    .prefault({}),
  claims: claimsSchema.prefault({}),
  /** Signet as a claim issuer: its ClaimIssuer contract and a key with MANAGEMENT there. */
  claimIssuer: z.object({ address, key: hexKey }).optional(),
  grants: z
    .object({
      /** How long a persistent access request waits for the owner. */
      pendingSeconds: z.number().int().positive().default(defaultNumber('grants.pendingSeconds')),
      /** Delays between webhook delivery attempts; after the last, a dead letter. */
      webhookRetryDelaysMs: z.array(z.number().int().positive()).min(1).default(defaultNumbers('grants.webhookRetryDelaysMs')),
    })
    .prefault({}),
  /** Webhook delivery. allowPrivate lets owners' URLs reach private addresses: development only. */
  webhooks: z
    .object({
      allowPrivate: z.boolean({ error: 'must be true or false' }).default(defaultFlag('webhooks.allowPrivate')),
      timeoutMs: z.coerce.number().int().min(100).max(60000).default(defaultNumber('webhooks.timeoutMs')),
      concurrency: z.coerce.number().int().min(1).max(256).default(defaultNumber('webhooks.concurrency')),
      perTargetConcurrency: z.coerce.number().int().min(1).max(64).default(defaultNumber('webhooks.perTargetConcurrency')),
    })
    .prefault({}),
  /** Information Providers whose claim data Signet fetches for its owners (docs/operations.md). */
  informationProviders: z.array(informationProviderSchema).default([]),
  /** The deadline of one step's requests to one provider. */
  providerTimeoutMs: z.coerce.number().int().min(100).max(30_000).default(defaultNumber('providerTimeoutMs')),
  /** How old a fetched copy may be when released; older, it is read again at its provider first. */
  providerRecheckSeconds: z.coerce.number().int().min(1).max(30).default(defaultNumber('providerRecheckSeconds')),
  /** The IdFactory owner's key: Signet deploys identities for wallets that have none. */
  identityDeployerKey: hexKey.optional(),
  /** Chain deadlines: one budget for all chain calls of a request, and a bound per call (background work too). */
  chainTimeouts: z
    .object({
      requestMs: z.coerce.number().int().min(100).max(60_000).default(defaultNumber('chainTimeouts.requestMs')),
      callMs: z.coerce.number().int().min(100).max(60_000).default(defaultNumber('chainTimeouts.callMs')),
      /** How often a failed RPC endpoint is asked whether it answers again. */
      probeMs: z.coerce.number().int().min(100).max(600_000).default(defaultNumber('chainTimeouts.probeMs')),
    })
    .prefault({}),
  /** The pages' language when no request names one Signet speaks (decision 80). */
  defaultLanguage: z.enum(LANGUAGES).default(defaultChoice('defaultLanguage', LANGUAGES)),
  /** Who runs this Signet, named on the consent page beside a website that registered itself. */
  operatorName: displayName.optional(),
  /** Bearer token of the admin API; without it the admin API is off. */
  adminToken: z.string().min(24, 'needs at least 24 characters').optional(),
  /** Dynamic client registration (RFC 7591, 7592): off, behind a fixed initial access token, or open (decision 25). */
  clientRegistration: z.enum(CLIENT_REGISTRATION_MODES).default(defaultChoice('clientRegistration', CLIENT_REGISTRATION_MODES)),
  /** What dynamic registration may hold: the clients it made at most, from one address and one network, and how long one lives without a login. */
  clientRegistrationLimits: z
    .object({
      maxClients: z.coerce.number().int().min(1).max(1_000_000).default(defaultNumber('clientRegistrationLimits.maxClients')),
      perAddress: z.coerce.number().int().min(1).max(1_000_000).default(defaultNumber('clientRegistrationLimits.perAddress')),
      perNetwork: z.coerce.number().int().min(1).max(1_000_000).default(defaultNumber('clientRegistrationLimits.perNetwork')),
      unusedHours: z.coerce.number().positive().max(8760).default(defaultNumber('clientRegistrationLimits.unusedHours')),
    })
    .prefault({}),
  /** The fixed initial access token registrations bring when clientRegistration is initial_access_token. */
  registrationAccessToken: z.string().min(24, 'needs at least 24 characters').optional(),
  /** Operations: processes sharing the port, the metrics listener, logs, shutdown. */
  ops: z
    .object({
      /** Worker processes (node:cluster); 'auto' is one per core. 1 runs no cluster. */
      workers: z.union([z.literal('auto'), z.coerce.number().int().min(1).max(64)]).default(defaultNumber('ops.workers')),
      /** Port of the Prometheus /metrics listener; without it metrics are off. */
      metricsPort: z.coerce.number().int().min(0).max(65535).optional(),
      logLevel: z.enum(LOG_LEVELS).default(defaultChoice('ops.logLevel', LOG_LEVELS)),
      /** On SIGTERM, how long requests in flight may take before their connections are cut. */
      shutdownGraceMs: z.coerce.number().int().min(0).max(120000).default(defaultNumber('ops.shutdownGraceMs')),
    })
    .prefault({}),
  /** The public HTTP server's bounds on connections and on slow clients (src/app/http_server.ts, decision 73). */
  http: z
    .object({
      maxConnections: z.coerce.number().int().min(1).max(1_000_000).default(defaultNumber('http.maxConnections')),
      headersTimeoutMs: z.coerce.number().int().min(100).max(300_000).default(defaultNumber('http.headersTimeoutMs')),
      requestTimeoutMs: z.coerce.number().int().min(100).max(3_600_000).default(defaultNumber('http.requestTimeoutMs')),
      keepAliveTimeoutMs: z.coerce.number().int().min(100).max(600_000).default(defaultNumber('http.keepAliveTimeoutMs')),
      idleTimeoutMs: z.coerce.number().int().min(100).max(3_600_000).default(defaultNumber('http.idleTimeoutMs')),
    })
    .prefault({}),
  /** Reverse proxies in front of Signet whose X-Forwarded-* headers count; 0 trusts none. */
  trustProxy: z.coerce.number({ error: 'must be a number of proxy hops (0 to 10)' }).int().min(0).max(10).default(defaultNumber('trustProxy')),
  rateLimits: rateLimitsSchema.prefault({}),
  displayNames: displayNamesSchema.prefault({}),
  /** How long Signet keeps what it holds about owners once it is no longer in use (docs/data.md). Days may be fractions (tests run them in seconds). */
  retention: z
    .object({
      /** Days an entry of an identity's access history is kept. */
      historyDays: z.coerce.number().positive().max(3650).default(defaultNumber('retention.historyDays')),
      /** Entries kept per identity at most (the oldest go first). */
      historyEntries: z.coerce.number().int().min(10).max(100_000).default(defaultNumber('retention.historyEntries')),
      /** Days a consent receipt (signed text and signature) outlives its grant, as proof of what was agreed. */
      receiptDays: z.coerce.number().min(0).max(3650).default(defaultNumber('retention.receiptDays')),
      /** Days an ended access grant (revoked, used, denied, expired) stays readable by its service and owner. */
      endedGrantDays: z.coerce.number().min(0).max(3650).default(defaultNumber('retention.endedGrantDays')),
      /** Days the off-chain data of a claim Signet issued is kept once the claim is revoked or removed. */
      endedClaimDays: z.coerce.number().min(0).max(3650).default(defaultNumber('retention.endedClaimDays')),
    })
    .prefault({}),
  /**
   * Following the chain: a watcher reads the events that end consent (a wallet's key removed, a
   * claim removed or revoked) from `eth_getLogs`, one process at a time (a lease in Redis).
   */
  chainWatch: z
    .object({
      enabled: z.boolean({ error: 'must be true or false' }).default(defaultFlag('chainWatch.enabled')),
      /** How often the watcher asks for new blocks. */
      pollMs: z.coerce.number().int().min(50).max(60_000).default(defaultNumber('chainWatch.pollMs')),
      /**
       * When a block's events count, for every chain without its own `confirmations`: blocks under
       * the head (0 acts on the newest), or the node's `safe` or `finalized` block. Unset: each
       * chain's known default (src/infra/chain/settled_point.ts).
       */
      confirmations: settledSetting.optional(),
      /** The watcher says once, at warn, that it has not reached the settled point for this long. */
      lagWarnSeconds: z.coerce.number().int().min(5).max(86_400).default(defaultNumber('chainWatch.lagWarnSeconds')),
      /** The most blocks one eth_getLogs asks for. */
      maxBlockRange: z.coerce.number().int().min(1).max(100_000).default(defaultNumber('chainWatch.maxBlockRange')),
      /** A watcher that has not renewed its lease for this long is taken for dead. */
      leaseSeconds: z.coerce.number().int().min(1).max(600).default(defaultNumber('chainWatch.leaseSeconds')),
    })
    .prefault({}),
  /** What a refresh does when the chain cannot be read to check the signing wallet's key: refuse (503) or allow. */
  refreshWhenChainDown: z.enum(WHEN_CHAIN_DOWN).default(defaultChoice('refreshWhenChainDown', WHEN_CHAIN_DOWN)),
  /** Key of the keyed hash (HMAC-SHA256) that stands in for identities and wallets in logs; random per process when unset. */
  logHashKey: z.string().min(16, 'needs at least 16 characters').optional(),
});

/** The settings as read: the one-chain shorthand (`chain`) still beside CHAINS (`chains`); only the checks see them so. */
export type SettingsAsRead = Readonly<z.output<typeof configSchema>>;
/** One entry of CHAINS: a chain's settings (the shorthand is read as one). */
export type ChainSetting = NonNullable<SettingsAsRead['chains']>[number];
/** The configuration: every chain an entry of `chains`, in order (none: the embedded chain of the demo); see chain_list.ts. */
export type Config = Readonly<Omit<SettingsAsRead, 'chain' | 'chains'> & { chains: readonly ChainSetting[] }>;
/** A client of CLIENTS (src/config/client_metadata.ts). */
export type ClientConfig = ClientMetadata;
