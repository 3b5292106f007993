// createApp(deps) wires Koa, the pages, Signet's routers and the oidc-provider engine.
// It does no I/O of its own: the store, the chain client and the clock come in as deps.
import { join } from 'node:path';
import type Router from '@koa/router';
import Koa from 'koa';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import type { Address, PublicClient } from 'viem';
import { createAccountRouter } from './account/account_router.js';
import { createAccountSessions } from './account/account_sessions.js';
import { createClaimReader } from './claims/claim_reader.js';
import { createClaimRecords } from './claims/claim_records.js';
import { createClaimTopics } from './claims/claim_topics.js';
import { createClaimsRouter } from './claims/claims_router.js';
import { type ClaimsService, createClaimsService } from './claims/claims_service.js';
import { createSignetIssuer, type SignetIssuer } from './claims/signet_issuer.js';
import type { Config } from './config.js';
import { errorHandler, type Logger } from './http/error_handler.js';
import { createPageRenderer } from './http/pages.js';
import { securityHeaders } from './http/security_headers.js';
import { staticFiles } from './http/static_files.js';
import { createIdentityRegistry, type IdentityRegistry } from './identity/identity_registry.js';
import { createConsentReceipts, type ConsentReceipts } from './interaction/consent_receipts.js';
import { createInteractionRouter } from './interaction/interaction_router.js';
import { createProvider } from './oidc/provider.js';
import { projectRoot } from './project_root.js';
import { createProfileStore, type ProfileStore } from './profile/profile.js';
import type { Store } from './store/store.js';
import { createChallengeIssuer } from './wallet/challenge.js';
import { createChallengeVerifier } from './wallet/verify_challenge.js';

export type ChainDeps = { client: PublicClient; rpcUrl: string; chainId: number; identityFactory: Address };

export type AppDeps = {
  config: Config;
  store: Store;
  chain: ChainDeps;
  logger?: Logger;
  /** The clock, in epoch milliseconds; tests freeze it. */
  now?: () => number;
  /** The embedded demo offers its built-in wallet on the consent page. */
  demoWallet?: boolean;
  /** Extra routes mounted before the engine (the embedded demo's relying party). */
  extraRoutes?: (parts: { renderPage: ReturnType<typeof createPageRenderer> }) => Router[];
};

export type SignetApp = {
  app: Koa;
  provider: Provider;
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  registry: IdentityRegistry;
  claims: ClaimsService;
  issuer?: SignetIssuer;
};


export const silentLogger: Logger = { error: () => {}, info: () => {} };

export function createApp(deps: AppDeps): SignetApp {
  const { config, store, chain } = deps;
  const now = deps.now ?? Date.now;
  const logger = deps.logger ?? silentLogger;
  const renderPage = createPageRenderer(join(projectRoot, 'views'));
  const profiles = createProfileStore(store);
  const receipts = createConsentReceipts(store);
  const registry = createIdentityRegistry(chain.client, chain.identityFactory);
  const topics = createClaimTopics(config.claims);
  const reader = createClaimReader(chain.client, config.chainCacheSeconds, now);
  const records = createClaimRecords(store);
  const claims = createClaimsService({ reader, topics, records, now });
  const issuer = config.claimIssuer
    ? createSignetIssuer({
        ...config.claimIssuer,
        client: chain.client,
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        baseUrl: config.issuer,
        topics,
        records,
        reader,
        registry,
        now,
      })
    : undefined;
  const provider = createProvider({ config, chainId: chain.chainId, store, profiles, receipts, claims, topics, renderPage });

  const issueChallenge = createChallengeIssuer(
    store,
    { issuer: config.issuer, chainId: chain.chainId, ttlSeconds: config.challengeTtlSeconds },
    now,
  );
  const verifyChallenge = createChallengeVerifier(store, chain.client, now);

  const interactions = createInteractionRouter({
    provider,
    issuer: config.issuer,
    chainId: chain.chainId,
    grantTtlSeconds: config.ttl.grant,
    registry,
    receipts,
    topics,
    claims,
    issueChallenge,
    verifyChallenge,
    renderPage,
    demoWallet: deps.demoWallet ?? false,
    now,
  });

  const account = createAccountRouter({
    chainId: chain.chainId,
    registry,
    receipts,
    sessions: createAccountSessions(store, new URL(config.issuer).protocol === 'https:'),
    issueChallenge,
    verifyChallenge,
    now,
  });

  const claimsRouter = createClaimsRouter({
    provider,
    chainId: chain.chainId,
    claims,
    receipts,
    registry,
    issuer,
    adminToken: config.adminToken,
  });

  const app = new Koa({ keys: [...config.cookieKeys] });
  app.proxy = config.mode === 'production';
  app.use(securityHeaders());
  app.use(errorHandler(renderPage, logger));
  app.use(staticFiles(join(projectRoot, 'public')));
  app.use(interactions.routes());
  app.use(interactions.allowedMethods());
  app.use(account.routes());
  app.use(account.allowedMethods());
  app.use(claimsRouter.routes());
  app.use(claimsRouter.allowedMethods());
  for (const router of deps.extraRoutes?.({ renderPage }) ?? []) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  app.use(mount(provider));
  return { app, provider, profiles, receipts, registry, claims, issuer };
}
