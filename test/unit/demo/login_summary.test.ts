// The demo website's summary of a login: who, the fields in words, each claim with its issuer
// (by name when configured) and validity in words, and the parts of `sub`.

import { summarizeLogin } from '../../../src/demo/login_summary.js';
import { createDisplayNames } from '../../../src/domain/claims/display_names.js';

const NAMED = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
const UNNAMED = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const IDENTITY = '0xBB150442CC8D54b7D71E11F16A3d6a7061efbfBb';
const names = createDisplayNames({
  claims: { topics: [{ name: 'kyc', topic: 1, description: 'KYC' }], trustedIssuers: [] },
  displayNames: { issuers: [{ address: NAMED, name: 'Example Issuer' }], topics: [{ topic: 'kyc', name: 'KYC check' }] },
});

test('fields, claims and sub in words', () => {
  const summary = summarizeLogin(
    {
      sub: `eip155:31337:${IDENTITY}`,
      given_name: 'Ada',
      email: 'ada@example.org',
      address: { street_address: '12 St James Square', locality: 'London', country: 'GB' },
      onchain_claims: [
        { topic: 1, topic_name: 'kyc', issuer: NAMED, valid: true, status: 'valid', expires_at: null, data: { level: 'basic', checked_by: 'X' } },
        { topic: 1, topic_name: 'kyc', issuer: UNNAMED, valid: true, status: 'valid', expires_at: '2027-01-31T00:00:00.000Z' },
        { topic: 9, topic_name: null, issuer: NAMED, valid: false, status: 'not_confirmed_by_issuer', expires_at: null },
        { topic: 1, topic_name: 'kyc', issuer: NAMED, valid: false, status: 'expired', expires_at: '2020-01-01T00:00:00.000Z' },
      ],
    },
    names,
  );
  expect(summary).toEqual({
    name: 'Ada',
    subject: `eip155:31337:${IDENTITY}`,
    chainId: '31337',
    identity: IDENTITY,
    fields: [
      { label: 'First name', value: 'Ada' },
      { label: 'Email address', value: 'ada@example.org' },
      { label: 'Postal address', value: '12 St James Square, London, GB' },
    ],
    claims: [
      {
        topic: 'KYC check',
        issuer: 'Example Issuer',
        issuerAddress: NAMED,
        validity: 'valid, no expiry',
        data: [
          { key: 'level', value: 'basic' },
          { key: 'checked by', value: 'X' },
        ],
      },
      { topic: 'KYC check', issuer: null, issuerAddress: UNNAMED, validity: 'valid until 2027-01-31', data: [] },
      { topic: 'topic 9', issuer: 'Example Issuer', issuerAddress: NAMED, validity: 'not valid: revoked by its issuer', data: [] },
      { topic: 'KYC check', issuer: 'Example Issuer', issuerAddress: NAMED, validity: 'not valid: expired', data: [] },
    ],
    claimsAsked: true,
    verified: [],
  });
});

test('a login that shared only the identity', () => {
  expect(summarizeLogin({ sub: `eip155:1:${IDENTITY}` }, names)).toEqual({
    name: null,
    subject: `eip155:1:${IDENTITY}`,
    chainId: '1',
    identity: IDENTITY,
    fields: [],
    claims: [],
    claimsAsked: false,
    verified: [],
  });
});

test('verified claims: who verified them (the onchain evidence), under which rules, and what', () => {
  const summary = summarizeLogin(
    {
      sub: `eip155:31337:${IDENTITY}`,
      onchain_claims: [
        { topic: 1, topic_name: 'kyc', issuer: NAMED, valid: true, status: 'valid', expires_at: null, data: { level: 'basic', verified_claims: {} } },
      ],
      verified_claims: {
        verification: {
          trust_framework: 'de_aml',
          time: '2026-01-15T10:00:00Z',
          evidence: [{ type: 'electronic_record', record: { type: 'https://eips.ethereum.org/EIPS/eip-735', source: { name: 'Example Issuer' } } }],
        },
        claims: { given_name: 'Ada', birthdate: '1815-12-10', nationalities: ['GB'] },
      },
    },
    names,
  );
  // The claim's data leaves verified_claims to the summary below.
  expect(summary.claims[0]!.data).toEqual([{ key: 'level', value: 'basic' }]);
  expect(summary.verified).toEqual([
    {
      issuer: 'Example Issuer',
      trustFramework: 'the German AML rules',
      time: '2026-01-15',
      fields: [
        { label: 'First name', value: 'Ada' },
        { label: 'Date of birth', value: '1815-12-10' },
        { label: 'Nationality', value: 'GB' },
      ],
    },
  ]);
});
