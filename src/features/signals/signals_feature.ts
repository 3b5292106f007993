// Telling the websites that consent no longer stands (docs/signals.md): the Signals the rest of
// Signet emits to (built before the engine), then the SSF transmitter's routes and the engine's
// own logout (RP-initiated) sent through the same queue (once the engine exists). Delivery is
// the webhook queue's (its targets for "bcl:" and "ssf:" services are built with the queue:
// src/app/webhook_queue_for.ts).
import type Provider from 'oidc-provider';
import type { Address } from 'viem';
import type { Chains } from '../../domain/chains/chains.js';
import type { Config } from '../../config/config.js';
import type { ClientRegistry } from '../../domain/clients/client_registry.js';
import type { DpopCheck } from '../../domain/dpop/dpop_proof.js';
import type { WebhookQueue } from '../../domain/webhooks/webhook_queue.js';
import type { UrlGuard } from '../../infra/outbound/url_guard.js';
import type { Store } from '../../infra/store/store.js';
import { createSignals, type SignalsService } from './signals.js';
import { ssfRoutes } from './ssf_routes.js';
import { createSsfStreams, type SsfStreams } from './ssf_streams.js';

export type SignalEmitterDeps = {
  config: Config;
  store: Store;
  /** The clients: their back-channel logout URIs. */
  clients: ClientRegistry;
  chains: Chains;
  /** The webhook queue (its worker delivers the logout tokens and SETs). */
  queue: Pick<WebhookQueue, 'enqueue'>;
  /** The clients holding a live grant of an identity (told when its wallets' keys change); chainId: as records name it (src/infra/chain/chains.ts). */
  clientsOf(identity: Address, chainId?: number): Promise<string[]>;
  now: () => number;
};

/**
 * What the rest of Signet tells the websites through: built before the engine, since the
 * engine's refresh check and the grants emit to it, and the engine needs neither to exist.
 */
export function createSignalEmitter(deps: SignalEmitterDeps): {
  signals: SignalsService;
  streams: SsfStreams;
  /** A deleted client's SSF streams go with it. */
  removeStreamsOf(clientId: string): Promise<void>;
} {
  const streams = createSsfStreams(deps.store);
  const signals = createSignals({
    issuer: deps.config.issuer,
    chains: deps.chains,
    clients: deps.clients,
    queue: deps.queue,
    streams,
    clientsOf: deps.clientsOf,
    now: deps.now,
  });
  const removeStreamsOf = async (clientId: string) => {
    for (const stream of await streams.of(clientId)) await streams.remove(stream);
  };
  return { signals, streams, removeStreamsOf };
}

export type SignalRoutesDeps = {
  config: Config;
  provider: Provider;
  /** Who may manage SSF streams. */
  clients: ClientRegistry;
  signals: SignalsService;
  streams: SsfStreams;
  /** The address check of receivers' endpoint URLs at save (src/infra/outbound/url_guard.ts). */
  guard: UrlGuard;
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

/** The SSF transmitter's routes, and the engine's own logouts sent through the signals. */
export function signalRoutes(deps: SignalRoutesDeps): ReturnType<typeof ssfRoutes> {
  sendEngineLogoutsThrough(deps.provider, deps.signals.logout);
  return ssfRoutes({
    config: deps.config,
    provider: deps.provider,
    clients: deps.clients,
    streams: deps.streams,
    signals: deps.signals,
    guard: deps.guard,
    checkDpop: deps.checkDpop,
    now: deps.now,
  });
}
