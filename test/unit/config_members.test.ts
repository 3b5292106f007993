// The settings refuse members they do not know, naming the member's path and the one it most
// looks like; JSON settings are spelt snake_case, their old camelCase members read with a warning.
import { configWarnings, loadConfig } from '../../src/config/config.js';
import { configRefusal } from '../support/config_refusal.js';

const ISSUER = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const TOPICS = JSON.stringify([
  { name: 'kyc', topic: 1, description: 'KYC' },
  { name: 'accredited', topic: 7, description: 'Accredited' },
]);

const refusal = configRefusal;

test.each([
  [
    { CLAIM_TOPICS: TOPICS, TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trust_framework: { kyc: 'de_aml' } }]) },
    'configuration: claims.trustedIssuers.0.trust_framework is not a setting; did you mean trust_frameworks?',
  ],
  [
    { CLAIM_TOPICS: TOPICS, TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], chainId: 1 }]) },
    'configuration: claims.trustedIssuers.0.chainId is not a setting; did you mean chain_id?',
  ],
  [
    { RATE_LIMITS: JSON.stringify({ challenges_per_adress: { points: 1, seconds: 1 } }) },
    'configuration: rateLimits.challenges_per_adress is not a setting (in RATE_LIMITS); did you mean challenges_per_address?',
  ],
  [
    { RATE_LIMITS: JSON.stringify({ challenges_per_address: { points: 1, second: 1 } }) },
    'configuration: rateLimits.challengesPerAddress.second is not a setting (in RATE_LIMITS); did you mean seconds?',
  ],
  [
    { CHAINS: JSON.stringify([{ chain_id: 1, name: 'One', rpc_url: 'http://127.0.0.1:8545', identity_factory: ISSUER, confirmation: 3 }]) },
    'configuration: chains.0.confirmation is not a setting (in CHAINS); did you mean confirmations?',
  ],
  [
    { CLIENTS: JSON.stringify([{ client_id: 'a', client_secret: 'secret-secret', client_name: 'A', redirect_uri: ['https://a.example/cb'] }]) },
    'configuration: clients.0.redirect_uri is not a setting; did you mean redirect_uris?',
  ],
  [{ DISPLAY_NAMES: JSON.stringify({ issuers: [], colours: [] }) }, 'configuration: displayNames.colours is not a setting (in DISPLAY_NAMES)'],
])('an unknown member stops the start, named with its path: %j', (env, message) => {
  expect(refusal(env as Record<string, string>)).toBe(message);
});

test('a JSON Web Key keeps any member a key may have', () => {
  const jwk = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd', kid: 'k', use: 'sig', alg: 'ES256', key_ops: ['sign'] };
  expect(loadConfig({ JWKS: JSON.stringify({ keys: [jwk] }) }).jwks?.keys[0]).toMatchObject({ key_ops: ['sign'] });
});

test('snake_case members are read; the old camelCase ones still are, each with a warning naming the new spelling', () => {
  const current = loadConfig({
    CLAIM_TOPICS: TOPICS,
    TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trust_frameworks: { kyc: 'de_aml' } }]),
    RATE_LIMITS: JSON.stringify({ challenges_per_address: { points: 7, seconds: 60 }, failed_signatures_per_challenge: 2 }),
    DISPLAY_NAMES: JSON.stringify({ trust_frameworks: [{ trust_framework: 'de_aml', name: 'German AML rules' }] }),
  });
  expect(current.claims.trustedIssuers[0]!.trustFrameworks).toEqual({ kyc: 'de_aml' });
  expect(current.rateLimits.challengesPerAddress).toEqual({ points: 7, seconds: 60 });
  expect(current.rateLimits.failedSignaturesPerChallenge).toBe(2);
  expect(current.displayNames.trustFrameworks).toEqual([{ trust_framework: 'de_aml', name: 'German AML rules' }]);
  expect(configWarnings(current)).toEqual([]);

  const old = loadConfig({
    CLAIM_TOPICS: TOPICS,
    TRUSTED_ISSUERS: JSON.stringify([{ address: ISSUER, topics: ['kyc'], trustFrameworks: { kyc: 'de_aml' } }]),
    RATE_LIMITS: JSON.stringify({ challengesPerAddress: { points: 7, seconds: 60 } }),
  });
  expect(old.claims.trustedIssuers[0]!.trustFrameworks).toEqual({ kyc: 'de_aml' });
  expect(old.rateLimits.challengesPerAddress).toEqual({ points: 7, seconds: 60 });
  expect(configWarnings(old)).toEqual([
    'claims.trustedIssuers.0.trustFrameworks is the old spelling of claims.trustedIssuers.0.trust_frameworks: it is read in this release only, write trust_frameworks',
    'rateLimits.challengesPerAddress is the old spelling of rateLimits.challenges_per_address: it is read in this release only, write challenges_per_address',
  ]);
});

test('one member in both spellings stops the start', () => {
  expect(refusal({ RATE_LIMITS: JSON.stringify({ challengesPerAddress: { points: 1, seconds: 1 }, challenges_per_address: { points: 2, seconds: 1 } }) })).toBe(
    'configuration: rateLimits.challenges_per_address is given twice, as challenges_per_address and as challengesPerAddress: keep challenges_per_address',
  );
});

test('a bad value under a respelt member is named in the one spelling', () => {
  expect(refusal({ RATE_LIMITS: JSON.stringify({ challenges_per_address: { points: 0, seconds: 1 } }) })).toMatch(
    /^configuration: rateLimits\.challenges_per_address\.points /,
  );
});
