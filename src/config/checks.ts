// The rules across settings, each written once: they run after the schema, in this order, and
// the first one broken stops the start with a ConfigError naming the setting.
import { ConfigError } from '../base/errors.js';
import { clientProblem } from './client_metadata.js';
import type { SettingsAsRead as Config } from './schema.js';

/** The cookie keys of config/default.json: fine for the demo, refused in production. */
export const DEMO_COOKIE_KEY_PREFIX = 'demo-only-';

/** A rule across settings: it throws the ConfigError that stops the start. */
interface ConfigCheck {
  readonly name: string;
  check(config: Config): void;
}

const isEmbeddedChain = (config: Config) => !config.chain.rpcUrl && !config.chain.rpcUrls && !config.chains;
const hasSharedRedis = (config: Config) => Boolean(config.redisUrl || config.redisServers.cluster || config.redisServers.sentinels);
const topicNamesOf = (config: Config) => new Set(config.claims.topics.map((topic) => topic.name));

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
    // Logs, metrics and /admin/readiness tell endpoints apart by their labels alone.
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
    // An owner is shown the provider's name: two providers by one name, or one URL under two names, would mislead.
    name: 'informationProvidersDistinct',
    check(config) {
      const names = new Set<string>();
      const urls = new Set<string>();
      for (const [i, provider] of config.informationProviders.entries()) {
        if (names.has(provider.name))
          throw new ConfigError(`informationProviders.${i}.name`, `names "${provider.name}" twice: each provider needs its own name`);
        if (urls.has(provider.url)) throw new ConfigError(`informationProviders.${i}.url`, `lists ${provider.url} twice`);
        // Signet as its own provider would ask itself, with a key of its own, for what it holds already.
        if (new URL(provider.url).origin === new URL(config.issuer).origin) {
          throw new ConfigError(`informationProviders.${i}.url`, "is this Signet's own issuer: list other providers only");
        }
        // The API key travels with every request: never in clear text in production.
        if (config.mode === 'production' && new URL(provider.url).protocol !== 'https:') {
          throw new ConfigError(`informationProviders.${i}.url`, 'must be an https URL in production (the API key travels with every request)');
        }
        names.add(provider.name);
        urls.add(provider.url);
      }
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
          throw new ConfigError(`claims.trustedIssuers.${i}.trust_frameworks`, `names "${untrusted}", which is not one of this issuer's topics`);
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
    // Node refuses a headers timeout longer than the whole request's, and the whole request includes its headers.
    name: 'requestTimeoutHoldsItsHeaders',
    check(config) {
      const { headersTimeoutMs, requestTimeoutMs } = config.http;
      if (requestTimeoutMs < headersTimeoutMs) {
        throw new ConfigError(
          'HTTP_REQUEST_TIMEOUT_MS',
          `is ${requestTimeoutMs}, below HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}): a request's time includes its headers`,
        );
      }
    },
  },
  {
    // A network holds the address: a smaller bound for it would make the address's unreachable.
    name: 'registrationNetworkHoldsItsAddresses',
    check(config) {
      const { perAddress, perNetwork } = config.clientRegistrationLimits;
      if (perNetwork < perAddress) {
        throw new ConfigError(
          'CLIENT_REGISTRATION_PER_NETWORK',
          `is ${perNetwork}, below CLIENT_REGISTRATION_PER_ADDRESS (${perAddress}): a network holds its addresses`,
        );
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
