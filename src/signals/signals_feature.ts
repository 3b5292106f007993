// Telling the websites that consent no longer stands (docs/signals.md): the Signals the rest of
// Signet emits to, the SSF transmitter's routes, and the engine's own logout (RP-initiated)
// sent through the same queue. Delivery is the webhook queue's (its targets for "bcl:" and
// "ssf:" services are built with the queue: src/process/webhook_queue_for.ts).
import type Provider from 'oidc-provider';
import type { Address } from 'viem';
import type { ClientRegistry } from '../clients/client_registry.js';
import type { Config } from '../config.js';
import type { Signals } from '../consent/consent_signal.js';
import type { WebhookQueue } from '../notify/webhook_queue.js';
import { createWebhookUrlGuard, type ResolveHost } from '../notify/webhook_url_guard.js';
import type { Store } from '../store/store.js';
import { createSignals } from './signals.js';
import type { DpopCheck } from '../dpop/dpop_proof.js';
import { ssfRoutes } from './ssf_routes.js';
import { createSsfStreams } from './ssf_streams.js';

export type SignalsFeatureDeps = {
  config: Config;
  store: Store;
  provider: Provider;
  /** The clients: their back-channel logout URIs, and who may manage SSF streams. */
  clients: ClientRegistry;
  chainId: number;
  /** The webhook queue (its worker delivers the logout tokens and SETs). */
  queue: Pick<WebhookQueue, 'enqueue'>;
  /** The clients holding a live grant of an identity (told when its wallets' keys change). */
  /** chainId: of an identity on another chain than the first. */
  clientsOf(identity: Address, chainId?: number): Promise<string[]>;
  /** DNS for receivers' endpoint URLs, checked at save (default: the system resolver). */
  resolveHost?: ResolveHost;
  /** The DPoP check of SSF tokens bound to a key. */
  checkDpop: DpopCheck;
  now: () => number;
};

type EngineClient = { clientId: string };

/**
 * The engine sends a logout token itself when an owner signs out of Signet (RP-initiated
 * logout), once and without retries: this sends it through the queue instead.
 */
function sendEngineLogoutsThrough(provider: Provider, logout: (clientId: string, sub: string, sid: string | undefined) => Promise<void>) {
  const prototype = (provider.Client as unknown as { prototype: { backchannelLogout(sub: string, sid: string): Promise<void> } }).prototype;
  prototype.backchannelLogout = async function (this: EngineClient, sub: string, sid: string) {
    await logout(this.clientId, sub, sid);
  };
}

export function createSignalsFeature(deps: SignalsFeatureDeps): {
  signals: Signals;
  routes: ReturnType<typeof ssfRoutes>;
  /** A deleted client's SSF streams go with it. */
  removeStreamsOf(clientId: string): Promise<void>;
} {
  const { config } = deps;
  const streams = createSsfStreams(deps.store);
  const signals = createSignals({
    issuer: config.issuer,
    chainId: deps.chainId,
    clients: deps.clients,
    queue: deps.queue,
    streams,
    clientsOf: deps.clientsOf,
    now: deps.now,
  });
  sendEngineLogoutsThrough(deps.provider, signals.logout);
  const routes = ssfRoutes({
    config,
    provider: deps.provider,
    clients: deps.clients,
    streams,
    signals,
    guard: createWebhookUrlGuard({ allowPrivate: config.webhooks.allowPrivate, resolveHost: deps.resolveHost }),
    checkDpop: deps.checkDpop,
    now: deps.now,
  });
  const removeStreamsOf = async (clientId: string) => {
    for (const stream of await streams.of(clientId)) await streams.remove(stream);
  };
  return { signals: { emit: signals.emit }, routes, removeStreamsOf };
}
