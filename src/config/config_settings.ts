// Every setting, declared once: where it sits in the config, the environment variable that
// gives it, how that variable's text is read, its default and what it means. The schema takes its
// defaults from here (schema.ts), the environment mapping and the names errors give settings are
// derived from it (environment.ts), and the "Configuration" table of docs/operations.md is rendered from it
// (settings_table.ts, `npm run docs:settings`). Bounds and types are the schema's.
import { ConfigError } from '../base/errors.js';

type Env = Record<string, string | undefined>;

/** What a custom reader sees besides the variable's text. */
export interface EnvReading {
  readonly env: Env;
  /** The issuer the JSON files give (before the environment). */
  readonly fileIssuer: unknown;
  /** Sets another setting, by its path, from this variable. */
  set(path: string, value: unknown): void;
}

/**
 * How a variable's text becomes the setting's raw value (the schema validates it after):
 * - `text`, `number`: as is (the schema coerces numbers, and its message names the bounds);
 * - `boolean`: `true` or `false`, anything else refused;
 * - `list`: comma separated, entries trimmed, empty ones dropped; errors on an entry name the variable;
 * - `json`: parsed (a JSON `null`, `false`, `0` or `""` counts as unset);
 * - a function: a reader of its own (returning undefined leaves the setting unset).
 */
export type EnvParse = 'text' | 'number' | 'boolean' | 'list' | 'json' | ((text: string, name: string, reading: EnvReading) => unknown);

export interface Setting {
  /** The environment variable; none for settings given in the JSON files only. */
  readonly env?: string;
  /** Dotted path in the config (`ttl.*`: a whole block, described in one row). */
  readonly path: string;
  readonly parse?: EnvParse;
  /** The default value, the only place it is written: the schema applies it, the settings table shows it. */
  readonly default?: DefaultValue;
  /** The table's default when it is not one plain value. */
  readonly defaultText?: string;
  /** The table's meaning (links relative to docs/). */
  readonly meaning: string;
  /** Read and checked elsewhere than fromEnv (NODE_ENV: modeOf); errors name its path. */
  readonly readApart?: true;
  /** Errors on this setting name its path, not its variable. */
  readonly errorsByPath?: true;
  /**
   * The environment gives this setting's whole block at once: when one variable of the block is
   * set, every setting of the block is written, from its variable if defined, else its default.
   */
  readonly wholeBlock?: true;
  /**
   * Why the variable is not the path in capitals (chainWatch.pollMs: CHAIN_WATCH_POLL_MS). The
   * variables are what deployments already set, so a differing one keeps its name and says why.
   */
  readonly variableNamed?: string;
}

export type DefaultValue = string | number | boolean | readonly number[];

/** The variable a setting's path would have: the path in capitals, words split by "_". */
export const variableOfPath = (path: string): string =>
  path
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\./g, '_')
    .toUpperCase();

/** The default issuer: a local development address. */
export const DEFAULT_ISSUER = 'http://localhost:3000';

/** PORT, checked here: a bad PORT would otherwise surface as a bad issuer (http://localhost:<PORT>). */
function readPort(text: string, name: string, reading: EnvReading): string {
  if (!(/^\d{1,5}$/.test(text) && Number(text) <= 65535)) throw new ConfigError(name, 'must be a port number (0 to 65535)');
  // PORT alone moves the default local issuer along; an issuer set in a file stays.
  const defaultIssuer = reading.fileIssuer === undefined || reading.fileIssuer === DEFAULT_ISSUER;
  if (!reading.env.ISSUER && defaultIssuer) reading.set('issuer', `http://localhost:${text}`);
  return text;
}

/** CHAIN_RPC_URLS: comma separated, each `url` or `label=url`. */
function readRpcEndpoints(text: string): unknown[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const labelled = /^([A-Za-z0-9._:-]{1,40})=(.+)$/.exec(entry);
      return labelled && !/^[a-z]+:\/\//i.test(entry) ? { url: labelled[2], label: labelled[1] } : entry;
    });
}

/** CHAIN_WATCH_CONFIRMATIONS: a number, or a block tag. */
const readSettledPoint = (text: string): unknown => (/^\d+$/.test(text) ? Number(text) : text);

/** COOKIE_KEYS: comma separated and trimmed; an empty key stays, for the schema to refuse. */
const readCookieKeys = (text: string): string[] => text.split(',').map((key) => key.trim());

