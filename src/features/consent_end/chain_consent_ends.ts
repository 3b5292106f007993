// What Signet does when the chain says consent no longer stands, event by event (the chain
// watcher's handlers; each is safe to run twice, as a watcher that died re-reads its range):
// a wallet's key removed ends every grant that wallet signed for the identity; a claim removed,
// changed or revoked by its issuer ends the credentials made from it and is told to every
// client that was given it.
import { type Address, type Hex, keccak256, type PublicClient } from 'viem';
import { BYTES32_DIGITS } from '../../base/hex_text.js';
import type { ClaimReader } from '../../domain/claims/claim_reader.js';
import type { ConsentReceipt } from '../../domain/consent/consent_receipts.js';
import type { Signals } from '../../domain/consent/consent_signal.js';
import type { CredentialRevocation } from '../../domain/credentials/credential_revocation.js';
import type { ClaimEvent, ClaimRevokedEvent, KeyEvent } from '../../domain/watch/chain_events.js';
import type { ChainConsentHandlers } from '../../domain/watch/consent_handlers.js';
import { chainUnavailable, isContractRefusal } from '../../infra/chain/chain_errors.js';
import { identityAbi, KeyPurpose, keyOf } from '../../infra/chain/contracts.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import type { AccessGrant } from '../grants/access_grant.js';
import type { EndLoginGrant } from './login_grant_end.js';

