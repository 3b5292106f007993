// The parts several features share, built once per app from its deps: the clock, logs, pages,
// the profile and receipt stores, the identity registry, the rate limits, the wallet's
// challenge and signature checks, and the CIBA inbox the engine and the owner both use.
import { join } from 'node:path';
import type { Address, PublicClient } from 'viem';
import { createBackchannelInbox } from './ciba/backchannel_inbox.js';
import type { Config } from './config.js';
import type { Logger } from './http/error_handler.js';
import { createPageRenderer } from './http/pages.js';
import { createRateLimits } from './http/rate_limits.js';
import { createIdentityRegistry } from './identity/identity_registry.js';
import { createConsentReceipts } from './interaction/consent_receipts.js';
import { projectRoot } from './project_root.js';
import { createProfileStore } from './profile/profile.js';
import type { Store } from './store/store.js';
import { createChallengeIssuer } from './wallet/challenge.js';
import { createChallengeVerifier } from './wallet/verify_challenge.js';
import { createLinkedSignatureVerifier } from './wallet/verify_linked_signature.js';
import { createWatchlist } from './watch/watchlist.js';

export type ChainDeps = { client: PublicClient; rpcUrl: string; chainId: number; identityFactory: Address };

export const silentLogger: Logger = { error: () => {}, info: () => {} };

export function createAppParts(deps: { config: Config; store: Store; chain: ChainDeps; logger?: Logger; now?: () => number; demoWallet?: boolean }) {
  const { config, store, chain } = deps;
  const now = deps.now ?? Date.now;
  const registry = createIdentityRegistry(chain.client, chain.identityFactory);
  const limits = createRateLimits(store, config.rateLimits, config.challengeTtlSeconds);
  return {
    config,
    store,
    chain,
    now,
    issuer: config.issuer,
    chainId: chain.chainId,
    logger: deps.logger ?? silentLogger,
    renderPage: createPageRenderer(join(projectRoot, 'views')),
    demoWallet: deps.demoWallet ?? false,
    profiles: createProfileStore(store),
    receipts: createConsentReceipts(store),
    registry,
    limits,
    issueChallenge: createChallengeIssuer(store, { issuer: config.issuer, chainId: chain.chainId, ttlSeconds: config.challengeTtlSeconds }, now),
    verifyChallenge: createChallengeVerifier(store, chain.client, limits, now),
    verifyLinkedSignature: createLinkedSignatureVerifier(chain.client, registry),
    backchannel: createBackchannelInbox(store),
    /** The identities the chain watcher follows (src/watch): the features list them as grants start. */
    watchlist: createWatchlist(store, now),
  };
}

export type AppParts = ReturnType<typeof createAppParts>;
