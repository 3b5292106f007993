// The claim topic most tests share: `kyc` (topic 1), trusted from the test chain's ClaimIssuer,
// which Signet also issues with (the deployer's key holds its CLAIM key).
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import type { TestChain } from './test_chain.js';

export const KYC_TOPIC = 1;

/** Settings: the `kyc` topic, its trusted issuer, and Signet issuing it on the test chain. */
export const kycIssuedBySignet = (chain: TestChain) => ({
  claims: {
    topics: [{ name: 'kyc', topic: KYC_TOPIC, description: 'Your identity was checked (KYC)' }],
    trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc'] }],
  },
  claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
});
