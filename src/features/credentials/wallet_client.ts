// The client every wallet is at the token endpoint for a credential offer. OpenID4VCI lets a
// wallet redeem a pre-authorized code without naming a client, but the engine knows no
// anonymous client: this built-in public client (no secret, DPoP-bound tokens, the
// pre-authorized code grant alone) stands for them. It is no stored record: it cannot be
// edited or deleted, and its id is reserved.
import type { ClientRecord, ClientRecords } from '../../infra/store/client_records.js';

export const WALLET_CLIENT_ID = 'signet-wallet';
export const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

export function walletClientRecord(idTokenAlg: string): ClientRecord {
  return {
    client_id: WALLET_CLIENT_ID,
    client_name: 'Your wallet',
    token_endpoint_auth_method: 'none',
    grant_types: [PRE_AUTHORIZED_GRANT],
    response_types: [],
    redirect_uris: [],
    dpop_bound_access_tokens: true,
    // Never used (this grant issues no ID token), but the engine checks it against its keys.
    id_token_signed_response_alg: idTokenAlg,
  };
}

/** The client records with the wallet's client in front of them. */
export function withWalletClient(records: ClientRecords, idTokenAlg: string): ClientRecords {
  const wallet = Object.freeze(walletClientRecord(idTokenAlg));
  return {
    ...records,
    find: (clientId) => (clientId === WALLET_CLIENT_ID ? Promise.resolve({ ...wallet }) : records.find(clientId)),
    look: (clientId) => (clientId === WALLET_CLIENT_ID ? Promise.resolve(wallet) : records.look(clientId)),
  };
}
