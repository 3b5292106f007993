// How Signet names an identity of one of its chains, wherever a record is kept for it.
import type { Address } from 'viem';
import { type Caip10, caip10Of } from '../../base/caip10.js';

/** An identity as Signet's keys, paths and history name it (identityKeyOf). */
export type IdentityKey = Address | Caip10<Address>;

/**
 * How Signet names an identity in its Redis keys, paths and history: the default chain's by its
 * address (as before several chains), another chain's (`chainId` given) by its CAIP-10 id, so
 * one address on two chains never shares a record.
 */
export const identityKeyOf = (identity: Address, chainId?: number): IdentityKey => (chainId === undefined ? identity : caip10Of(chainId, identity));
