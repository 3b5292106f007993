// The access grant (docs/decisions.md, 15): the owner's signed consent for one service to read one
// resource. Its status lives apart from the record so every transition is one atomic step.
import type { Address } from 'viem';

export type GrantKind = 'immediate' | 'persistent';

/** pending → active → used (immediate) or revoked (persistent); pending → expired | denied. */
/** Why an access grant was revoked. */
export type RevocationReason = 'owner_revoked' | 'key_removed' | 'erasure' | 'client_deleted' | 'service_released';

export type GrantStatus = 'pending' | 'active' | 'used' | 'revoked' | 'expired' | 'denied';

export type AccessGrant = {
  id: string;
  kind: GrantKind;
  status: GrantStatus;
  identity: Address;
  /** The identity's chain, as records name it (absent: the default chain, as before several chains; src/infra/chain/chains.ts). */
  chain_id?: number;
  /** The service's client_id. */
  service: string;
  /** The resource path, e.g. /identities/0x…/profile. */
  resource: string;
  fields: string[];
  challenge: string;
  signature?: string;
  /** The wallet that signed. */
  signer?: Address;
  created_at: string;
  /** Until when the request may be validated. */
  expires_at: string;
  granted_at?: string;
  used_at?: string;
  revoked_at?: string;
  /** Why it was revoked: by its owner, because the signing wallet's key was removed on chain, by an erasure, or given up by its service. */
  revoked_reason?: RevocationReason;
  denied_at?: string;
};

/** What may follow each status. */
export const TRANSITIONS: Record<GrantStatus, readonly GrantStatus[]> = {
  pending: ['active', 'expired', 'denied'],
  active: ['used', 'revoked'],
  used: [],
  revoked: [],
  expired: [],
  denied: [],
};
