// Verified claims (OpenID Connect for Identity Assurance 1.0) end to end, on real anvil with the
// real ONCHAINID contracts and real Redis: a KYC issuer's verified data in a claim, an
// openid-client website asking for it with each form of the standard's request, the owner's
// consent claim by claim, and what the ID token and userinfo then hold. Every `verified_claims`
// is checked against the standard's schema (test/support/identity_assurance_schema.ts), and the
// onchain evidence is re-checked here with viem, as a service would.
import * as oidc from 'openid-client';
import { type Address, createPublicClient, getAddress, type Hex, http, type LocalAccount, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Reason } from '../../src/base/reasons.js';
import { claimIdOf } from '../../src/domain/claims/claim_reader.js';
import { ONCHAIN_RECORD_TYPE } from '../../src/domain/verified_claims/onchain_evidence.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { assertIdentityAssuranceMetadata, assertVerifiedClaims } from '../support/identity_assurance_schema.js';
import { discover, logIn, requestChallenge, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';

const ADMIN_TOKEN = 'admin-token-for-the-verified-claims-tests';
const KYC = 1;
const ACCREDITED = 7;
const PARTNER_KYC = 2;
const DAY_MS = 86_400_000;

let h: Harness;
let signetIssuer: Address;
let chainId: number;
let verifiedAt: string;

beforeAll(async () => {
  h = await startSignet({
    configure: (chain) => ({
      adminToken: ADMIN_TOKEN,
      claims: {
        topics: [
          { name: 'kyc', topic: KYC, description: 'Your identity was checked (KYC)' },
          { name: 'accredited', topic: ACCREDITED, description: 'Your accredited investor status' },
          { name: 'partner_kyc', topic: PARTNER_KYC, description: "A partner's KYC check" },
        ],
        trustedIssuers: [
          { address: chain.suite.claimIssuer, topics: ['kyc', 'accredited'], trustFrameworks: { kyc: 'de_aml' } },
          // Another KYC provider, trusted for partner_kyc only: Signet's issuer is not trusted for that topic.
          { address: chain.accounts[8]!.address, topics: ['partner_kyc'], trustFrameworks: { partner_kyc: 'eidas' } },
        ],
      },
      displayNames: { issuers: [{ address: chain.suite.claimIssuer, name: 'Acme KYC' }], topics: [] },
      claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
    }),
  });
  signetIssuer = h.chain.suite.claimIssuer;
  chainId = h.chain.anvil.chainId;
  verifiedAt = new Date(h.clock.now() - 30 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** What Acme KYC verified: a passport checked in person, 30 days ago, under the German AML rules. */
const acmeVerified = (trustFramework = 'de_aml') => ({
  verification: {
    trust_framework: trustFramework,
    time: verifiedAt,
    verification_process: 'acme-4711',
    evidence: [
      {
        type: 'document',
        check_details: [{ check_method: 'vpip', organization: 'Acme KYC', time: verifiedAt }],
        document_details: {
          type: 'passport',
          document_number: 'C01X00T47',
          date_of_issuance: '2020-03-01',
          date_of_expiry: '2030-02-28',
          issuer: { name: 'Bundesdruckerei', country_code: 'DEU' },
        },
      },
    ],
  },
  claims: {
    given_name: 'Erika',
    family_name: 'Mustermann',
    birthdate: '1964-08-12',
    place_of_birth: { country: 'DE', locality: 'Berlin' },
    nationalities: ['DE'],
  },
});

/** A fresh identity for `owner`, on which Signet's key may add claims (a CLAIM key). */
async function identityFor(owner: LocalAccount): Promise<Address> {
  const identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  // The owner typed another first name into the profile: never released as verified.
  await h.signet.profiles.set(identity, { given_name: 'Eri', family_name: 'M.' });
  return identity;
}

async function admin(path: string, body: unknown) {
  const response = await fetch(`${h.issuer}/admin${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function issue(identity: Address, topic: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const issued = await admin('/claims', { identity, topic, data, ...extra });
  expect(issued.status).toBe(201);
  return issued.json as { claim_id: Hex; claim: { signature: Hex; data: Hex } };
}

const issueKyc = (identity: Address, verified: unknown = acmeVerified(), extra: Record<string, unknown> = {}) =>
  issue(identity, 'kyc', { level: 'enhanced', ...(verified ? { verified_claims: verified } : {}) }, extra);

/** Signet's evidence of the onchain attestation, as it must appear in every element. */
const onchainEvidence = (identity: Address, claimId: Hex, dataHash: Hex) => ({
  type: 'electronic_record',
  check_details: [{ check_method: 'vcrypt', time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) }],
  record: {
    type: ONCHAIN_RECORD_TYPE,
    source: { name: 'Acme KYC' },
    chain: `eip155:${chainId}`,
    identity: `eip155:${chainId}:${identity}`,
    issuer: `eip155:${chainId}:${signetIssuer}`,
    claim_id: claimId,
    topic: KYC,
    data_hash: dataHash,
  },
});

/** The userinfo of a token, its verified_claims checked against the standard's schema. */
async function userinfoOf(config: oidc.Configuration, tokens: { access_token: string; claims(): { sub: string } | undefined }) {
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
  if (userinfo.verified_claims !== undefined) assertVerifiedClaims(userinfo.verified_claims);
  return userinfo;
}

function idTokenOf(tokens: { claims(): Record<string, unknown> | undefined }) {
  const claims = tokens.claims()!;
  if (claims.verified_claims !== undefined) assertVerifiedClaims(claims.verified_claims);
  return claims;
}

// What a service does with the evidence: the snippet of docs/verified-claims.md, as it is there.
const identityAbi = parseAbi([
  'function getClaim(bytes32 claimId) view returns (uint256 topic, uint256 scheme, address issuer, bytes signature, bytes data, string uri)',
]);
const claimIssuerAbi = parseAbi(['function isClaimValid(address identity, uint256 claimTopic, bytes sig, bytes data) view returns (bool claimValid)']);

type OnchainRecord = { chain: string; identity: string; issuer: string; claim_id: Hex; topic: number; data_hash: Hex };

/** True when the claim is on the identity as released and its issuer still confirms it. */
async function recheck(rpcUrl: string, record: OnchainRecord): Promise<boolean> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  if (`eip155:${await client.getChainId()}` !== record.chain) throw new Error('another chain');
  const identity = getAddress(record.identity.split(':')[2]!);
  const issuer = getAddress(record.issuer.split(':')[2]!);
  // The claim as the identity holds it now (ERC-735).
  const [topic, , claimIssuer, signature, data] = await client.readContract({
    address: identity,
    abi: identityAbi,
    functionName: 'getClaim',
    args: [record.claim_id],
  });
  if (claimIssuer !== issuer || Number(topic) !== record.topic || data !== record.data_hash) return false;
  // The issuer's word: signed by one of its CLAIM keys, not revoked.
  return client.readContract({ address: issuer, abi: claimIssuerAbi, functionName: 'isClaimValid', args: [identity, topic, signature, data] });
}

/** The authorization endpoint's answer to a request with these extra parameters (no interaction follows). */
async function authorize(params: Record<string, string>) {
  const config = await discover(h.issuer, WEBSITE);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: WEBSITE.redirect_uris[0]!,
    code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    code_challenge_method: 'S256',
    state: 'state-1',
    ...params,
  });
  const response = await new UserAgent().fetch(url);
  return new URL(response.headers.get('location')!, h.issuer);
}

const refused = (reason: Reason) => ({ status: 400, json: { error: 'invalid_request', error_description: expect.any(String), reason } });

test('discovery advertises what the final standard asks of an OP, and the drafts’ verified_claims_supported', async () => {
  const discovery = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  assertIdentityAssuranceMetadata(discovery);
  expect(discovery).toMatchObject({
    verified_claims_supported: true,
    claims_parameter_supported: true,
    trust_frameworks_supported: ['de_aml', 'eidas'],
    evidence_supported: ['document', 'electronic_record', 'vouch', 'electronic_signature'],
    documents_supported: ['idcard', 'passport', 'driving_permit', 'residence_permit'],
    electronic_records_supported: [ONCHAIN_RECORD_TYPE],
    claims_in_verified_claims_supported: expect.arrayContaining(['given_name', 'family_name', 'birthdate', 'place_of_birth', 'nationalities', 'address']),
  });
  expect(discovery.claims_supported).toContain('verified_claims');
  expect(discovery.scopes_supported).toContain('verified_claims');
});

test('the ID token: exactly the verified claims asked for, the issuer’s verification and Signet’s onchain evidence, re-checked on chain', async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await identityFor(owner);
  const kyc = await issueKyc(identity);
  const claims = {
    id_token: {
      given_name: null,
      verified_claims: {
        verification: {
          trust_framework: null,
          time: null,
          evidence: [
            { type: { value: 'document' }, document_details: { type: null } },
            { type: { value: 'electronic_record' }, check_details: null, record: null },
          ],
        },
        claims: { given_name: null, family_name: { essential: true }, birthdate: { purpose: 'To check that you are of age' } },
      },
    },
  };
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims });

  // The consent request lists the verified fields apart, with the website's purpose.
  const view = await login.agent.getJson(login.interactionUrl);
  expect(view.json.fields).toEqual([
    { name: 'given_name', scope: 'profile', required: false, description: 'Your first name' },
    { name: 'verified:given_name', scope: 'verified_claims', required: false, description: 'Your first name, as a claim issuer verified it' },
    { name: 'verified:family_name', scope: 'verified_claims', required: true, description: 'Your last name, as a claim issuer verified it' },
    {
      name: 'verified:birthdate',
      scope: 'verified_claims',
      required: false,
      description: 'Your date of birth, as a claim issuer verified it',
      purpose: 'To check that you are of age',
    },
  ]);

  const { tokens, signed } = await logIn(login, owner);
  expect(signed.answer.verified).toEqual([
    {
      claim_id: kyc.claim_id,
      topic_name: 'kyc',
      issuer: signetIssuer,
      issuer_name: 'Acme KYC',
      trust_framework: 'de_aml',
      trust_framework_name: 'the German AML rules',
      claims: [
        { name: 'given_name', field: 'verified:given_name', label: 'first name', required: false, kept: true },
        { name: 'family_name', field: 'verified:family_name', label: 'last name', required: true, kept: true },
        { name: 'birthdate', field: 'verified:birthdate', label: 'date of birth', required: false, kept: true },
      ],
    },
  ]);
  // The owner signs for each verified field by name, and each is a resource of the claim.
  expect(signed.message).toContain(
    'By signing you share: first name, first name verified by Acme KYC under the German AML rules, last name verified by Acme KYC under the German AML rules, date of birth verified by Acme KYC under the German AML rules.',
  );
  for (const name of ['given_name', 'family_name', 'birthdate']) {
    expect(signed.message).toContain(`\n- ${h.issuer}/identities/${identity}/claims/${kyc.claim_id}#/verified_claims/claims/${name}`);
  }

  const idToken = idTokenOf(tokens);
  // The self-asserted first name beside the verified one: a website cannot mix them up.
  expect(idToken.given_name).toBe('Eri');
  expect(idToken.verified_claims).toEqual({
    verification: {
      trust_framework: 'de_aml',
      time: verifiedAt,
      evidence: [{ type: 'document', document_details: { type: 'passport' } }, onchainEvidence(identity, kyc.claim_id, kyc.claim.data)],
    },
    claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12' },
  });
  // Asked for the ID token only: userinfo has none.
  expect((await userinfoOf(login.config, tokens)).verified_claims).toBeUndefined();

  // A service re-checks the attestation on chain by itself; once revoked, the check says so.
  const evidence = (idToken.verified_claims as { verification: { evidence: { record: OnchainRecord }[] } }).verification.evidence[1]!;
  expect(evidence.record.claim_id).toBe(claimIdOf(signetIssuer, KYC));
  expect(await recheck(h.chain.anvil.rpcUrl, evidence.record)).toBe(true);

  // The receipt holds what was signed for, and the history what was released.
  const [receipt] = await h.signet.receipts.listFor(identity);
  expect(receipt!.verified).toEqual([{ claim_id: kyc.claim_id, claims: ['given_name', 'family_name', 'birthdate'] }]);
  const history = await h.signet.history.page(identity, { limit: 10 });
  expect(history.entries.find((entry) => entry.door === 'id_token')).toMatchObject({
    fields: ['given_name', 'verified:given_name', 'verified:family_name', 'verified:birthdate'],
    claims: [kyc.claim_id],
  });
});

test('userinfo, with trust framework filters: an element for each request it meets, none for the one it does not', async () => {
  const owner = h.chain.accounts[1]!;
  const identity = await identityFor(owner);
  await issueKyc(identity);
  const claims = {
    userinfo: {
      verified_claims: [
        { verification: { trust_framework: { values: ['eidas', 'de_aml'] } }, claims: { family_name: null, nationalities: null } },
        { verification: { trust_framework: { value: 'eidas' } }, claims: { birthdate: null } },
      ],
    },
  };
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims });
  const { tokens, signed } = await logIn(login, owner);
  // Only what a request element can be answered with is offered: not the birthdate under eIDAS.
  expect((signed.answer.verified as { claims: { name: string }[] }[])[0]!.claims.map((claim) => claim.name)).toEqual(['family_name', 'nationalities']);
  expect(idTokenOf(tokens).verified_claims).toBeUndefined();
  expect((await userinfoOf(login.config, tokens)).verified_claims).toEqual({
    verification: { trust_framework: 'de_aml' },
    claims: { family_name: 'Mustermann', nationalities: ['DE'] },
  });

  // A request only for eIDAS: nothing is offered, and the website gets no element.
  const eidasOnly = await startLogin(h.issuer, WEBSITE, {
    scope: 'openid',
    claims: { userinfo: { verified_claims: { verification: { trust_framework: { value: 'eidas' } }, claims: { family_name: null } } } },
  });
  const eidas = await logIn(eidasOnly, owner);
  expect(eidas.signed.answer.verified).toEqual([]);
  expect(eidas.signed.message).not.toContain('#/verified_claims/');
  expect((await userinfoOf(eidasOnly.config, eidas.tokens)).verified_claims).toBeUndefined();
});

test('max_age on the verification time, and evidence filtered by check method', async () => {
  const owner = h.chain.accounts[2]!;
  const identity = await identityFor(owner);
  await issueKyc(identity);
  const claims = {
    userinfo: {
      verified_claims: [
        {
          // Verified 30 days ago: within 60 days.
          verification: {
            trust_framework: null,
            time: { max_age: 60 * 86_400 },
            evidence: [{ type: { value: 'electronic_record' }, check_details: [{ check_method: { value: 'vcrypt' } }] }],
          },
          claims: { given_name: null },
        },
        // Not within 7 days: the whole element is left out.
        { verification: { trust_framework: null, time: { max_age: 7 * 86_400 } }, claims: { birthdate: null } },
        // Evidence of a kind the issuer did not use: left out too.
        { verification: { trust_framework: null, evidence: [{ type: { value: 'vouch' } }] }, claims: { family_name: null } },
      ],
    },
  };
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims });
  const { tokens } = await logIn(login, owner);
  expect((await userinfoOf(login.config, tokens)).verified_claims).toEqual({
    verification: {
      trust_framework: 'de_aml',
      time: verifiedAt,
      // Of each evidence, what the filter names: its type and the checks that meet it.
      evidence: [{ type: 'electronic_record', check_details: [{ check_method: 'vcrypt' }] }],
    },
    claims: { given_name: 'Erika' },
  });
});

