// A credential offer for the owner's wallet (OpenID4VCI 1.0): a grant of the engine for the
// wallets' client with the credential's scope on Signet as resource, a pre-authorized code of
// that grant with a six-digit transaction code, and the offer itself, kept for its life and
// passed by reference: the `openid-credential-offer://` link names only its URL, so its QR code
// stays small enough for any phone's camera. The transaction code goes to the owner's page
// only, never into the offer, so a link seen over a shoulder is not enough to redeem it.
import { randomBytes, randomInt } from 'node:crypto';
import type Provider from 'oidc-provider';
import QRCode from 'qrcode';
import { refuse } from '../../base/errors.js';
import type { CredentialType } from '../../domain/credentials/credential_types.js';
import { subjectOf } from '../../domain/identity/subject.js';
import type { IdentitySession } from '../../domain/owner_sessions/account_sessions.js';
import type { Chains } from '../../domain/chains/chains.js';
import { identityKeyOf } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import { PRE_AUTHORIZED_GRANT, WALLET_CLIENT_ID } from './wallet_client.js';

export type CredentialOffer = {
  credential_configuration_id: string;
  /** The `openid-credential-offer://` link a wallet opens or scans. */
  link: string;
  /** Where the offer is read (the link's `credential_offer_uri`). */
  credential_offer_uri: string;
  qr_svg: string;
  tx_code: string;
  expires_at: string;
};

export type CredentialOffers = {
  make(session: IdentitySession, configurationId: string): Promise<CredentialOffer>;
  /** The offer a link names, while it lives (the wallet reads it with its link). */
  find(id: string): Promise<Record<string, unknown> | undefined>;
};

/** Where a wallet reads an offer by reference. */
export const offerPath = (id: string) => `/credential-offers/${id}`;

export function createCredentialOffers(deps: {
  provider: Provider;
  store: Store;
  issuer: string;
  /** The chain an owner session names (none: the default chain). */
  chains: Pick<Chains, 'idOf'>;
  types: readonly CredentialType[];
  offerSeconds: number;
  /** How long an offer's grant lives: the offer's wait and the life of the token it gives. */
  grantSeconds: number;
  now: () => number;
}): CredentialOffers {
  const byId = new Map(deps.types.map((type) => [type.id, type]));
  return {
    async make(session, configurationId) {
      const type = byId.get(configurationId);
      if (!type) throw refuse('credential_type_unknown', `no credential is offered as "${configurationId}"`);
      const accountId = subjectOf(deps.chains.idOf(session.chain_id), session.identity);
      const client = await deps.provider.Client.find(WALLET_CLIENT_ID);
      const grant = new deps.provider.Grant({ accountId, clientId: WALLET_CLIENT_ID });
      grant.addResourceScope(deps.issuer, type.scope);
      const grantId = await grant.save();
      // Listed under the identity, so that an erasure ends the grant and what it issued.
      await deps.store.addToIndex(keys.credentialGrantsOf(identityKeyOf(session.identity, session.chain_id)), grantId, deps.grantSeconds, { onlyLater: true });
      const txCode = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // The engine's model takes the client object and the transaction code its types do not list.
      const code = await new deps.provider.PreAuthorizedCode({ client, accountId, grantId, scope: type.scope, resource: deps.issuer, txCode } as never).save();
      const offer = {
        credential_issuer: deps.issuer,
        credential_configuration_ids: [type.id],
        grants: {
          [PRE_AUTHORIZED_GRANT]: {
            'pre-authorized_code': code,
            tx_code: { input_mode: 'numeric', length: 6, description: 'The code shown on your Signet account page' },
          },
        },
      };
      const id = randomBytes(24).toString('base64url');
      await deps.store.set(keys.credentialOffer(id), JSON.stringify(offer), deps.offerSeconds);
      const offerUri = `${deps.issuer}${offerPath(id)}`;
      const link = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(offerUri)}`;
      return {
        credential_configuration_id: type.id,
        link,
        credential_offer_uri: offerUri,
        qr_svg: await QRCode.toString(link, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
        tx_code: txCode,
        expires_at: new Date(deps.now() + deps.offerSeconds * 1000).toISOString(),
      };
    },
    async find(id) {
      const raw = await deps.store.get(keys.credentialOffer(id));
      return raw === undefined ? undefined : (JSON.parse(raw) as Record<string, unknown>);
    },
  };
}
