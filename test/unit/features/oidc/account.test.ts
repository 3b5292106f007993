// What the engine's find of a code or token sends ahead for the account model: the owner's
// profile always, the grant's consent receipt only where it will be read (a refresh's key check,
// claim topics, verified claims), and nothing for a subject Signet does not serve.
import type { Address } from 'viem';
import { createClaimTopics } from '../../../../src/domain/claims/claim_topics.js';
import type { ConsentReceipts } from '../../../../src/domain/consent/consent_receipts.js';
import type { ProfileStore } from '../../../../src/domain/profile/profile.js';
import { readAccountAhead } from '../../../../src/features/oidc/account.js';

const OWNER = '0x00000000000000000000000000000000000000d1';

function recorder() {
  const toSend = (key: string) => ({ key, hold: () => {} });
  const profiles = { readAhead: (identity: Address) => toSend(`profile ${identity}`) } as unknown as ProfileStore;
  const receipts = { readAhead: (grantId: string) => toSend(`receipt ${grantId}`) } as unknown as ConsentReceipts;
  const topics = createClaimTopics({ topics: [{ topic: 1, name: 'kyc' }], trustedIssuers: [] } as never);
  return { ahead: readAccountAhead({ chains: { get: (chainId) => (chainId === 1 ? { profiles } : undefined) }, receipts, topics }) };
}

test.each([
  ['an access token of openid profile email', 'AccessToken', 'openid profile email', ['profile']],
  ['an access token with a claim topic', 'AccessToken', 'openid profile claim:kyc', ['profile', 'receipt']],
  ['an access token with verified claims', 'AccessToken', 'openid verified_claims', ['profile', 'receipt']],
  ['a refresh token (its key check reads the receipt)', 'RefreshToken', 'openid offline_access', ['profile', 'receipt']],
  ['a code of openid profile', 'AuthorizationCode', 'openid profile', ['profile']],
])('%s', (_what, model, scope, expected) => {
  const { ahead } = recorder();
  expect(ahead({ model, accountId: `eip155:1:${OWNER}`, grantId: 'g1', scope }).map((read) => read.key.split(' ')[0])).toEqual(expected);
});

test("another chain's subject, or none Signet serves, reads nothing ahead", () => {
  const { ahead } = recorder();
  expect(ahead({ model: 'AccessToken', accountId: `eip155:5:${OWNER}`, grantId: 'g1', scope: 'openid claim:kyc' })).toEqual([]);
  expect(ahead({ model: 'AccessToken', accountId: 'not-a-subject', grantId: 'g1', scope: 'openid claim:kyc' })).toEqual([]);
});