export type ChainConsentEndDeps = {
  client: PublicClient;
  /** The chain followed as records name it (none: the default chain): named in the signals, and in claim paths by CAIP-10. */
  chainId?: number;
  reader: ClaimReader;
  receipts: { listFor(identity: Address): Promise<ConsentReceipt[]> };
  /** The identity's access grants, as they stand. */
  accessGrantsOf(identity: Address): Promise<AccessGrant[]>;
  /** Whether the engine still holds a login grant. */
  isLoginActive(grantId: string): Promise<boolean>;
  endLoginGrant: EndLoginGrant;
  revokeAccessGrant(grant: AccessGrant): Promise<unknown>;
  /** The identities with live grants (the watchlist): where a revoked claim may have gone. */
  watchedIdentities(): Promise<Address[]>;
  signals: Signals;
  /** The credentials issued from claims (src/domain/credentials/): ended with their claim. */
  credentials?: Pick<CredentialRevocation, 'revokeOfClaim' | 'claimsOf'>;
  now: () => number;
};

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The claim id (32 bytes, base/hex_text.ts) that ends an access grant's claim path. */
const CLAIM_ID_AT_END = new RegExp(`/claims/(${BYTES32_DIGITS})$`);
export function createChainConsentEnds(deps: ChainConsentEndDeps): ChainConsentHandlers {
  const onChain = deps.chainId === undefined ? {} : { chain_id: deps.chainId };
  const named = (identity: Address) => identityKeyOf(identity, deps.chainId);
  const claimPath = (identity: Address, claimId: Hex) => `/identities/${named(identity)}/claims/${claimId.toLowerCase()}`;

  /** A key that still has ACTION (or MANAGEMENT, which ONCHAINID counts as every purpose) still signs in. */
  const stillLinked = async (identity: Address, key: Hex): Promise<boolean> => {
    try {
      return await deps.client.readContract({ address: identity, abi: identityAbi, functionName: 'keyHasPurpose', args: [key, KeyPurpose.ACTION] });
    } catch (error) {
      // No contract answers any more: nothing it signed stands.
      if (isContractRefusal(error)) return false;
      throw chainUnavailable('Identity.keyHasPurpose', error);
    }
  };

  /** The clients holding a live grant that was given this claim: logins that kept it, access grants to its resource. */
  const clientsGiven = async (identity: Address, claimId: Hex): Promise<string[]> => {
    const [receipts, grants] = await Promise.all([deps.receipts.listFor(identity), deps.accessGrantsOf(identity)]);
    const logins = await Promise.all(
      receipts
        .filter((receipt) => receipt.claims.some((kept) => same(kept, claimId)))
        .map(async (receipt) => ((await deps.isLoginActive(receipt.grant_id)) ? receipt.client_id : undefined)),
    );
    const path = claimPath(identity, claimId);
    const services = grants.filter((grant) => grant.status === 'active' && grant.resource.toLowerCase() === path.toLowerCase()).map((grant) => grant.service);
    return [...new Set([...logins.filter((client): client is string => client !== undefined), ...services])];
  };

  const claimEnded = async (event: Pick<ClaimEvent, 'identity' | 'claimId' | 'topic' | 'issuer'>, change: 'removed' | 'changed' | 'revoked') => {
    deps.reader.forget(event.identity);
    // A credential made from the claim stops standing: its status bit says so to every verifier.
    await deps.credentials?.revokeOfClaim(named(event.identity), event.claimId, `claim_${change}`);
    const clients = await clientsGiven(event.identity, event.claimId);
    if (!clients.length) return;
    await deps.signals.emit({
      type: 'claim_ended',
      identity: event.identity,
      ...onChain,
      claim_id: event.claimId.toLowerCase() as Hex,
      topic: Number(event.topic),
      issuer: event.issuer,
      change,
      client_ids: clients,
      at: deps.now(),
    });
  };

  return {
    async onKeyRemoved(event: KeyEvent) {
      if (await stillLinked(event.identity, event.key)) {
        // A purpose went, another stays: the wallet still signs in, so its grants stand.
        await deps.signals.emit({
          type: 'credential_changed',
          identity: event.identity,
          ...onChain,
          wallet_key: event.key,
          change: 'purpose_changed',
          at: deps.now(),
        });
        return;
      }
      await deps.signals.emit({ type: 'credential_changed', identity: event.identity, ...onChain, wallet_key: event.key, change: 'removed', at: deps.now() });
      const signedByKey = (wallet: string | undefined) => wallet !== undefined && same(keyOf(wallet as Address), event.key);
      const [receipts, grants] = await Promise.all([deps.receipts.listFor(event.identity), deps.accessGrantsOf(event.identity)]);
      for (const receipt of receipts.filter((one) => signedByKey(one.wallet))) await deps.endLoginGrant(receipt, 'key_removed');
      for (const grant of grants.filter((one) => one.status === 'active' && signedByKey(one.signer))) await deps.revokeAccessGrant(grant);
    },

    async onKeyAdded(event: KeyEvent) {
      await deps.signals.emit({ type: 'credential_changed', identity: event.identity, ...onChain, wallet_key: event.key, change: 'added', at: deps.now() });
    },

    onClaimRemoved: (event: ClaimEvent) => claimEnded(event, 'removed'),
    onClaimChanged: (event: ClaimEvent) => claimEnded(event, 'changed'),

    /** The event names only the signature's hash: the claims given to clients are matched against it. */
    async onClaimRevoked(event: ClaimRevokedEvent) {
      for (const identity of await deps.watchedIdentities()) {
        const [receipts, grants] = await Promise.all([deps.receipts.listFor(identity), deps.accessGrantsOf(identity)]);
        const given = new Set<string>(receipts.flatMap((receipt) => receipt.claims.map((id) => id.toLowerCase())));
        for (const claimId of (await deps.credentials?.claimsOf(named(identity))) ?? []) given.add(claimId);
        for (const grant of grants) {
          const match = CLAIM_ID_AT_END.exec(grant.resource);
          if (match) given.add(match[1]!.toLowerCase());
        }
        for (const claimId of given) {
          const claim = await deps.reader.claim(identity, claimId as Hex, { fresh: true });
          if (claim && same(claim.issuer, event.issuer) && same(keccak256(claim.signature), event.signatureHash)) {
            await claimEnded({ identity, claimId: claimId as Hex, topic: BigInt(claim.topic), issuer: claim.issuer }, 'revoked');
          }
        }
      }
    },
  };
}

export type ChainConsentEnds = ChainConsentHandlers;
