// The end of every consent an owner signs, for a browser login (the interaction) and for a CIBA
// request alike: the engine's Grant of exactly the kept fields, and the receipt that keeps the
// signed text and signature beside it (same id; it outlives the Grant, as proof of the consent).
import type Provider from 'oidc-provider';
import type { Address } from 'viem';
import type { ChainSet, ServedChain } from '../../infra/chain/chains.js';
import type { RequestedField } from '../fields/fields.js';
import type { VerifiedPick } from '../fields/verified_fields.js';
import { subjectOf } from '../identity/subject.js';
import type { Watchlists } from '../watch/watchlist.js';
import { consentGrant } from './consent_grant.js';
import type { ConsentReceipts } from './consent_receipts.js';

export type SignedConsent = {
  identity: Address;
  /** The identity's chain (none: the default chain). */
  chainId?: number;
  /** The wallet that signed. */
  wallet: Address;
  clientId: string;
  /** The scopes the website asked for. */
  scope: string;
  requested: RequestedField[];
  /** Names of the fields the owner kept. */
  fields: string[];
  /** Ids of the onchain claims shared. */
  claims: string[];
  /** The verified claims shared, claim by claim (logins only: CIBA offers none). */
  verified?: VerifiedPick[];
  message: string;
  signature: string;
};

export type CompleteConsent = (consent: SignedConsent) => Promise<{ accountId: string; grantId: string }>;

export type ConsentCompletionDeps = {
  provider: Provider;
  /** The chains served: a receipt names its chain as the chain's records do (src/infra/chain/chains.ts). */
  chains: Pick<ChainSet<ServedChain>, 'named'>;
  receipts: ConsentReceipts;
  /** How long the receipt is kept: the Grant's life and the proof period after it. */
  receiptSeconds: number;
  /** Signet as credential issuer: the resource credential scopes are granted on. */
  credentialIssuer?: string;
  /** The chain watcher follows the identity while the Grant lives (grantSeconds). */
  watch?: { watchlists: Watchlists; grantSeconds: number };
  now: () => number;
};

export function createConsentCompletion(deps: ConsentCompletionDeps): CompleteConsent {
  return async (consent) => {
    const chain = deps.chains.named(consent.chainId);
    const accountId = subjectOf(chain.chainId, consent.identity);
    const grant = consentGrant(deps.provider, {
      accountId,
      clientId: consent.clientId,
      scope: consent.scope,
      requested: consent.requested,
      kept: consent.fields,
      verified: consent.verified ?? [],
      credentialIssuer: deps.credentialIssuer,
    });
    const grantId = grant.grantId;
    // The watchlist entry, the Grant and its receipt are sent together (one round trip). The
    // grant's id leaves only once all three are written, so no Grant is ever used that the
    // chain watcher does not follow; a failure leaves at most an unused Grant nothing names,
    // or the receipt of a signature whose login then failed.
    await Promise.all([
      deps.watch?.watchlists(consent.chainId).watch(consent.identity, deps.now() + deps.watch.grantSeconds * 1000),
      grant.save(),
      deps.receipts.save(
        {
          grant_id: grantId,
          client_id: consent.clientId,
          identity: consent.identity,
          ...(chain.idInRecords === undefined ? {} : { chain_id: chain.idInRecords }),
          wallet: consent.wallet,
          fields: consent.fields,
          claims: consent.claims,
          ...(consent.verified?.length ? { verified: consent.verified } : {}),
          message: consent.message,
          signature: consent.signature,
          signed_at: new Date(deps.now()).toISOString(),
        },
        deps.receiptSeconds,
      ),
    ]);
    return { accountId, grantId };
  };
}
