// The ERC-734/735 events that can end a consent, as the ONCHAINID contracts emit them
// (@onchain-id/solidity: Identity and ClaimIssuer; test/integration/chain_watch.test.ts checks
// these signatures against the artifacts' ABIs), and what the watcher hands on of each log.
import { type Address, getAddress, type Hex, parseAbi } from 'viem';

/** On an identity: a key added or removed (ERC-734), a claim removed or changed (ERC-735). */
export const identityEvents = parseAbi([
  'event KeyAdded(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType)',
  'event KeyRemoved(bytes32 indexed key, uint256 indexed purpose, uint256 indexed keyType)',
  'event ClaimRemoved(bytes32 indexed claimId, uint256 indexed topic, uint256 scheme, address indexed issuer, bytes signature, bytes data, string uri)',
  'event ClaimChanged(bytes32 indexed claimId, uint256 indexed topic, uint256 scheme, address indexed issuer, bytes signature, bytes data, string uri)',
]);

/** On a ClaimIssuer: a claim's signature revoked (revokeClaim, revokeClaimBySignature). */
export const issuerEvents = parseAbi(['event ClaimRevoked(bytes indexed signature)']);

export const watchedEvents = [...identityEvents, ...issuerEvents] as const;

/** Where in the chain an event was emitted: with `logIndex`, unique to one log (for idempotent handlers). */
export type EventPlace = { blockNumber: bigint; transactionHash: Hex; logIndex: number };

export type KeyEvent = EventPlace & {
  identity: Address;
  /** keccak256(abi.encode(address)) for a wallet's key (deploy_onchainid.ts keyOf). */
  key: Hex;
  /** 1 MANAGEMENT, 2 ACTION, 3 CLAIM (KeyPurpose). */
  purpose: bigint;
  keyType: bigint;
};

export type ClaimEvent = EventPlace & { identity: Address; claimId: Hex; topic: bigint; issuer: Address };

export type ClaimRevokedEvent = EventPlace & {
  /** The ClaimIssuer contract that revoked. */
  issuer: Address;
  /**
   * keccak256 of the revoked claim's signature: the event's only argument is an indexed
   * `bytes`, which a log carries as its hash (compare with keccak256(claim.signature)).
   */
  signatureHash: Hex;
};

export type WatchedEvent =
  | { type: 'key_removed'; event: KeyEvent }
  | { type: 'key_added'; event: KeyEvent }
  | { type: 'claim_removed'; event: ClaimEvent }
  | { type: 'claim_changed'; event: ClaimEvent }
  | { type: 'claim_revoked'; event: ClaimRevokedEvent };

export type WatchedEventType = WatchedEvent['type'];

/** A log as viem's getLogs decodes it with `watchedEvents` (strict: every argument decoded). */
export type DecodedLog = {
  address: Address;
  blockNumber: bigint | null;
  transactionHash: Hex | null;
  logIndex: number | null;
  eventName: string;
  args: Record<string, unknown>;
};

/**
 * The event a decoded log stands for, or undefined when it is not one the watcher acts on
 * there: identity events count only from watched identities, ClaimRevoked only from an issuer
 * (a ClaimIssuer is an identity too, and emits key and claim events of its own).
 */
export function watchedEventOf(log: DecodedLog, from: { identities: ReadonlySet<string>; issuers: ReadonlySet<string> }): WatchedEvent | undefined {
  if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) return undefined; // a pending log
  const place: EventPlace = { blockNumber: log.blockNumber, transactionHash: log.transactionHash, logIndex: log.logIndex };
  const address = log.address.toLowerCase();
  const args = log.args;
  if (log.eventName === 'ClaimRevoked') {
    return from.issuers.has(address)
      ? { type: 'claim_revoked', event: { ...place, issuer: getAddress(address), signatureHash: args.signature as Hex } }
      : undefined;
  }
  if (!from.identities.has(address)) return undefined;
  const identity = getAddress(address);
  switch (log.eventName) {
    case 'KeyRemoved':
    case 'KeyAdded': {
      const event: KeyEvent = { ...place, identity, key: args.key as Hex, purpose: args.purpose as bigint, keyType: args.keyType as bigint };
      return log.eventName === 'KeyRemoved' ? { type: 'key_removed', event } : { type: 'key_added', event };
    }
    case 'ClaimRemoved':
    case 'ClaimChanged': {
      const event: ClaimEvent = { ...place, identity, claimId: args.claimId as Hex, topic: args.topic as bigint, issuer: getAddress(args.issuer as Address) };
      return log.eventName === 'ClaimRemoved' ? { type: 'claim_removed', event } : { type: 'claim_changed', event };
    }
    default:
      return undefined;
  }
}

/** Chain order: by block, then by the log's place in its block. */
export const inChainOrder = (a: EventPlace, b: EventPlace) =>
  a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1;