test('two request elements met: two elements, as a list; a refreshed ID token answers the same', async () => {
  const owner = h.chain.accounts[8]!;
  const identity = await identityFor(owner);
  await issueKyc(identity);
  const claims = {
    id_token: {
      verified_claims: [
        { verification: { trust_framework: { value: 'de_aml' } }, claims: { given_name: null, family_name: null } },
        { verification: { trust_framework: null, verification_process: null }, claims: { birthdate: null } },
      ],
    },
  };
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid offline_access', claims });
  const { tokens } = await logIn(login, owner);
  const expected = [
    { verification: { trust_framework: 'de_aml' }, claims: { given_name: 'Erika', family_name: 'Mustermann' } },
    { verification: { trust_framework: 'de_aml', verification_process: 'acme-4711' }, claims: { birthdate: '1964-08-12' } },
  ];
  expect(idTokenOf(tokens).verified_claims).toEqual(expected);
  const refreshed = await oidc.refreshTokenGrant(login.config, tokens.refresh_token!);
  expect(idTokenOf(refreshed).verified_claims).toEqual(expected);
});

test('essential: a required verified field stays; one nobody verified leaves the login as it is', async () => {
  const owner = h.chain.accounts[3]!;
  const identity = await identityFor(owner);
  const kyc = await issueKyc(identity);
  const claims = {
    userinfo: {
      verified_claims: {
        verification: { trust_framework: null },
        claims: { family_name: { essential: true }, birthdate: null, middle_name: { essential: true } },
      },
    },
  };
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims });
  expect(await requestChallenge(login, { address: owner.address, verified: [{ claim_id: kyc.claim_id, claims: ['birthdate'] }] })).toMatchObject(
    refused('consent_field_required'),
  );
  expect(await requestChallenge(login, { address: owner.address, verified: [{ claim_id: kyc.claim_id, claims: ['nationalities'] }] })).toMatchObject(
    refused('consent_verified_not_offered'),
  );
  // The owner unticks the date of birth: only the family name is released.
  const { tokens, signed } = await logIn(login, owner, { verified: [{ claim_id: kyc.claim_id, claims: ['family_name'] }] });
  expect(signed.message).not.toContain('date of birth');
  expect((await userinfoOf(login.config, tokens)).verified_claims).toEqual({
    verification: { trust_framework: 'de_aml' },
    claims: { family_name: 'Mustermann' },
  });
});

