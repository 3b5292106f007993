// What a Signet process under the bench is started with: built for production, one process (so
// /proc gives its whole CPU), the bench's chain behind the latency proxy, its own redis-server,
// one website client, and rate limits no load reaches. Each call draws new cookie keys. And the
// profiles every owner has saved, so that ID tokens and userinfo release a name and an email.
import { type KeyObject, randomBytes } from 'node:crypto';
import { keys } from '../src/infra/store/keys.js';
import type { BenchChain } from './bench_chain.js';
import type { BenchClient } from './oidc_driver.js';

const plenty = { points: 10_000_000, seconds: 60 };

export function benchServerEnv(setup: { rpcUrl: string; chain: BenchChain; client: BenchClient; privateKey: KeyObject }) {
  const { rpcUrl, chain, client, privateKey } = setup;
  return (port: number, redisUrl: string): Record<string, string> => ({
    NODE_ENV: 'production',
    // One process each, so /proc gives a server's whole CPU; the workers' gain is measured apart.
    WORKERS: '1',
    PORT: String(port),
    ISSUER: 'https://signet.bench',
    TRUST_PROXY: '1',
    REDIS_URL: redisUrl,
    CHAIN_RPC_URL: rpcUrl,
    CHAIN_ID: String(chain.anvil.chainId),
    IDENTITY_FACTORY: chain.suite.identityFactory,
    COOKIE_KEYS: randomBytes(24).toString('hex'),
    JWKS: JSON.stringify({ keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'bench', use: 'sig', alg: 'RS256' }] }),
    CLIENTS: JSON.stringify([{ ...client, client_name: 'Bench site', redirect_uris: [client.redirect_uri], redirect_uri: undefined }]),
    RATE_LIMITS: JSON.stringify({
      challengesPerAddress: plenty,
      challengesPerInteraction: plenty,
      signaturesPerAddress: plenty,
      signaturesPerInteraction: plenty,
      tokenFailuresPerClient: plenty,
      // Every simulated user logs in from the bench's one address.
      authorizationsPerAddress: plenty,
    }),
  });
}

/** Each owner's saved profile, by its Redis key: a name and an email, as the bare engine's account has. */
export function ownerProfiles(chain: BenchChain): Record<string, string> {
  return Object.fromEntries(chain.users.map((user, i) => [keys.profile(user.identity), JSON.stringify({ given_name: `Owner ${i}`, email: `owner${i}@signet.bench` })]));
}
