// The claims feature: the owners' requests for Signet's claims, and the admin API's routes,
// over each chain's claim parts (built with the chain: src/domain/chains/).
import type { Config } from '../../config/config.js';
import { createClaimRequests } from '../../domain/claim_issuer/claim_requests.js';
import type { Chains } from '../../domain/chains/chains.js';
import type { Store } from '../../infra/store/store.js';
import { claimsAdminRoutes } from './claims_admin_routes.js';

export type ClaimsFeatureDeps = {
  config: Pick<Config, 'issuer' | 'claimIssuer' | 'adminToken'>;
  chains: Chains;
  store: Store;
  now: () => number;
};

export function createClaimsFeature({ config, chains, store, now }: ClaimsFeatureDeps) {
  // Owners ask for Signet's claims only where Signet issues them.
  const claimRequests = config.claimIssuer ? createClaimRequests(store, now) : undefined;
  const routes = claimsAdminRoutes({
    baseUrl: config.issuer,
    issuerOn: config.claimIssuer ? (chainId) => chains.named(chainId).issuer! : undefined,
    identityRef: (chainId, identity) => chains.named(chainId).identityKey(identity),
    claimRequests,
    adminToken: config.adminToken,
  });
  return { routes, claimRequests };
}

export type ClaimsFeature = ReturnType<typeof createClaimsFeature>;
