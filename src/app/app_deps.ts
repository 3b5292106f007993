// What createApp takes (the store, the chains, the clock and the queue a process gives it) and
// what it gives back (the Koa app, the engine, and the parts a process or a test drives).
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { Config } from '../config/config.js';
import type { Chains } from '../domain/chains/chains.js';
import type { SignetIssuer } from '../domain/claim_issuer/signet_issuer.js';
import type { ClaimsService } from '../domain/claims/claims_service.js';
import type { DisplayNames } from '../domain/claims/display_names.js';
import type { ClientRegistry } from '../domain/clients/client_registry.js';
import type { RemoveClient } from '../domain/clients/client_removal.js';
import type { ConsentReceipts } from '../domain/consent/consent_receipts.js';
import type { Signals } from '../domain/consent/consent_signal.js';
import type { AccessHistory } from '../domain/history/access_history.js';
import type { IdentityRegistry } from '../domain/identity/identity_registry.js';
import type { ProfileStore } from '../domain/profile/profile.js';
import type { HeldElsewhere } from '../domain/providers/held_elsewhere.js';
import type { ChainConsentHandlers, ChainWatcher } from '../domain/watch/chain_watcher.js';
import type { Watchlist } from '../domain/watch/watchlist.js';
import type { WebhookQueue } from '../domain/webhooks/webhook_queue.js';
import type { ChainConsentEnds } from '../features/consent_end/chain_consent_ends.js';
import type { AccessGrants } from '../features/grants/access_grants.js';
import type { ErasureJobs, ErasureSettings } from '../features/owner_data/erasure_jobs.js';
import type { ErasureStep } from '../features/owner_data/erasure_steps.js';
import type { ApiKeys } from '../features/services/api_keys.js';
import type { OpenApiDocument } from '../http/openapi.js';
import type { RenderPage } from '../http/pages.js';
import type { AnyRoute } from '../http/route.js';
import type { Logger } from '../infra/observability/logger.js';
import type { Metrics } from '../infra/observability/metrics.js';
import type { DialAddress } from '../infra/outbound/pinned_request.js';
import type { ResolveHost } from '../infra/outbound/url_guard.js';
import type { Store } from '../infra/store/store.js';
import type { ChainDeps } from './app_parts.js';

export type AppDeps = {
  config: Config;
  store: Store;
  /** One chain, or several in the order of CHAINS (the default chain, what a bare identity address means, is decided there: src/infra/chain/chains.ts). */
  chain: ChainDeps | readonly ChainDeps[];
  logger?: Logger;
  /** Prometheus metrics of this process (off when absent). */
  metrics?: Metrics;
  /** The clock, in epoch milliseconds; tests freeze it. */
  now?: () => number;
  /** The embedded demo offers its built-in wallet on the consent page. */
  demoWallet?: boolean;
  /** Where access-grant notifications to services go (Redis Streams, or memory in the demo). */
  webhooks: WebhookQueue;
  /** DNS for the URLs given at run time (webhooks, SSF endpoints, clients' URLs the engine fetches), at save and at the engine's fetches (default: the system resolver). */
  resolveHost?: ResolveHost;
  /** Tests only: where the engine's socket for an approved public address goes (src/infra/outbound/pinned_request.ts). */
  dialAddress?: DialAddress;
  /** Tests only: how long a client record is served from memory (default: src/infra/store/client_records.ts). */
  clientCacheMs?: number;
  /** Tests only: when the access history's waiting releases are written (default: HISTORY_BATCH_MS after the first of a batch). */
  historySchedule?: (flush: () => void) => void;
  /** Extra route declarations, in the table with Signet's own (the embedded demo's relying party). */
  extraRoutes?: (parts: { renderPage: RenderPage; names: DisplayNames; clients: ClientRegistry; chains: Chains }) => AnyRoute[];
  /** Erasure job timing (tests shorten the lease and the sweep). */
  erasureSettings?: Partial<ErasureSettings>;
  /** Called before each erasure step (tests cut a process there). */
  beforeErasureStep?: (step: ErasureStep) => Promise<void>;
  /** What the chain watcher does with the events that end consents (default: Signet's own, src/features/consent_end/chain_consent_ends.ts). */
  consentEnds?: ChainConsentHandlers;
};

export type SignetApp = {
  app: Koa;
  provider: Provider;
  /** Every chain served, with all its parts (src/domain/chains/). */
  chains: Chains;
  /** The default chain's (what a bare identity address means): its profiles, identity reads, claims and Signet's issuer there. */
  profiles: ProfileStore;
  receipts: ConsentReceipts;
  registry: IdentityRegistry;
  claims: ClaimsService;
  issuer?: SignetIssuer;
  /** Signet's issuer on each chain served (the default chain's is `issuer`). */
  issuerOn: (chainId: number) => SignetIssuer | undefined;
  apiKeys: ApiKeys;
  accessGrants: AccessGrants;
  history: AccessHistory;
  /** What the chain's events that end consent do (the chain watcher calls these). */
  chainConsentEnds: ChainConsentEnds;
  /** Tells the websites that consent ended: back-channel logout tokens and SSF events (src/features/signals/). */
  signals: Signals;
  /** The clients, CLIENTS' and those added at run time (src/domain/clients/). */
  clients: ClientRegistry;
  /** Writes CLIENTS to the client records (decision 23); a process runs it before it serves. */
  seedClients(): Promise<void>;
  /** Deletes a client and ends what it held (decision 24), as the admin API's DELETE does. */
  removeClient: RemoveClient;
  /** Erasure jobs: start() resumes open ones and sweeps for those whose process died; stop() ends the sweep. */
  erasures: ErasureJobs;
  /** Every Signet route, as declared (the router and /openapi.json are made from it). */
  routes: readonly AnyRoute[];
  openApi: OpenApiDocument;
  /** Follows the chain for the events that end consents; server.ts starts and stops it. */
  watcher: ChainWatcher;
  /** The identities the default chain's watcher follows. */
  watchlist: Watchlist;
  /** Claim data held at other Information Providers: the grants Signet holds there, the copies it keeps (src/domain/providers/). */
  heldElsewhere: HeldElsewhere;
};
