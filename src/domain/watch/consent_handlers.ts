// What the chain watcher calls for each event that can end a consent. The handlers are given
// to createApp as `consentEnds` (AppDeps); without them, noConsentEnds does nothing.
import type { ClaimEvent, ClaimRevokedEvent, KeyEvent, WatchedEvent } from './chain_events.js';

/**
 * One method per watched event, called in chain order (block, then log index), one at a time.
 * The watcher moves its cursor past a block range only once every handler of the range has
 * resolved; a handler that throws, a crash or an outage mid-range makes it read the whole range
 * again on a later round (possibly in another process). So every handler MUST be idempotent:
 * the same event (same transactionHash and logIndex) may arrive more than once, and an event
 * already acted on must be harmless the second time. A handler that keeps throwing holds the
 * watcher on its range (the lag metric grows): handle what can never succeed, do not throw.
 */
export type ChainConsentHandlers = {
  /** A key left an identity (a wallet's MANAGEMENT or ACTION key: what signed its consents). */
  onKeyRemoved(event: KeyEvent): Promise<void>;
  onKeyAdded(event: KeyEvent): Promise<void>;
  /** A claim left an identity (its holder removed it). */
  onClaimRemoved(event: ClaimEvent): Promise<void>;
  /** A claim on an identity was replaced (same issuer and topic, new data or signature). */
  onClaimChanged(event: ClaimEvent): Promise<void>;
  /** A trusted issuer (or Signet's own) revoked a claim's signature. */
  onClaimRevoked(event: ClaimRevokedEvent): Promise<void>;
};

const nothing = async () => {};

/** The handlers when none are given: events are read, counted and let go. */
export const noConsentEnds: ChainConsentHandlers = {
  onKeyRemoved: nothing,
  onKeyAdded: nothing,
  onClaimRemoved: nothing,
  onClaimChanged: nothing,
  onClaimRevoked: nothing,
};

/** Hands one event to its handler. */
export function dispatch(handlers: ChainConsentHandlers, watched: WatchedEvent): Promise<void> {
  switch (watched.type) {
    case 'key_removed':
      return handlers.onKeyRemoved(watched.event);
    case 'key_added':
      return handlers.onKeyAdded(watched.event);
    case 'claim_removed':
      return handlers.onClaimRemoved(watched.event);
    case 'claim_changed':
      return handlers.onClaimChanged(watched.event);
    case 'claim_revoked':
      return handlers.onClaimRevoked(watched.event);
  }
}
