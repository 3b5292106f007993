// Answering one verified_claims request element from one claim's verified data, by the rules of
// OpenID Connect for Identity Assurance: requested members only, value/values/max_age filters,
// evidence filters as a logical OR, an unmet verification requirement omitting the element,
// an unmet claim requirement omitting the claim, and only claims the owner kept.

import { claimsParameterProblem, listsWrapped, verifiedRequestsIn } from '../../../../src/domain/fields/verified_claims_request.js';
import { answerRequest, offeredClaims } from '../../../../src/domain/verified_claims/verified_claims_answer.js';
import type { VerifiedClaimsElement } from '../../../../src/domain/verified_claims/verified_claims_schema.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const DAY = 86_400;

const element = {
  verification: {
    trust_framework: 'de_aml',
    assurance_level: 'substantial',
    time: '2026-02-01T10:00:00Z',
    evidence: [
      {
        type: 'document',
        check_details: [{ check_method: 'vpip' }, { check_method: 'bvr' }],
        document_details: { type: 'passport', date_of_expiry: '2030-02-28' },
      },
      { type: 'electronic_record', check_details: [{ check_method: 'vcrypt', time: '2026-03-01T11:59:00Z' }], record: { type: 'erc735' } },
    ],
  },
  claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '2008-03-01', nationalities: ['DE'] },
} as unknown as VerifiedClaimsElement;

const ALL = new Set(['given_name', 'family_name', 'birthdate', 'nationalities']);

test('only the members asked for, trust_framework always', () => {
  expect(answerRequest(element, { verification: { time: null }, claims: { given_name: null } }, ALL, NOW)).toEqual({
    verification: { time: '2026-02-01T10:00:00Z', trust_framework: 'de_aml' },
    claims: { given_name: 'Erika' },
  });
});

test('value and values filter the verification: unmet, the element is left out', () => {
  const ask = (trust: unknown) => answerRequest(element, { verification: { trust_framework: trust }, claims: { given_name: null } }, ALL, NOW);
  expect(ask({ value: 'de_aml' })).toBeDefined();
  expect(ask({ values: ['eidas', 'de_aml'] })).toBeDefined();
  expect(ask({ value: 'eidas' })).toBeUndefined();
  // A requirement on a member the data lacks is unmet too.
  expect(answerRequest(element, { verification: { verification_process: { value: 'x' } }, claims: { given_name: null } }, ALL, NOW)).toBeUndefined();
});

test('max_age: time elapsed since the value, a date counting to its last second', () => {
  const since = (maxAge: number) => answerRequest(element, { verification: { time: { max_age: maxAge } }, claims: { given_name: null } }, ALL, NOW);
  expect(since(29 * DAY)).toBeDefined();
  expect(since(28 * DAY)).toBeUndefined();
  // Born 2008-03-01, 6573.5 days before NOW counted from the birth date's last second.
  const adultCheck = (maxAge: number) => answerRequest(element, { verification: {}, claims: { birthdate: { max_age: maxAge }, given_name: null } }, ALL, NOW);
  expect(adultCheck(6574 * DAY)?.claims).toEqual({ birthdate: '2008-03-01', given_name: 'Erika' });
  // A claim's unmet requirement leaves out the claim only.
  expect(adultCheck(6573 * DAY)?.claims).toEqual({ given_name: 'Erika' });
});

test('evidence filters: each entry shaped by the first filter it meets; none met, the element is left out', () => {
  const evidence = (filters: unknown[]) =>
    answerRequest(element, { verification: { evidence: filters }, claims: { given_name: null } }, ALL, NOW)?.verification.evidence;
  expect(evidence([{ type: { value: 'document' }, check_details: [{ check_method: { value: 'bvr' } }], document_details: { type: null } }])).toEqual([
    { type: 'document', check_details: [{ check_method: 'bvr' }], document_details: { type: 'passport' } },
  ]);
  expect(evidence([{ type: { value: 'document' } }, { type: { value: 'electronic_record' }, record: null }])).toEqual([
    { type: 'document' },
    { type: 'electronic_record', record: { type: 'erc735' } },
  ]);
  expect(evidence([{ type: { value: 'vouch' } }])).toBeUndefined();
  expect(evidence([{ type: { value: 'document' }, check_details: [{ check_method: { value: 'kbv' } }] }])).toBeUndefined();
});

test('only kept claims; none kept or present, no element; claims: null asks for all', () => {
  expect(answerRequest(element, { verification: {}, claims: { given_name: null, birthdate: null } }, new Set(['birthdate']), NOW)?.claims).toEqual({
    birthdate: '2008-03-01',
  });
  expect(answerRequest(element, { verification: {}, claims: { middle_name: null } }, ALL, NOW)).toBeUndefined();
  expect(answerRequest(element, { verification: {}, claims: { given_name: null } }, new Set(), NOW)).toBeUndefined();
  expect(answerRequest(element, { verification: {}, claims: null }, ALL, NOW)?.claims).toEqual(element.claims);
  expect(
    offeredClaims(
      element,
      [
        { verification: { trust_framework: { value: 'eidas' } }, claims: null },
        { verification: {}, claims: { birthdate: null } },
      ],
      NOW,
    ),
  ).toEqual(['birthdate']);
});

test('the claims parameter: verified_claims of the standard’s shape, purposes of 3 to 300 characters', () => {
  const ok = { verification: { trust_framework: null }, claims: { birthdate: { purpose: 'Age check' } } };
  expect(claimsParameterProblem({ userinfo: { verified_claims: ok, given_name: { purpose: 'To greet you' } } })).toBeUndefined();
  expect(claimsParameterProblem({ id_token: { verified_claims: [ok, ok] } })).toBeUndefined();
  expect(claimsParameterProblem({ userinfo: { given_name: { purpose: 'Hi' } } })).toBe(
    'claims.userinfo.given_name.purpose must be 3 to 300 characters long (it has 2)',
  );
  expect(claimsParameterProblem({ userinfo: { verified_claims: { ...ok, claims: { birthdate: { purpose: 'é'.repeat(301) } } } } })).toBe(
    'claims.userinfo.verified_claims.claims.birthdate.purpose must be 3 to 300 characters long (it has 301)',
  );
  expect(claimsParameterProblem({ userinfo: { verified_claims: { claims: {} } } })).toBe('claims.userinfo.verified_claims.verification must be an object');
  expect(claimsParameterProblem({ userinfo: { verified_claims: [] } })).toBe('claims.userinfo.verified_claims must not be an empty list');
  expect(claimsParameterProblem({ userinfo: { given_name: true } })).toBe('claims.userinfo.given_name must be null or an object');
});

test('a list of requests is wrapped for the engine and read back as it was', () => {
  const list = [
    { verification: {}, claims: { given_name: null } },
    { verification: {}, claims: { birthdate: null } },
  ];
  const wrapped = listsWrapped({ userinfo: { verified_claims: list, email: null } })!;
  expect(Array.isArray((wrapped.userinfo as Record<string, unknown>).verified_claims)).toBe(false);
  expect(verifiedRequestsIn(wrapped.userinfo)).toEqual(list);
  expect(listsWrapped({ userinfo: { verified_claims: list[0] } })).toBeUndefined();
});
