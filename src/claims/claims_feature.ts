// The claims feature: topics and display names from the settings, the chain reader and the
// off-chain records, the claims service and the verified data it holds, Signet's own issuer
// when it has a key, the owners' requests for its claims, and the admin API's routes.
import type { PublicClient } from 'viem';
import type { Config } from '../config.js';
import type { IdentityRegistry } from '../identity/identity_registry.js';
import { retentionSeconds } from '../retention.js';
import type { Store } from '../store/store.js';
import { createClaimReader } from './claim_reader.js';
import { createClaimRecords } from './claim_records.js';
import { createClaimRequests } from './claim_requests.js';
import { createClaimTopics } from './claim_topics.js';
import { claimsAdminRoutes } from './claims_admin_routes.js';
import { createClaimsService } from './claims_service.js';
import { createDisplayNames } from './display_names.js';
import { createSignetIssuer } from './signet_issuer.js';
import { createVerifiedSources } from './verified_sources.js';

export type ClaimsFeatureDeps = {
  config: Pick<Config, 'issuer' | 'claims' | 'displayNames' | 'chainCacheSeconds' | 'claimIssuer' | 'adminToken' | 'retention'>;
  client: PublicClient;
  store: Store;
  registry: IdentityRegistry;
  /** The chain's id, in the evidence of verified claims (CAIP-2, CAIP-10). */
  chainId: number;
  now: () => number;
};

export function createClaimsFeature({ config, client, store, registry, chainId, now }: ClaimsFeatureDeps) {
  const topics = createClaimTopics(config.claims);
  const names = createDisplayNames(config);
  const reader = createClaimReader(client, config.chainCacheSeconds, now);
  const records = createClaimRecords(store, { endedClaimSeconds: retentionSeconds(config.retention.endedClaimDays) }, now);
  const claims = createClaimsService({ reader, topics, records, now });
  const verified = createVerifiedSources({ claims, topics, names, chainId, now });
  const issuer = config.claimIssuer
    ? createSignetIssuer({ ...config.claimIssuer, client, baseUrl: config.issuer, topics, records, reader, registry, now })
    : undefined;
  // Owners ask for Signet's claims only where Signet issues them.
  const claimRequests = issuer ? createClaimRequests(store, now) : undefined;
  const routes = claimsAdminRoutes({ baseUrl: config.issuer, issuer, claimRequests, adminToken: config.adminToken });
  return { routes, topics, names, reader, records, claims, verified, issuer, claimRequests };
}

export type ClaimsFeature = ReturnType<typeof createClaimsFeature>;
