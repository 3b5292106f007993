// A bank's website under FAPI 2.0: private_key_jwt with its own ES256 key (Signet knows the
// public half), DPoP-bound tokens, and refresh tokens that are not rotated.
import { exportJWK, generateKeyPair } from 'jose';
import type { ClientConfig } from '../../src/config/config.js';

/** The bank's client authentication key. */
export const bankKey = await generateKeyPair('ES256', { extractable: true });
const { crv, x, y } = await exportJWK(bankKey.publicKey);
export const bankJwk = { kty: 'EC', crv, x, y, kid: 'bank-1', use: 'sig', alg: 'ES256' };

export const BANK: ClientConfig = {
  client_id: 'bank',
  client_name: 'Acme Bank',
  redirect_uris: ['https://bank.example/callback'],
  post_logout_redirect_uris: [],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'private_key_jwt',
  jwks: { keys: [bankJwk] },
  fapi_profile: '2.0',
};
