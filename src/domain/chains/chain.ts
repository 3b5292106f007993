// One chain Signet serves and every part that reads or keeps something on it, built once at
// start: its settings (its CHAINS entry), its client and endpoints, how it names its identities
// (src/infra/chain/chains.ts), its identity reads, linked-signature check and profiles, and its
// claim parts: the topics trusted there, the claim reader, the off-chain records, the claims
// service, the verified data, and Signet's own issuer when Signet has a key. A feature reaches a
// part only through the chain it belongs to (chains.ts).
import type { Address, PublicClient } from 'viem';
import { retentionSeconds } from '../../base/retention.js';
import type { ChainSetting, Config } from '../../config/config.js';
import type { ChainNaming } from '../../infra/chain/chains.js';
import type { RpcEndpoints } from '../../infra/chain/rpc_endpoints.js';
import type { Store } from '../../infra/store/store.js';
import { createSignetIssuer } from '../claim_issuer/signet_issuer.js';
import { createClaimReader } from '../claims/claim_reader.js';
import { createClaimRecords } from '../claims/claim_records.js';
import { createClaimTopics } from '../claims/claim_topics.js';
import { createClaimsService } from '../claims/claims_service.js';
import type { DisplayNames } from '../claims/display_names.js';
import { createIdentityRegistry } from '../identity/identity_registry.js';
import { createProfileStore } from '../profile/profile.js';
import { createVerifiedSources } from '../verified_claims/verified_sources.js';
import { createLinkedSignatureVerifier } from '../wallet/verify_linked_signature.js';

/** What a process gives for each chain: its CHAINS entry and the client it made over its endpoints. */
export type ChainDeps = {
  settings: ChainSetting;
  client: PublicClient;
  /** The endpoints under the client, where the process made it from the settings (their state for /admin/readiness, the watcher's eth_getLogs range). */
  endpoints?: RpcEndpoints;
};

/**
 * Every member of a CHAINS entry and the one place that reads it. A member added to the schema
 * does not compile until it is listed here (docs/development.md, "Add a per-chain setting").
 */
export const CHAIN_SETTINGS_READ = {
  chain_id: 'buildChain, below: the chain id of every part',
  name: 'buildChain, below: what people read',
  identity_factory: "buildChain, below: the identity registry's IdFactory",
  claim_issuer: "buildChain, below: Signet's ClaimIssuer here",
  rpc_url: 'src/app/server.ts: the client over the chain endpoints (chainEndpointsOf)',
  rpc_urls: 'src/app/server.ts: the client over the chain endpoints (chainEndpointsOf)',
  confirmations: "src/features/consent_end/consent_end_feature.ts: the watcher's settled point",
} as const satisfies Record<keyof ChainSetting, string>;

/** What every chain's parts share. */
export type ChainShared = {
  config: Pick<Config, 'issuer' | 'claims' | 'chainCacheSeconds' | 'claimIssuer' | 'retention'>;
  store: Store;
  names: DisplayNames;
  now: () => number;
  /** More than one chain is served: Signet's own claims then stand only where their record names the chain. */
  several: boolean;
  /** Signet's ClaimIssuer on every chain served (none without SIGNET_ISSUER_KEY). */
  signetIssuers: readonly Address[];
};

/** Signet's ClaimIssuer on a chain: the entry's own claim_issuer, or SIGNET_ISSUER_ADDRESS. */
export const signetIssuerOn = (settings: ChainSetting, claimIssuer: NonNullable<Config['claimIssuer']>): Address =>
  settings.claim_issuer ?? claimIssuer.address;

export function buildChain({ settings, client, endpoints }: ChainDeps, naming: ChainNaming, shared: ChainShared) {
  const { config, store, now } = shared;
  const chainId = settings.chain_id;
  // Whether the factory knows an address is kept as long as claim reads are (CHAIN_CACHE_SECONDS).
  const registry = createIdentityRegistry(client, settings.identity_factory, { seconds: config.chainCacheSeconds, now });
  const profiles = createProfileStore(store, naming.identityKey);
  const topics = createClaimTopics(config.claims, chainId);
  const reader = createClaimReader(client, config.chainCacheSeconds, now);
  const records = createClaimRecords(store, { endedClaimSeconds: retentionSeconds(config.retention.endedClaimDays) }, now, naming.identityKey);
  // One chain: as ever. Several: Signet's claims stand only where its record names the chain.
  const own = shared.several ? { chainId, issuers: shared.signetIssuers, idInRecords: naming.idInRecords } : undefined;
  const claims = createClaimsService({ reader, topics, records, now, own });
  const verified = createVerifiedSources({ claims, topics, names: shared.names, chainId, now });
  const issuer = config.claimIssuer
    ? createSignetIssuer({
        key: config.claimIssuer.key,
        address: signetIssuerOn(settings, config.claimIssuer),
        client,
        baseUrl: config.issuer,
        topics,
        records,
        reader,
        registry,
        chainId,
        identityRef: naming.identityKey,
        now,
      })
    : undefined;
  return {
    settings,
    chainId,
    /** What people read. */
    name: settings.name,
    client,
    endpoints,
    ...naming,
    registry,
    verifyLinkedSignature: createLinkedSignatureVerifier(client, registry),
    profiles,
    topics,
    reader,
    records,
    claims,
    verified,
    issuer,
  };
}

/** One chain served, with all its parts. */
export type Chain = ReturnType<typeof buildChain>;
