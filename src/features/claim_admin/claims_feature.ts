// The claims feature: topics and display names from the settings, and on each chain the chain
// reader, the off-chain records, the claims service and the verified data it holds, and
// Signet's own issuer when it has a key; the owners' requests for its claims, and the admin
// API's routes. The first chain's parts are also given plain (what one chain always had).
import type { Address } from 'viem';
import { retentionSeconds } from '../../base/retention.js';
import type { Config } from '../../config/config.js';
import { createClaimRequests } from '../../domain/claim_issuer/claim_requests.js';
import { createSignetIssuer } from '../../domain/claim_issuer/signet_issuer.js';
import { createClaimReader } from '../../domain/claims/claim_reader.js';
import { createClaimRecords } from '../../domain/claims/claim_records.js';
import { createClaimTopics } from '../../domain/claims/claim_topics.js';
import { createClaimsService } from '../../domain/claims/claims_service.js';
import { createDisplayNames } from '../../domain/claims/display_names.js';
import type { IdentityRegistry } from '../../domain/identity/identity_registry.js';
import { createVerifiedSources } from '../../domain/verified_claims/verified_sources.js';
import { type Chains, onChains } from '../../infra/chain/chains.js';
import type { Store } from '../../infra/store/store.js';
import { claimsAdminRoutes } from './claims_admin_routes.js';

export type ClaimsFeatureDeps = {
  config: Pick<Config, 'issuer' | 'claims' | 'displayNames' | 'chainCacheSeconds' | 'claimIssuer' | 'adminToken' | 'retention'>;
  chains: Chains;
  store: Store;
  /** Each chain's identity reads. */
  registryOn: (chainId: number) => IdentityRegistry;
  now: () => number;
};

export function createClaimsFeature({ config, chains, store, registryOn, now }: ClaimsFeatureDeps) {
  const names = createDisplayNames(config);
  const endedClaimSeconds = retentionSeconds(config.retention.endedClaimDays);
  // Signet's ClaimIssuer on each chain: its own address there, or the one of SIGNET_ISSUER_ADDRESS.
  const signetIssuers: Address[] = config.claimIssuer ? chains.all.map((chain) => chain.claimIssuer ?? config.claimIssuer!.address) : [];
  const onChain = onChains(chains, (chain) => {
    const topics = createClaimTopics(config.claims, chain.chainId);
    const reader = createClaimReader(chain.client, config.chainCacheSeconds, now);
    const records = createClaimRecords(store, { endedClaimSeconds }, now, chain.identityKey);
    // One chain: as ever. Several: Signet's claims stand only where its record names the chain.
    const own = chains.several ? { chainId: chain.chainId, issuers: signetIssuers, first: chain === chains.first } : undefined;
    const claims = createClaimsService({ reader, topics, records, now, own });
    const verified = createVerifiedSources({ claims, topics, names, chainId: chain.chainId, now });
    const issuer = config.claimIssuer
      ? createSignetIssuer({
          key: config.claimIssuer.key,
          address: chain.claimIssuer ?? config.claimIssuer.address,
          client: chain.client,
          baseUrl: config.issuer,
          topics,
          records,
          reader,
          registry: registryOn(chain.chainId),
          chainId: chain.chainId,
          identityRef: chain.identityKey,
          now,
        })
      : undefined;
    return { topics, reader, records, claims, verified, issuer };
  });
  const { topics, reader, records, claims, verified, issuer } = onChain.first;
  // Owners ask for Signet's claims only where Signet issues them.
  const claimRequests = issuer ? createClaimRequests(store, now) : undefined;
  const routes = claimsAdminRoutes({
    baseUrl: config.issuer,
    issuerOn: issuer ? (chainId) => onChain.require(chainId).issuer! : undefined,
    firstChainId: chains.first.chainId,
    identityRef: (chainId, identity) => onChain.require(chainId).chain.identityKey(identity),
    claimRequests,
    adminToken: config.adminToken,
  });
  return { routes, topics, names, reader, records, claims, verified, issuer, claimRequests, onChain };
}

export type ClaimsFeature = ReturnType<typeof createClaimsFeature>;