export const SETTINGS: readonly Setting[] = [
  {
    env: 'NODE_ENV',
    variableNamed: "Node's own variable for the mode, which libraries read too",
    path: 'mode',
    readApart: true,
    default: 'development',
    meaning: '`production` refuses the demo parts (below)',
  },
  {
    env: 'ISSUER',
    path: 'issuer',
    default: DEFAULT_ISSUER,
    meaning: 'the issuer URL; https in production. `PORT` alone moves the default to `http://localhost:<PORT>`',
  },
  { env: 'PORT', path: 'port', parse: readPort, default: 3000, meaning: 'the HTTP port' },
  { env: 'REDIS_URL', path: 'redisUrl', defaultText: 'none: in-memory store', meaning: '`redis://` or `rediss://` URL; required in production' },
  {
    env: 'REDIS_CLUSTER',
    variableNamed: '`redisServers` only groups the ways past one Redis server in the code; the variables speak of Redis',
    path: 'redisServers.cluster',
    parse: 'list',
    defaultText: 'none',
    meaning: 'Redis Cluster seed nodes, `host:port,host:port,…`; instead of `REDIS_URL`',
  },
  {
    env: 'REDIS_SENTINELS',
    variableNamed: '`redisServers` only groups the ways past one Redis server in the code; the variables speak of Redis',
    path: 'redisServers.sentinels',
    parse: 'list',
    defaultText: 'none',
    meaning: 'Sentinels of a master, `host:port,…`; instead of `REDIS_URL`; needs `REDIS_SENTINEL_NAME`',
  },
  {
    env: 'REDIS_SENTINEL_NAME',
    variableNamed: '`redisServers` only groups the ways past one Redis server in the code; the variables speak of Redis',
    path: 'redisServers.sentinelName',
    defaultText: 'none',
    meaning: "the master's name the Sentinels monitor",
  },
  {
    env: 'REDIS_PASSWORD',
    variableNamed: '`redisServers` only groups the ways past one Redis server in the code; the variables speak of Redis',
    path: 'redisServers.password',
    defaultText: 'none',
    meaning: 'password of the Redis servers (any mode)',
  },
  {
    env: 'REDIS_SENTINEL_PASSWORD',
    variableNamed: '`redisServers` only groups the ways past one Redis server in the code; the variables speak of Redis',
    path: 'redisServers.sentinelPassword',
    defaultText: 'none',
    meaning: "the Sentinels' own password, with `REDIS_SENTINELS`",
  },
  {
    env: 'REDIS_TLS',
    variableNamed: '`redisServers` only groups the ways past one Redis server in the code; the variables speak of Redis',
    path: 'redisServers.tls',
    parse: 'boolean',
    default: false,
    meaning: "TLS to the cluster's nodes, or to the Sentinels and the master (`REDIS_URL` says it with `rediss://`)",
  },
  {
    env: 'REDIS_WAIT_REPLICAS',
    path: 'redis.waitReplicas',
    parse: 'number',
    wholeBlock: true,
    default: 0,
    meaning:
      "replicas that must hold a consumed mark, a revocation, a grant's status step or a taken challenge (`WAIT`) before Signet answers; fewer within half the command deadline: 503 `store_unavailable`; 0 to 5",
  },
  {
    env: 'REDIS_COMMAND_TIMEOUT_MS',
    path: 'redis.commandTimeoutMs',
    parse: 'number',
    wholeBlock: true,
    default: 500,
    meaning: 'a Redis command without an answer after this long fails (503 `store_unavailable`); 50 to 10000',
  },
  {
    env: 'REDIS_RECONNECT_MAX_DELAY_MS',
    path: 'redis.reconnectMaxDelayMs',
    parse: 'number',
    wholeBlock: true,
    default: 250,
    meaning: 'longest pause between reconnections to Redis, so recovery follows Redis within about this long; 10 to 10000',
  },
  {
    env: 'CHAIN_RPC_URL',
    path: 'chain.rpcUrl',
    defaultText: 'none: embedded anvil',
    meaning: 'any EVM JSON-RPC endpoint; this or `CHAIN_RPC_URLS` is required in production',
  },
  {
    env: 'CHAIN_RPC_URLS',
    path: 'chain.rpcUrls',
    parse: readRpcEndpoints,
    defaultText: 'none',
    meaning:
      "the chain's endpoints in order of preference, comma separated, each `url` or `label=url` (logs, metrics and `/admin/readiness` name an endpoint by its label, else by its host, never by its URL); calls go to the first that is up ([operations](operations.md#running-on-a-public-chain))",
  },
  {
    env: 'CHAIN_ID',
    variableNamed: 'the one-chain shorthand: the path in capitals would say CHAIN twice',
    path: 'chain.chainId',
    parse: 'number',
    defaultText: '31337 with anvil',
    meaning: 'required with `CHAIN_RPC_URL`',
  },
  {
    env: 'IDENTITY_FACTORY',
    variableNamed: "ONCHAINID's own name for the contract; `chain` only groups the one-chain shorthand",
    path: 'chain.identityFactory',
    defaultText: 'deployed by the demo',
    meaning: 'the ONCHAINID `IdFactory`; only identities it knows can log in',
  },
  {
    env: 'CHAINS',
    path: 'chains',
    parse: 'json',
    defaultText: 'none: the one chain above',
    meaning:
      'JSON list of `{ chain_id, name, rpc_url or rpc_urls, identity_factory, claim_issuer?, confirmations? }`: several chains behind one issuer, instead of `CHAIN_RPC_URL`, `CHAIN_ID` and `IDENTITY_FACTORY` (setting both is an error); the first is the default chain, the one a bare identity address means. `rpc_urls` lists endpoints as URLs or `{ "url", "label" }` ([operations](operations.md#several-chains))',
  },
  {
    env: 'READY_WITH_CHAINS',
    path: 'readyWithChains',
    defaultText: '`any`',
    meaning: '`/readyz` answers ready while `any` configured chain answers (a down chain shows in its `checks`) or only while `all` do',
  },
  {
    env: 'JWKS',
    path: 'jwks',
    parse: 'json',
    defaultText: 'a key made at start',
    meaning:
      "JSON Web Key Set of private signing keys; required in production (the engine's development keys are refused). Several keys, each with its own `kid`: the first signs, the others still verify (rotation)",
  },
  {
    env: 'COOKIE_KEYS',
    path: 'cookieKeys',
    parse: readCookieKeys,
    defaultText: 'a demo key',
    meaning: 'comma-separated secrets for signed cookies, newest first; the demo key is refused in production',
  },
  {
    env: 'CLIENTS',
    path: 'clients',
    parse: 'json',
    errorsByPath: true,
    defaultText: 'the `demo` client',
    meaning:
      'JSON list of clients: `client_id`, `client_secret`, `client_name`, `redirect_uris`, `post_logout_redirect_uris`, `token_endpoint_auth_method` (`client_secret_basic`, `client_secret_post`, `private_key_jwt` or `none`). Written to Redis at every start, over any change made at run time; clients added at run time (the admin API, dynamic registration) are kept beside them ([operations](operations.md#clients))',
  },
  {
    env: 'CLAIM_TOPICS',
    variableNamed: '`claims` only groups the claim settings in the code; the variable names what it lists',
    path: 'claims.topics',
    parse: 'json',
    defaultText: '`kyc` (1), `accredited` (7)',
    meaning: 'JSON list of `{ name, topic, description }`: the claim topics websites can ask for as `claim:<name>`',
  },
  {
    env: 'TRUSTED_ISSUERS',
    variableNamed: '`claims` only groups the claim settings in the code; the variable names what it lists',
    path: 'claims.trustedIssuers',
    parse: 'json',
    defaultText: 'none (the demo trusts its ClaimIssuer)',
    meaning:
      'JSON list of `{ address, topics: [names], trust_frameworks?: { <topic name>: <trust framework> }, chain_id? }`: the ClaimIssuer contracts trusted for each topic on the chain `chain_id` names (required with several `CHAINS`), and the OpenID Identity Assurance trust framework (such as `de_aml`) their checks of a topic follow; only topics with one are released as `verified_claims` ([verified claims](verified-claims.md))',
  },
  {
    env: 'SIGNET_ISSUER_ADDRESS',
    variableNamed: "Signet's own ClaimIssuer: CLAIM_ISSUER_ADDRESS would read as any trusted issuer's",
    path: 'claimIssuer.address',
    wholeBlock: true,
    defaultText: "the demo's ClaimIssuer",
    meaning: "Signet's own ClaimIssuer contract, to issue claims",
  },
  {
    env: 'SIGNET_ISSUER_KEY',
    variableNamed: "Signet's own ClaimIssuer: CLAIM_ISSUER_KEY would read as any trusted issuer's",
    path: 'claimIssuer.key',
    wholeBlock: true,
    defaultText: 'anvil account #0 in the demo',
    meaning: 'private key holding a MANAGEMENT key on that ClaimIssuer (it signs and revokes claims, and sends `addClaim`)',
  },
  {
    env: 'DEFAULT_LANGUAGE',
    path: 'defaultLanguage',
    default: 'en',
    meaning:
      'the language of the pages when neither the website (`ui_locales`), the owner (the switcher) nor the browser (`Accept-Language`) names one Signet speaks: `en`, `fr`, `de`, `es`, `ja` or `ar` ([operations](operations.md#languages))',
  },
  {
    env: 'OPERATOR_NAME',
    path: 'operatorName',
    defaultText: 'none: the pages say "this Signet\'s operator"',
    meaning:
      'who runs this Signet, as owners know it (at most 60 characters): the consent page says a website that registered itself was "not reviewed by" it ([owners](owners.md#who-asks))',
  },
  { env: 'ADMIN_TOKEN', path: 'adminToken', defaultText: 'none: admin API off', meaning: 'bearer token of the admin API (at least 24 characters)' },
  {
    env: 'CLIENT_REGISTRATION',
    path: 'clientRegistration',
    default: 'off',
    meaning:
      'dynamic client registration (RFC 7591, managed by RFC 7592) at `/reg`: `off`, `initial_access_token` (a registration must bring `REGISTRATION_ACCESS_TOKEN`) or `open` (anyone may register) ([operations](operations.md#clients))',
  },
  {
    env: 'CLIENT_REGISTRATION_MAX_CLIENTS',
    variableNamed: 'read as options of CLIENT_REGISTRATION, beside it',
    path: 'clientRegistrationLimits.maxClients',
    parse: 'number',
    default: 1000,
    meaning:
      'the most clients dynamic registration keeps at once (those it made and not yet removed or expired); past it a registration is refused, `400 access_denied` ([operations](operations.md#dynamic-client-registration-rfc-7591-rfc-7592))',
  },
  {
    env: 'CLIENT_REGISTRATION_PER_ADDRESS',
    variableNamed: 'read as options of CLIENT_REGISTRATION, beside it',
    path: 'clientRegistrationLimits.perAddress',
    parse: 'number',
    default: 5,
    meaning:
      'with `CLIENT_REGISTRATION=open`, the most clients registration keeps at once that were registered from one address (an IPv6 address counts by its /64); past it a registration from there is refused, `400 access_denied`, until one of them is deleted or expires unused ([operations](operations.md#dynamic-client-registration-rfc-7591-rfc-7592))',
  },
  {
    env: 'CLIENT_REGISTRATION_PER_NETWORK',
    variableNamed: 'read as options of CLIENT_REGISTRATION, beside it',
    path: 'clientRegistrationLimits.perNetwork',
    parse: 'number',
    default: 10,
    meaning:
      'the same, for all the addresses of one network: an IPv4 /24 or an IPv6 /48; at least `CLIENT_REGISTRATION_PER_ADDRESS` ([operations](operations.md#dynamic-client-registration-rfc-7591-rfc-7592))',
  },
  {
    env: 'CLIENT_REGISTRATION_UNUSED_HOURS',
    variableNamed: 'read as options of CLIENT_REGISTRATION, beside it',
    path: 'clientRegistrationLimits.unusedHours',
    parse: 'number',
    default: 24,
    meaning: 'a registered client that completes no login within this many hours (fractions allowed) is removed, with its registration access token',
  },
  {
    env: 'REGISTRATION_ACCESS_TOKEN',
    path: 'registrationAccessToken',
    defaultText: 'none',
    meaning:
      'the initial access token a dynamic registration brings as a bearer token (at least 24 characters); required with `CLIENT_REGISTRATION=initial_access_token`, refused otherwise',
  },
  {
    env: 'IDENTITY_DEPLOYER_KEY',
    path: 'identityDeployerKey',
    defaultText: 'anvil account #0 in the demo',
    meaning: "the IdFactory owner's key: Signet deploys identities for wallets that have none",
  },
  {
    env: 'TRUST_PROXY',
    path: 'trustProxy',
    parse: 'number',
    default: 0,
    defaultText: '`0`: no `X-Forwarded-*` header trusted',
    meaning:
      'how many reverse proxies append to `X-Forwarded-For`; with 1 the rightmost entry is the client and `X-Forwarded-Proto`/`Host` count. Set 1 behind one TLS proxy ([operations](operations.md#rate-limits-and-proxy-trust))',
  },
  {
    env: 'RATE_LIMITS',
    path: 'rateLimits',
    parse: 'json',
    defaultText: 'see [operations](operations.md#the-limit-classes)',
    meaning:
      'JSON `{ "<class>": { "points": n, "seconds": s }, "failed_signatures_per_challenge": n, "backchannel_pending_per_identity": n }`, classes in snake_case (`challenges_per_address`, …): challenges, signatures, account sign-ins, failed client authentications, access requests, anonymous profile and claim reads, identity creations, client registrations, authorization and pushed authorization requests, CIBA starts, validations, revocations and CIBA approvals',
  },
  {
    env: 'CHAIN_DEADLINE_MS',
    variableNamed: "a request's budget for all its chain calls is a deadline, apart from one call's timeout",
    path: 'chainTimeouts.requestMs',
    parse: 'number',
    default: 1500,
    meaning:
      'the chain budget of one request, all its RPC calls together: past it the route answers 503 `chain_unavailable` (see `docs/operations.md`, "Chain outages")',
  },
  {
    env: 'CHAIN_CALL_TIMEOUT_MS',
    variableNamed: 'names the one call it bounds',
    path: 'chainTimeouts.callMs',
    parse: 'number',
    default: 5000,
    meaning: 'the longest one RPC call may take, in a request or in background work',
  },
  {
    env: 'CHAIN_RPC_PROBE_MS',
    variableNamed: 'names what is probed: an RPC endpoint',
    path: 'chainTimeouts.probeMs',
    parse: 'number',
    default: 2000,
    meaning: 'how often a failed RPC endpoint is asked (`eth_blockNumber`) whether it answers again; it rejoins when it does (100 to 600000)',
  },
  {
    env: 'CHAIN_WATCH',
    variableNamed: 'an on/off switch, named by what it turns on',
    path: 'chainWatch.enabled',
    parse: 'boolean',
    default: true,
    meaning:
      "follow the chain for the events that end consents (a wallet's key removed, a claim removed, changed or revoked); one process at a time, by a lease in Redis ([operations](operations.md#following-the-chain))",
  },
  { env: 'CHAIN_WATCH_POLL_MS', path: 'chainWatch.pollMs', parse: 'number', default: 1000, meaning: 'how often the watcher asks for new blocks (50 to 60000)' },
  {
    env: 'CHAIN_WATCH_CONFIRMATIONS',
    path: 'chainWatch.confirmations',
    parse: readSettledPoint,
    defaultText: "each chain's own: 12 on Ethereum, `finalized` on Polygon and BNB, 10 on Base and OP, 20 on Arbitrum, 0 elsewhere",
    meaning:
      "when the watcher takes an event as settled, for every chain without its own `confirmations` in `CHAINS`: blocks under the head (0 to 1000), or `safe` or `finalized` (the node's tags); it reads nothing past that point ([operations](operations.md#running-on-a-public-chain))",
  },
  {
    env: 'CHAIN_WATCH_LAG_WARN_SECONDS',
    path: 'chainWatch.lagWarnSeconds',
    parse: 'number',
    default: 120,
    meaning: 'the watcher says once, at `warn`, that it has not reached the settled point for this long (5 to 86400)',
  },
  {
    env: 'CHAIN_WATCH_MAX_BLOCK_RANGE',
    path: 'chainWatch.maxBlockRange',
    parse: 'number',
    default: 2000,
    meaning: "the most blocks one `eth_getLogs` asks for (1 to 100000); lower it to your RPC provider's limit",
  },
  {
    env: 'CHAIN_WATCH_LEASE_SECONDS',
    path: 'chainWatch.leaseSeconds',
    parse: 'number',
    default: 10,
    meaning: 'a watcher that has not renewed its lease for this long is taken for dead, and another process takes over (1 to 600); keep it several polls long',
  },
  {
    env: 'WORKERS',
    variableNamed: "`ops` only groups the operations settings in the code; the variable is the usual service's name",
    path: 'ops.workers',
    default: 1,
    // Production already requires Redis and an RPC URL, all a second process needs (config/production.json).
    defaultText: '1; `auto` in production',
    meaning:
      'processes sharing the port (`node:cluster`), a number or `auto` (one per core); above 1 needs `REDIS_URL` and `CHAIN_RPC_URL`. Production runs one per core unless set ([performance](performance.md#workers))',
  },
  {
    env: 'METRICS_PORT',
    variableNamed: "`ops` only groups the operations settings in the code; the variable is the usual service's name",
    path: 'ops.metricsPort',
    parse: 'number',
    defaultText: 'none: metrics off',
    meaning: 'port of the Prometheus `GET /metrics` listener (never on the public port)',
  },
  {
    env: 'LOG_LEVEL',
    variableNamed: "`ops` only groups the operations settings in the code; the variable is the usual service's name",
    path: 'ops.logLevel',
    default: 'info',
    meaning: 'JSON logs on stdout: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  },
  {
    env: 'LOG_HASH_KEY',
    path: 'logHashKey',
    defaultText: 'none: a random key per process',
    meaning:
      'key (at least 16 characters) of the keyed hash (HMAC-SHA256, 16 hex digits) that stands for an identity in log lines (`identity_hash`) instead of its address. Set it, the same in every process, so lines can be correlated across processes and restarts; keep it secret and rotate it rarely (hashes before and after a rotation no longer match) ([operations](operations.md#health-logs-and-metrics))',
  },
  {
    env: 'SHUTDOWN_GRACE_MS',
    variableNamed: "`ops` only groups the operations settings in the code; the variable is the usual service's name",
    path: 'ops.shutdownGraceMs',
    parse: 'number',
    default: 10000,
    meaning: 'on SIGTERM, how long requests in flight may finish before their connections are cut',
  },
  {
    env: 'HTTP_MAX_CONNECTIONS',
    path: 'http.maxConnections',
    parse: 'number',
    default: 4096,
    meaning:
      "the most connections one process keeps open at once (idle keep-alive ones included); one more is closed as soon as it is accepted. Keep it under the process's file limit (`ulimit -n`) less a hundred for Redis and the chain; `WORKERS` processes hold as many each ([operations](operations.md#connections-and-slow-clients))",
  },
  {
    env: 'HTTP_HEADERS_TIMEOUT_MS',
    path: 'http.headersTimeoutMs',
    parse: 'number',
    default: 10000,
    meaning: "how long a client may take to send a request's headers, from its first byte; past it, `408` and the connection is closed",
  },
  {
    env: 'HTTP_REQUEST_TIMEOUT_MS',
    path: 'http.requestTimeoutMs',
    parse: 'number',
    default: 30000,
    meaning:
      'how long a client may take to send a whole request, headers and body; past it, `408` and the connection is closed. At least `HTTP_HEADERS_TIMEOUT_MS`',
  },
  {
    env: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    path: 'http.keepAliveTimeoutMs',
    parse: 'number',
    default: 5000,
    meaning:
      "how long a connection stays open, idle, after an answer, waiting for the next request; behind a proxy that reuses connections, set it above the proxy's own idle timeout",
  },
  {
    env: 'HTTP_IDLE_TIMEOUT_MS',
    path: 'http.idleTimeoutMs',
    parse: 'number',
    default: 60000,
    meaning: 'how long a connection may pass nothing either way (a client that neither sends nor reads the answer) before it is closed',
  },
  {
    env: 'CREDENTIAL_AGE_THRESHOLDS',
    variableNamed: '`credentials` groups what Signet issues to wallets in the code; the variable names the thresholds',
    path: 'credentials.ageThresholds',
    parse: 'list',
    default: [18, 21],
    meaning:
      'the ages an age credential proves yes or no (`age_equal_or_over`), comma separated, 1 to 150; 18 and 21 are always among them ([credentials](credentials.md))',
  },
  {
    env: 'CREDENTIAL_LIFETIME_DAYS',
    variableNamed: '`credentials` groups what Signet issues to wallets in the code; the variable says what it bounds',
    path: 'credentials.lifetimeDays',
    parse: 'number',
    default: 90,
    meaning:
      'the longest a credential Signet issues lives (1 to 366 days); its claim’s expiry and, for age proofs, the next birthday that changes one end it sooner ([credentials](credentials.md))',
  },
  {
    env: 'CREDENTIALS_PER_IDENTITY_PER_DAY',
    path: 'credentials.perIdentityPerDay',
    parse: 'number',
    default: 30,
    meaning:
      'the most credentials one identity receives in 24 hours (1 to 1000), all wallets and offers together; past it the credential endpoint answers 429 `credentials_daily_limit` with Retry-After. One access token receives one request’s credentials, up to 10 ([credentials](credentials.md))',
  },
  {
    path: 'credentials.offerSeconds',
    default: 600,
    meaning: 'how long a credential offer’s pre-authorized code and its transaction code wait for the wallet (60 to 3600 seconds)',
  },
  { path: 'challengeTtlSeconds', default: 300, meaning: 'life of a wallet challenge (30 to 300)' },
  {
    path: 'chainCacheSeconds',
    default: 10,
    meaning:
      'how long claim reads, and whether the IdFactory knows an address read for a resource of it, are cached (0 to 3600); the claim cache keeps at most 10,000 reads (about 16 MiB), and reads finding nothing at most 1,000 more; the IdFactory’s answers, at most 10,000 known addresses and 1,000 unknown ones per chain',
  },
  {
    path: 'ttl.*',
    defaultText: 'see `config/default.json`',
    meaning: 'lifetimes of access token, ID token, refresh token, grant, session, interaction (seconds)',
  },
  { path: 'grants.pendingSeconds', default: 604800, meaning: 'how long a persistent access request waits for the owner (seconds)' },
  {
    path: 'grants.webhookRetryDelaysMs',
    default: [1000, 5000, 30000, 120000, 600000, 1800000],
    meaning: 'delays between webhook delivery attempts (ms); after the last, the event is a dead letter',
  },
  {
    env: 'ACCESS_TOKENS_PER_GRANT',
    variableNamed: '`tokenLimits` only groups the bounds in the code; the variable says what is bounded',
    path: 'tokenLimits.accessTokensPerGrant',
    parse: 'number',
    default: 3,
    meaning:
      "the most live access tokens one login grant holds (1 to 100): a refresh past it ends the grant's oldest, and the grant keeps as many used refresh tokens for reuse detection ([data](data.md#refresh-tokens-and-the-grants-records))",
  },
  {
    env: 'CLIENT_CREDENTIALS_TOKENS_PER_CLIENT',
    variableNamed: '`tokenLimits` only groups the bounds in the code; the variable says what is bounded',
    path: 'tokenLimits.clientCredentialsPerClient',
    parse: 'number',
    default: 10,
    meaning: "the most live client credentials tokens one client holds (1 to 1000): a token asked past it ends the client's oldest",
  },
  {
    path: 'demo.enabled',
    default: true,
    defaultText: 'true (false in production)',
    meaning: 'serves `/demo` and, with the embedded chain, the built-in demo wallet',
  },
  {
    env: 'DEMO_CHAINS',
    path: 'demo.chains',
    parse: 'number',
    defaultText: '1',
    meaning:
      'the embedded demo starts 1 or 2 local chains (chain ids 31337 and 31338, ports 8545 and 8546): with 2, the demo identity is on both, at one address, and logins choose the chain ([operations](operations.md#several-chains))',
  },
  {
    env: 'DISPLAY_NAMES',
    path: 'displayNames',
    parse: 'json',
    defaultText: '`kyc` "KYC check", `accredited` "Accredited investor"; the demo names its issuer "Signet demo issuer"',
    meaning:
      'JSON `{ "issuers": [{ address, name }], "topics": [{ topic, name }], "trust_frameworks": [{ trust_framework, name }] }`: names the pages and the demo website show instead of issuer addresses, topic codes and trust framework identifiers (1 to 60 characters; `topic` is a configured topic\'s name). Issuers without a name are shown by their address, shortened; a few well-known trust frameworks (`de_aml`, `eidas`, `nist_800_63A`, `jp_aml`) have words already',
  },
  {
    env: 'WEBHOOKS_ALLOW_PRIVATE',
    path: 'webhooks.allowPrivate',
    parse: 'boolean',
    default: false,
    meaning:
      "lets the URLs given at run time (owners' and run-time clients' webhooks, back-channel logout URIs, SSF endpoints, the jwks_uri and sector_identifier_uri the engine fetches) reach loopback and private addresses, for development; refused in production",
  },
  {
    env: 'WEBHOOKS_TIMEOUT_MS',
    path: 'webhooks.timeoutMs',
    parse: 'number',
    default: 5000,
    meaning: 'one webhook delivery attempt, DNS and address check included',
  },
  { env: 'WEBHOOKS_CONCURRENCY', path: 'webhooks.concurrency', parse: 'number', default: 16, meaning: 'webhook deliveries at once per process' },
  {
    env: 'WEBHOOKS_PER_TARGET_CONCURRENCY',
    path: 'webhooks.perTargetConcurrency',
    parse: 'number',
    default: 2,
    meaning: 'webhook deliveries at once to one receiver',
  },
  {
    env: 'INFORMATION_PROVIDERS',
    path: 'informationProviders',
    parse: 'json',
    defaultText: 'none: claim data held elsewhere is not fetched',
    meaning:
      'JSON list of `{ name, url, api_key }`: the Information Providers (other Signets, or any provider of the same access-grant protocol) whose claim data Signet fetches for its owners when a claim\'s `uri` lies under `url`; `name` is shown to owners (1 to 60 characters; plain, or per language as `{ "en": …, "fr": … }`, whose English form names the provider in logs, metrics and the signed text), `api_key` is the key that provider issued to this Signet as a service ([operations](operations.md#connecting-two-information-providers))',
  },
  {
    env: 'PROVIDER_TIMEOUT_MS',
    path: 'providerTimeoutMs',
    parse: 'number',
    default: 3000,
    meaning:
      "the deadline of Signet's requests to one Information Provider in one step (the access request, or the validation and the read together), connection and body included; past it the claim is released without data, `data_status: provider_unavailable`",
  },
  {
    env: 'PROVIDER_RECHECK_SECONDS',
    path: 'providerRecheckSeconds',
    parse: 'number',
    default: 30,
    meaning:
      'how old (1 to 30 s) the copy of data fetched from an Information Provider may be when a token or userinfo releases it; an older one is read again at the provider first, so a grant revoked there stops the release within this bound',
  },
  {
    env: 'REFRESH_WHEN_CHAIN_DOWN',
    path: 'refreshWhenChainDown',
    default: 'allow',
    meaning:
      "a refresh reads the signing wallet's key on chain; when the chain cannot be read, `allow` lets it through (the chain watcher ends the grant later), `refuse` answers 503 `chain_unavailable`",
  },
  {
    env: 'RETENTION_HISTORY_DAYS',
    path: 'retention.historyDays',
    parse: 'number',
    default: 90,
    meaning: "days an entry of an owner's access history is kept (fractions allowed)",
  },
  {
    env: 'RETENTION_HISTORY_ENTRIES',
    path: 'retention.historyEntries',
    parse: 'number',
    default: 1000,
    meaning: 'entries of access history kept per identity at most; the oldest go first (10 to 100000)',
  },
  {
    env: 'RETENTION_RECEIPT_DAYS',
    path: 'retention.receiptDays',
    parse: 'number',
    default: 365,
    meaning: 'days a consent receipt (the signed text and signature) is kept as proof after its grant ends or the owner erases their data',
  },
  {
    env: 'RETENTION_ENDED_GRANT_DAYS',
    path: 'retention.endedGrantDays',
    parse: 'number',
    default: 30,
    meaning: 'days an ended access grant (revoked, used, denied, expired) stays readable by its service and owner',
  },
  {
    env: 'RETENTION_ENDED_CLAIM_DAYS',
    path: 'retention.endedClaimDays',
    parse: 'number',
    default: 30,
    meaning: 'days the off-chain data of a claim Signet issued is kept once the claim is revoked or removed',
  },
];

/** A setting's declared default, by path (the schema's defaults are these). */
function defaultOf(path: string): DefaultValue {
  const value = SETTINGS.find((setting) => setting.path === path)?.default;
  if (value === undefined) throw new Error(`config_settings.ts declares no default for ${path}`);
  return value;
}

/** A declared default that must be a number (a setting's default, wherever the code needs it). */
export function defaultNumber(path: string): number {
  const value = defaultOf(path);
  if (typeof value !== 'number') throw new Error(`config_settings.ts: the default of ${path} must be a number`);
  return value;
}

export function defaultFlag(path: string): boolean {
  const value = defaultOf(path);
  if (typeof value !== 'boolean') throw new Error(`config_settings.ts: the default of ${path} must be true or false`);
  return value;
}

export function defaultText(path: string): string {
  const value = defaultOf(path);
  if (typeof value !== 'string') throw new Error(`config_settings.ts: the default of ${path} must be text`);
  return value;
}

export function defaultChoice<const T extends readonly string[]>(path: string, choices: T): T[number] {
  const value = defaultText(path);
  if (!choices.includes(value)) throw new Error(`config_settings.ts: the default of ${path} must be one of ${choices.join(', ')}`);
  return value;
}

export function defaultNumbers(path: string): number[] {
  const value = defaultOf(path);
  if (!Array.isArray(value)) throw new Error(`config_settings.ts: the default of ${path} must be a list of numbers`);
  return [...value];
}
