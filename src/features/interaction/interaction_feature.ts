// The login's consent interaction: its routes, and the consent completion it shares with CIBA
// (an owner's signed consent becomes the engine's Grant and a receipt, however it was asked for).
import type Provider from 'oidc-provider';
import { retentionSeconds } from '../../base/retention.js';
import type { Config } from '../../config/config.js';
import type { ClaimTopics } from '../../domain/claims/claim_topics.js';
import type { Chains } from '../../domain/chains/chains.js';
import type { DisplayNames } from '../../domain/claims/display_names.js';
import { createClientLogos } from '../../domain/clients/client_logos.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import { createConsentCompletion } from '../../domain/consent/complete_consent.js';
import type { ConsentReceipts } from '../../domain/consent/consent_receipts.js';
import type { FieldDefinition } from '../../domain/fields/fields.js';
import type { HeldElsewhere } from '../../domain/providers/held_elsewhere.js';
import type { IssueChallenge, IssuedChallenge } from '../../domain/wallet/challenge.js';
import type { BeforeUse, SignedChallenge } from '../../domain/wallet/verify_challenge.js';
import type { Watchlists } from '../../domain/watch/watchlist.js';
import type { RenderPage } from '../../http/pages.js';
import { createGuardedFetch } from '../../infra/outbound/guarded_fetch.js';
import type { DialAddress } from '../../infra/outbound/pinned_request.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import { interactionRoutes } from './interaction_routes.js';

export type InteractionFeatureDeps = {
  /** How long a login's Grant lives (ttl.grant); its receipt outlives it by retention.receiptDays, as proof. */
  config: Pick<Config, 'retention' | 'ttl'>;
  provider: Provider;
  issuer: string;
  /** On each chain: its identity reads, claims and verified data. */
  chains: Chains;
  receipts: ConsentReceipts;
  topics: ClaimTopics;
  issueChallenge: IssueChallenge;
  verifyChallenge: (signed: SignedChallenge, beforeUse?: BeforeUse) => Promise<IssuedChallenge>;
  renderPage: RenderPage;
  /** The embedded demo offers its built-in wallet on the consent page. */
  demoWallet: boolean;
  names: DisplayNames;
  /** Whether a client is the operator's (CLIENTS) or was added at run time. */
  clients: Pick<ClientRegistry, 'isConfigured'>;
  /** The identities the chain watcher follows: a login's identity joins for its Grant's life. */
  watchlists?: Watchlists;
  /** The credentials a wallet may ask for through a login (src/domain/credentials/), and their resource. */
  credentialFields?: readonly FieldDefinition[];
  /** Claim data other Information Providers hold (src/domain/providers/). */
  heldElsewhere: HeldElsewhere;
  /** The one check of URLs given at run time: clients' logos are fetched through it. */
  urlGuard: UrlGuard;
  /** Tests only: where the socket for an approved address goes (src/infra/outbound/pinned_request.ts). */
  dialAddress?: DialAddress;
  now: () => number;
};

export function createInteractionFeature(deps: InteractionFeatureDeps) {
  const grantSeconds = deps.config.ttl.grant;
  const completeConsent = createConsentCompletion({
    provider: deps.provider,
    chains: deps.chains,
    receipts: deps.receipts,
    receiptSeconds: grantSeconds + retentionSeconds(deps.config.retention.receiptDays),
    watch: deps.watchlists && { watchlists: deps.watchlists, grantSeconds },
    credentialIssuer: deps.credentialFields?.length ? deps.issuer : undefined,
    now: deps.now,
  });
  // A logo is a client's own URL even for a client the operator configured: always checked.
  const logos = createClientLogos(createGuardedFetch({ guard: deps.urlGuard, dial: deps.dialAddress }));
  const routes = interactionRoutes({ ...deps, completeConsent, grantSeconds, logos });
  return { routes, completeConsent };
}

export type InteractionFeature = ReturnType<typeof createInteractionFeature>;
