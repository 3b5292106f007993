// What Signet tells the websites and services when consent stops standing, in its own words;
// the signals feature turns each into OpenID Back-Channel Logout tokens and Shared Signals
// (SSF, CAEP) Security Event Tokens for the clients concerned.
import type { Address, Hex } from 'viem';

/**
 * Why a grant ended. A login grant that ends `signed_out` gets no logout token from emit():
 * the engine's RP-initiated logout sends that itself (through the same queue).
 */
export type GrantEndReason = 'key_removed' | 'owner_revoked' | 'erasure' | 'signed_out' | 'client_deleted';

export type ConsentSignal =
  /** A login grant or an access grant ended: its tokens no longer work. */
  | {
      type: 'grant_ended';
      identity: Address;
      /** The identity's chain, when not the default chain (the subject the client knows names it). */
      chain_id?: number;
      /** The website or service the grant was for. */
      client_id: string;
      grant_id: string;
      kind: 'login' | 'immediate' | 'persistent';
      /** The engine's login session the grant belonged to (login grants), for `sid`. */
      sid?: string;
      reason: GrantEndReason;
      at: number;
    }
  /** A wallet's key on the identity was removed, added, or its purposes changed (read on chain). */
  | { type: 'credential_changed'; identity: Address; chain_id?: number; wallet_key: Hex; change: 'removed' | 'added' | 'purpose_changed'; at: number }
  /** A claim a client was given no longer stands: its issuer revoked it, or it was removed or changed on the identity. */
  | {
      type: 'claim_ended';
      identity: Address;
      chain_id?: number;
      claim_id: Hex;
      topic: number;
      issuer: Address;
      change: 'revoked' | 'removed' | 'changed';
      /** The clients that were given this claim (by a login or an access grant). */
      client_ids: string[];
      at: number;
    };

export type Signals = {
  /** Queues what the signal means for each client concerned; durable once it resolves. */
  emit(signal: ConsentSignal): Promise<void>;
};
