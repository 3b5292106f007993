// The claims feature: topics and display names from the settings, and on each chain the chain
// reader, the off-chain records, the claims service and the verified data it holds, and
// Signet's own issuer when it has a key; the owners' requests for its claims, and the admin
// API's routes. What features read of the first chain's claims is also given as `reads` (what
// one chain always had).
// Each chain's parts carry that chain's identity reads and profiles too: together they are what
// a login, the account, the grants and the owner's data read on a chain.
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
import type { ProfileStore } from '../../domain/profile/profile.js';
import { createVerifiedSources } from '../../domain/verified_claims/verified_sources.js';
import type { VerifyLinkedSignature } from '../../domain/wallet/verify_linked_signature.js';
import { type Chains, type OnChains, onChainsFrom } from '../../infra/chain/chains.js';
import type { Store } from '../../infra/store/store.js';
import { claimsAdminRoutes } from './claims_admin_routes.js';

export type ClaimsFeatureDeps = {
  config: Pick<Config, 'issuer' | 'claims' | 'displayNames' | 'chainCacheSeconds' | 'claimIssuer' | 'adminToken' | 'retention'>;
  chains: Chains;
  store: Store;
  /** Each chain's identity reads and profiles. */
  identities: OnChains<{ registry: IdentityRegistry; verifyLinkedSignature: VerifyLinkedSignature; profiles: ProfileStore }>;
  now: () => number;
};

export function createClaimsFeature({ config, chains, store, identities, now }: ClaimsFeatureDeps) {
  const names = createDisplayNames(config);
  const endedClaimSeconds = retentionSeconds(config.retention.endedClaimDays);
  // Signet's ClaimIssuer on each chain: its own address there, or the one of SIGNET_ISSUER_ADDRESS.
  const signetIssuers: Address[] = config.claimIssuer ? chains.all.map((chain) => chain.claimIssuer ?? config.claimIssuer!.address) : [];
  const onChain = onChainsFrom(identities, (identity) => {
    const { chain, registry } = identity;
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
          registry,
          chainId: chain.chainId,
          identityRef: chain.identityKey,
          now,
        })
      : undefined;
    return { ...identity, topics, reader, records, claims, verified, issuer };
  });
  const { topics, reader, claims, verified, issuer } = onChain.first;
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
  // What the login, the account, the owner's data and CIBA read of claims on the first chain.
  const reads = { claims, verified, topics, names, reader, claimRequests };
  return { routes, issuer, onChain, reads };
}

export type ClaimsFeature = ReturnType<typeof createClaimsFeature>;