test('purpose: shown when 3 to 300 characters, the request refused with invalid_request otherwise', async () => {
  const ask = (purpose: string) => ({
    claims: JSON.stringify({ userinfo: { verified_claims: { verification: { trust_framework: null }, claims: { birthdate: { purpose } } } } }),
  });
  for (const purpose of ['ok', 'x'.repeat(301)]) {
    const answer = await authorize({ scope: 'openid', ...ask(purpose) });
    expect(answer.origin + answer.pathname).toBe(WEBSITE.redirect_uris[0]);
    expect(answer.searchParams.get('error')).toBe('invalid_request');
    expect(answer.searchParams.get('error_description')).toMatch(/purpose must be 3 to 300 characters long/);
  }
  // The request's own `purpose` parameter, as the drafts defined it.
  const tooShort = await authorize({ scope: 'openid', purpose: 'no' });
  expect(tooShort.searchParams.get('error')).toBe('invalid_request');
  // A malformed verified_claims request.
  const malformed = await authorize({ scope: 'openid', claims: JSON.stringify({ userinfo: { verified_claims: { claims: { birthdate: null } } } }) });
  expect(malformed.searchParams.get('error')).toBe('invalid_request');

  const shown = 'To open your account under the anti-money-laundering law <script>alert(1)</script>';
  const login = await startLogin(h.issuer, WEBSITE, {
    scope: 'openid',
    claims: { userinfo: { verified_claims: { verification: { trust_framework: null }, claims: { birthdate: { purpose: shown } } } } },
  });
  const view = await login.agent.getJson(login.interactionUrl);
  expect((view.json.fields as { purpose?: string }[])[0]!.purpose).toBe(shown);
  const page = await (await login.agent.fetch(login.interactionUrl)).text();
  expect(page).toContain('To open your account under the anti-money-laundering law &lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page).not.toContain('<script>alert(1)');
});

test('the verified_claims scope: a verified name, date of birth and nationality with the verification and all evidence', async () => {
  const owner = h.chain.accounts[4]!;
  const identity = await identityFor(owner);
  const kyc = await issueKyc(identity);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid verified_claims claim:kyc' });
  const { tokens } = await logIn(login, owner);
  const verified = acmeVerified();
  const expected = {
    verification: {
      trust_framework: 'de_aml',
      time: verifiedAt,
      evidence: [...verified.verification.evidence, onchainEvidence(identity, kyc.claim_id, kyc.claim.data)],
    },
    claims: { given_name: 'Erika', family_name: 'Mustermann', birthdate: '1964-08-12', nationalities: ['DE'] },
  };
  expect(idTokenOf(tokens).verified_claims).toEqual(expected);
  const userinfo = await userinfoOf(login.config, tokens);
  expect(userinfo.verified_claims).toEqual(expected);
  // onchain_claims keeps working for the websites that read it.
  expect(userinfo.onchain_claims).toEqual([
    expect.objectContaining({ claim_id: kyc.claim_id, valid: true, data: { level: 'enhanced', verified_claims: verified } }),
  ]);
});

describe('claims that cannot be released give no element', () => {
  const request = { userinfo: { verified_claims: { verification: { trust_framework: null }, claims: { family_name: null } } } };

  test('a claim revoked by its issuer after the login', async () => {
    const owner = h.chain.accounts[5]!;
    const identity = await identityFor(owner);
    const kyc = await issueKyc(identity);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims: request });
    const { tokens } = await logIn(login, owner);
    expect((await userinfoOf(login.config, tokens)).verified_claims).toEqual({
      verification: { trust_framework: 'de_aml' },
      claims: { family_name: 'Mustermann' },
    });
    const record = {
      chain: `eip155:${chainId}`,
      identity: `eip155:${chainId}:${identity}`,
      issuer: `eip155:${chainId}:${signetIssuer}`,
      claim_id: kyc.claim_id,
      topic: KYC,
      data_hash: kyc.claim.data,
    };
    expect(await recheck(h.chain.anvil.rpcUrl, record)).toBe(true);
    expect((await admin('/claims/revocations', { identity, claim_id: kyc.claim_id })).status).toBe(200);
    expect((await userinfoOf(login.config, tokens)).verified_claims).toBeUndefined();
    // A service holding an older token finds out on chain by itself.
    expect(await recheck(h.chain.anvil.rpcUrl, record)).toBe(false);
  });

  test('a claim that expired after the login', async () => {
    const owner = h.chain.accounts[6]!;
    const identity = await identityFor(owner);
    await issueKyc(identity, acmeVerified(), { expires_at: new Date(h.clock.now() + 3_600_000).toISOString() });
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims: request });
    const { tokens } = await logIn(login, owner);
    expect((await userinfoOf(login.config, tokens)).verified_claims).toBeDefined();
    h.clock.advance(3_600_000 + 1000);
    try {
      expect((await userinfoOf(login.config, tokens)).verified_claims).toBeUndefined();
    } finally {
      h.clock.advance(-3_600_000 - 1000);
    }
  });

  test('an untrusted issuer, a claim without verified data, a topic without trust framework, another trust framework', async () => {
    const owner = h.chain.accounts[7]!;
    const identity = await identityFor(owner);
    // Signet's issuer is not trusted for partner_kyc, though its data names that topic's framework.
    const untrusted = await issue(identity, 'partner_kyc', { verified_claims: acmeVerified('eidas') });
    // Trusted for accredited, but with no trust framework there.
    const accredited = await issue(identity, 'accredited', { verified_claims: acmeVerified() });
    // A KYC claim with no verified data.
    const bare = await issueKyc(identity, null);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims: request });
    const listing = await requestChallenge(login, { address: owner.address });
    expect(listing.json.verified).toEqual([]);
    for (const claimId of [untrusted.claim_id, accredited.claim_id, bare.claim_id]) {
      expect(await requestChallenge(login, { address: owner.address, verified: [{ claim_id: claimId, claims: ['family_name'] }] })).toMatchObject(
        refused('consent_verified_not_offered'),
      );
    }
    const { tokens } = await logIn(login, owner);
    expect((await userinfoOf(login.config, tokens)).verified_claims).toBeUndefined();

    // Data checked under rules other than those the issuer is trusted under for the topic.
    await issueKyc(identity, acmeVerified('eidas'));
    const again = await startLogin(h.issuer, WEBSITE, { scope: 'openid', claims: request });
    expect((await requestChallenge(again, { address: owner.address })).json.verified).toEqual([]);
  });
});

