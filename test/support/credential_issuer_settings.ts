// What a Signet that issues credentials is given in the tests: an ES256 key beside the RS256 one
// ID tokens use (credentials are signed with ES256), the `kyc` topic whose claims hold verified
// data under a trust framework (what credentials are made from), Signet issuing those claims on
// the test chain, and the admin token the tests issue them with. The wallets' client for the
// authorization code path is here too.
import { generateKeyPairSync } from 'node:crypto';
import type { ClientConfig } from '../../src/config/config.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { KYC_TOPIC } from './kyc_claims.js';
import { testJwks } from './signet_harness.js';
import type { TestChain } from './test_chain.js';

export const credentialIssuerSettings = (chain: TestChain, adminToken: string) => ({
  jwks: {
    keys: [
      ...testJwks().keys,
      { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'credentials', alg: 'ES256', use: 'sig' },
    ],
  },
  adminToken,
  claims: {
    topics: [{ name: 'kyc', topic: KYC_TOPIC, description: 'Your identity was checked (KYC)' }],
    trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc'], trustFrameworks: { kyc: 'de_aml' } }],
  },
  claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
});

/** A wallet registered with Signet, for the authorization code path: public, PKCE, DPoP-bound tokens. */
export const WALLET_APP: ClientConfig = {
  client_id: 'wallet-app',
  client_name: 'Pocket Wallet',
  redirect_uris: ['https://wallet.example/callback'],
  post_logout_redirect_uris: [],
  grant_types: ['authorization_code'],
  token_endpoint_auth_method: 'none',
  dpop_bound_access_tokens: true,
};

/** A wallet registered without DPoP: its tokens are bearer tokens, which the credential endpoint refuses. */
export const BEARER_WALLET_APP: ClientConfig = { ...WALLET_APP, client_id: 'bearer-wallet-app', client_name: 'Bearer Wallet', dpop_bound_access_tokens: false };