test('the claims admin API refuses verified data that is not of the standard’s shape, naming where', async () => {
  const identity = await h.chain.createIdentityFor(privateKeyToAccount(generatePrivateKey()).address);
  const broken = acmeVerified();
  const cases: [unknown, RegExp][] = [
    [{ ...broken, verification: { ...broken.verification, trust_framework: undefined } }, /"data\.verified_claims\.verification\.trust_framework" is required/],
    [{ ...broken, claims: { ...broken.claims, birthdate: '12.08.1964' } }, /"data\.verified_claims\.claims\.birthdate" must be a date as YYYY-MM-DD/],
    [{ ...broken, verification: { ...broken.verification, evidence: [{ type: 'selfie' }] } }, /"data\.verified_claims\.verification\.evidence\.0/],
    [{ ...broken, verification: { ...broken.verification, time: '30 days ago' } }, /"data\.verified_claims\.verification\.time" must be a time/],
    [{ ...broken, extra: true }, /"data\.verified_claims" has members the standard does not define: extra/],
    ['not an object', /"data\.verified_claims" must be an object/],
  ];
  for (const [verified, description] of cases) {
    const answer = await admin('/claims', { identity, topic: 'kyc', data: { verified_claims: verified } });
    expect(answer).toEqual({
      status: 400,
      json: { error: 'invalid_request', error_description: expect.stringMatching(description), reason: 'claim_verified_claims_invalid' },
    });
  }
  // Nothing was issued.
  expect(await h.signet.claims.listForTopics(identity, [KYC])).toEqual([]);
});
