// Nothing kept without an end: the main flows run on a real Redis (a login with its refresh,
// userinfo and revocation, a CIBA request, access grants of every end, account sessions,
// identity creation, claims issued, revoked and removed), then every key in Redis must match
// one row of the table in docs/data.md, and have a TTL unless its row says it is kept "Until"
// an action. The lifetime rules themselves are checked to the second.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setGlobalConfig } from '@openid4vc/utils';
import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import type { Address, Hex, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { projectRoot } from '../../src/base/project_root.js';
import { type ClaimRecord, createClaimRecords } from '../../src/domain/claims/claim_records.js';
import { send } from '../../src/infra/chain/chain_writes.js';
import { identityAbi, KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { credentialIssuerSettings } from '../support/credential_issuer_settings.js';
import { receive } from '../support/credential_wallet.js';
import { discover, logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, KIOSK, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { UserAgent } from '../support/user_agent.js';
import { waitUntil } from '../support/wait_until.js';

const ADMIN_TOKEN = 'admin-token-for-the-key-lifetime-tests';
const KYC = 1;
const ACCREDITED = 7;
// Retention periods of a few minutes, in days, so each TTL below is told apart from the others.
const RECEIPT_SECONDS = 1000;
const ENDED_GRANT_SECONDS = 500;
const ENDED_CLAIM_SECONDS = 400;
const DAY = 86_400;

type Row = { pattern: string; matches: RegExp; lifetime: string; keptUntilAction: boolean };

/** The table of docs/data.md: each row's key pattern (`<…>` any text, `{…}` literal) and lifetime. */
function dataTable(): Row[] {
  const text = readFileSync(join(projectRoot, 'docs', 'data.md'), 'utf8');
  const table = text.slice(text.indexOf('## Every key'));
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `signet:'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const pattern = cells[1]!.replace(/`/g, '');
      const lifetime = cells[4]!;
      const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const matches = new RegExp(
        `^${pattern
          .split(/<[^>]+>/)
          .map(literal)
          .join('.+')}$`,
      );
      return { pattern, matches, lifetime, keptUntilAction: /^until\b/i.test(lifetime) };
    });
}

let h: Harness;
let redis: Redis;

beforeAll(async () => {
  h = await startSignet({
    clients: [WEBSITE, ANALYTICS, KIOSK],
    configure: (chain) => ({
      claims: {
        topics: [
          { name: 'kyc', topic: KYC, description: 'Your identity was checked (KYC)' },
          { name: 'accredited', topic: ACCREDITED, description: 'Your accredited investor status' },
        ],
        // KYC claims hold verified data, so credentials are made from them.
        trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc', 'accredited'], trustFrameworks: { kyc: 'de_aml' } }],
      },
      jwks: credentialIssuerSettings(chain, ADMIN_TOKEN).jwks,
      claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
      identityDeployerKey: DEPLOYER_KEY,
      adminToken: ADMIN_TOKEN,
      clientRegistration: 'open',
      webhooks: { allowPrivate: true },
      retention: { receiptDays: RECEIPT_SECONDS / DAY, endedGrantDays: ENDED_GRANT_SECONDS / DAY, endedClaimDays: ENDED_CLAIM_SECONDS / DAY },
    }),
  });
  redis = new Redis(h.redis.url);
}, 60_000);

afterAll(async () => {
  await redis.quit();
  await h.close();
});

/** A fresh identity for `owner` on which Signet's issuer key may add claims, with a profile. */
async function ownerIdentity(owner: LocalAccount): Promise<Address> {
  const identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
  await h.signet.profiles.set(identity, { given_name: 'Ada', family_name: 'Lovelace', email: 'ada@example.org' });
  return identity;
}

async function api(method: string, path: string, options: { key?: string; token?: string; admin?: boolean; body?: unknown; agent?: UserAgent } = {}) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.admin) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
  const response = options.agent ? await options.agent.fetch(`${h.issuer}${path}`, init) : await fetch(`${h.issuer}${path}`, init);
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read into answers of many shapes.
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

/** A claim Signet issues; `verified`: with verified data (a date of birth), which credentials are made from. */
async function issueClaim(identity: Address, topic: 'kyc' | 'accredited', verified = false) {
  const verifiedClaims = { verification: { trust_framework: 'de_aml', time: '2026-10-01T10:00:00Z' }, claims: { birthdate: '1990-01-01' } };
  const data = verified ? { level: 'basic', verified_claims: verifiedClaims } : { level: 'basic' };
  const issued = await api('POST', '/admin/claims', { admin: true, body: { identity, topic, data } });
  expect(issued.status).toBe(201);
  return issued.json as { claim_id: Hex; added: boolean; claim: { topic: number; signature: Hex; data: Hex; uri: string } };
}

async function requestGrant(identity: Address, kind: 'immediate' | 'persistent', key: string) {
  const answer = await api('POST', `/identities/${identity}/profile/access-requests`, { key, body: { kind, fields: ['given_name'] } });
  expect(answer.status).toBe(201);
  return answer.json as { id: string; challenge: string };
}

/** Every key in Redis with its PTTL (-1: none). */
async function everyKey(): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of batch) found.set(key, await redis.pttl(key));
  } while (cursor !== '0');
  return found;
}

/** Every key in Redis against the table: those no row covers, or more than one, and those without the end their row promises. */
async function checkKeys() {
  const rows = dataTable();
  const uncovered: string[] = [];
  const ambiguous: string[] = [];
  const withoutEnd: string[] = [];
  const seen = new Set<string>();
  for (const [key, pttl] of await everyKey()) {
    const matching = rows.filter((row) => row.matches.test(key));
    if (matching.length === 0) uncovered.push(key);
    else if (matching.length > 1) ambiguous.push(`${key}: ${matching.map((row) => row.pattern).join(', ')}`);
    else {
      seen.add(matching[0]!.pattern);
      if (pttl === -1 && !matching[0]!.keptUntilAction) withoutEnd.push(`${key} (${matching[0]!.pattern}: ${matching[0]!.lifetime})`);
    }
  }
  return { uncovered, ambiguous, withoutEnd, seen };
}

/** Seconds left on a key, as the store reports them. */
const ttlOf = (key: string) => h.store.ttl(key);

test('after the main flows every key in Redis is in docs/data.md, with a TTL unless its row says "Until"', async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await ownerIdentity(owner);
  const apiKey = (await h.signet.apiKeys.create('analytics', 'key lifetimes')).key;

  // Claims Signet issues, one of them revoked through Signet.
  await issueClaim(identity, 'kyc', true);
  const accredited = await issueClaim(identity, 'accredited');
  expect((await api('POST', '/admin/claims/revocations', { admin: true, body: { identity, claim_id: accredited.claim_id } })).status).toBe(200);

  // A website login that keeps the claim, with userinfo and a refresh; a second one whose refresh token is revoked.
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile email claim:kyc' });
  const { tokens } = await logIn(login, owner);
  const sub = tokens.claims()!.sub;
  await oidc.fetchUserInfo(login.config, tokens.access_token, sub);
  const refreshed = await oidc.refreshTokenGrant(login.config, tokens.refresh_token!);
  await oidc.fetchUserInfo(login.config, refreshed.access_token, sub);
  const ended = await startLogin(h.issuer, WEBSITE, { scope: 'openid email' });
  await oidc.tokenRevocation(ended.config, (await logIn(ended, owner)).tokens.refresh_token!);

  // Clients at run time: one added through the admin API that logs in, one registered (RFC 7591)
  // and updated (RFC 7592: its registration access token rotates).
  const runTime = { client_id: 'run-time', client_secret: 'run-time-secret', client_name: 'Run Time', redirect_uris: ['https://run-time.example/cb'] };
  expect((await api('POST', '/admin/clients', { admin: true, body: runTime })).status).toBe(201);
  await logIn(await startLogin(h.issuer, { ...WEBSITE, ...runTime }, { scope: 'openid email' }), owner);
  const registered = await api('POST', '/reg', { body: { client_name: 'Registered', redirect_uris: ['https://registered.example/cb'] } });
  expect(registered.status).toBe(201);
  const { client_id, registration_access_token, registration_client_uri } = registered.json as Record<string, string>;
  const updated = await fetch(registration_client_uri!, {
    method: 'PUT',
    headers: { authorization: `Bearer ${registration_access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ client_id, client_name: 'Registered Again', redirect_uris: ['https://registered.example/cb'] }),
  });
  expect(updated.status).toBe(200);

  // A CIBA login request left waiting in the owner's inbox.
  await oidc.initiateBackchannelAuthentication(await discover(h.issuer, KIOSK), { scope: 'openid email', login_hint: identity });

  // Access grants: a one-time grant used, a lasting one read then revoked, one denied, one left pending.
  const { agent } = await signInToAccount(h.issuer, owner);
  const once = await requestGrant(identity, 'immediate', apiKey);
  const onceToken = (await api('POST', `/access-grants/${once.id}/validations`, { body: { signature: await owner.signMessage({ message: once.challenge }) } }))
    .json.access_token as string;
  expect((await api('GET', `/identities/${identity}/profile`, { token: onceToken })).status).toBe(200);
  const lasting = await requestGrant(identity, 'persistent', apiKey);
  expect(
    (await api('POST', `/access-grants/${lasting.id}/validations`, { agent, body: { signature: await owner.signMessage({ message: lasting.challenge }) } }))
      .status,
  ).toBe(200);
  expect((await api('GET', `/identities/${identity}/profile`, { key: apiKey })).status).toBe(200);
  expect((await api('POST', `/access-grants/${lasting.id}/revocations`, { agent, body: {} })).status).toBe(200);
  const denied = await requestGrant(identity, 'persistent', apiKey);
  expect((await api('POST', `/access-grants/${denied.id}/denials`, { agent, body: {} })).status).toBe(200);
  await requestGrant(identity, 'persistent', apiKey);

  // The owner's account: a webhook, a claim request, a wallet key prepared; a fresh wallet creates an identity.
  expect((await api('PUT', '/account/webhook', { agent, body: { url: 'http://127.0.0.1:9/owner-hook' } })).status).toBe(200);
  const asked = await agent.fetch(`${h.issuer}/account/claims/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'topic=kyc',
  });
  expect(asked.status).toBeLessThan(400);
  const spare = privateKeyToAccount(generatePrivateKey());
  expect((await api('POST', '/account/wallets/transactions', { agent, body: { address: spare.address, purpose: 'action', action: 'add' } })).status).toBe(200);
  const fresh = await signInToAccount(h.issuer, privateKeyToAccount(generatePrivateKey()));
  expect((await fresh.agent.postJson(`${h.issuer}/account/identity`, {})).status).toBeLessThan(300);
  await waitUntil('the fresh identity is deployed', async () => (await fresh.agent.getJson(`${h.issuer}/account/identity`)).json.status === 'deployed', 20_000);

  // A credential for the owner's wallet: an offer tried once with a wrong code, then redeemed; then revoked.
  setGlobalConfig({ allowInsecureUrls: true });
  const offered = await agent.postJson(`${h.issuer}/account/credential-offers`, { credential_configuration_id: 'age' });
  expect(offered.status).toBe(201);
  const link = offered.json.link as string;
  const preAuthorized = (await (await fetch(offered.json.credential_offer_uri as string)).json()) as Record<string, Record<string, Record<string, string>>>;
  const wrongCode = await fetch(`${h.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': preAuthorized.grants!['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code']!,
      tx_code: offered.json.tx_code === '000000' ? '000001' : '000000',
    }),
  });
  expect(wrongCode.status).toBe(400);
  await receive(link, offered.json.tx_code as string);
  const [issuedCredential] = (await agent.getJson(`${h.issuer}/account/credentials`)).json.credentials as { id: string }[];
  expect((await agent.postJson(`${h.issuer}/account/credentials/${issuedCredential!.id}/revocation`, {})).status).toBe(200);

  const { uncovered, ambiguous, withoutEnd, seen } = await checkKeys();
  expect(uncovered).toEqual([]);
  expect(ambiguous).toEqual([]);
  expect(withoutEnd).toEqual([]);
  // The flows reached the keys the table is about.
  const reached = [
    'signet:oidc:{<Model>:<id>}',
    'signet:oidc:{<Model>:<id>}:consumed',
    'signet:oidc:{grant:<grantId>}:records',
    'signet:oidc:{grant:<grantId>}:revoked',
    'signet:oidc:{grant:<grantId>}:access-tokens',
    'signet:oidc:{grant:<grantId>}:used-refresh-tokens',
    'signet:oidc:uid:<uid>',
    'signet:oidc:sessions-of:<sub>',
    'signet:{challenge:<nonce>}',
    'signet:{challenge:<nonce>}:used',
    'signet:challenge-latest:<binding>',
    'signet:consent:<grantId>',
    'signet:consents:<identity>',
    'signet:profile:<identity>',
    'signet:account-session:<id>',
    'signet:account-sessions:<identity>',
    'signet:claim:<identity>:<claimId>',
    'signet:claim-records:<identity>',
    'signet:claim-request:<identity>:<topic>',
    'signet:claim-requests',
    'signet:owner-webhook:<identity>',
    'signet:identity-wallets:<identity>',
    'signet:identity-creation:<wallet>',
    'signet:{access-grant:<id>}',
    'signet:{access-grant:<id>}:status',
    'signet:access-grants:identity:<identity>',
    'signet:access-grants:service:<serviceId>',
    'signet:access-grants:on:<serviceId>:<path>',
    'signet:grant-token:<sha256>',
    'signet:backchannel:<authReqId>',
    'signet:backchannel-of:<identity>',
    'signet:{history:<identity>}',
    'signet:rate:<class>:<who>',
    'signet:{api-key:<id>}',
    'signet:api-keys:<serviceId>',
    'signet:{webhooks}:stream',
    'signet:client:<clientId>',
    'signet:clients',
    'signet:clients:configured',
    'signet:client-logins:<clientId>',
    'signet:registration-token:<id>',
    'signet:registration-tokens:<clientId>',
    'signet:credential-offer:<id>',
    'signet:credential-grants:<identity>',
    'signet:credential:<id>',
    'signet:credentials:<identity>',
    'signet:status-slot:<list>:<index>',
    'signet:status-revoked:<list>',
    'signet:status-revision:<list>',
    'signet:proof-nonce:<hash>',
    'signet:credential-token:<hash>',
    'signet:credentials-day:<identity>',
    'signet:tx-code-attempts:<hash>',
  ];
  expect(reached.filter((pattern) => !seen.has(pattern))).toEqual([]);
}, 60_000);

test('the check itself: a key no row covers, and a key without the TTL its row promises, are reported', async () => {
  await redis.set('signet:not-in-the-table:1', 'x', 'EX', 60);
  await redis.set('signet:consent:no-ttl', '{}');
  try {
    const { uncovered, withoutEnd } = await checkKeys();
    expect(uncovered).toEqual(['signet:not-in-the-table:1']);
    expect(withoutEnd).toEqual([
      "signet:consent:no-ttl (signet:consent:<grantId>: TTL: the login grant's life (`ttl.grant`) plus `retention.receiptDays` from signing; an erasure keeps it `retention.receiptDays` from then)",
    ]);
  } finally {
    await redis.del('signet:not-in-the-table:1', 'signet:consent:no-ttl');
  }
});

test('after an erasure, every key naming the identity is gone or ends by itself, and the claims Signet issued are revoked', async () => {
  // The owner of the main flows above, with claims, grants, a webhook, a claim request and sessions.
  const owner = h.chain.accounts[0]!;
  const identity = (await h.signet.registry.identityOf(owner.address))!;
  const kyc = (await h.signet.claims.listForTopics(identity, [KYC]))[0]!;
  expect(kyc.status).toBe('valid');
  const { agent } = await signInToAccount(h.issuer, owner);
  const challenge = await api('POST', '/account/erasure/challenge', { agent });
  const message = challenge.json.challenge as string;
  const accepted = await api('POST', '/account/erasure', {
    agent,
    body: { signature: await owner.signMessage({ message }), message, revoke_issued_claims: true },
  });
  expect(accepted.status).toBe(202);
  await waitUntil('the erasure is done', async () => (await api('GET', `/account/erasures/${accepted.json.id}`)).json.status === 'done', 20_000);

  const { uncovered, ambiguous, withoutEnd } = await checkKeys();
  expect({ uncovered, ambiguous, withoutEnd }).toEqual({ uncovered: [], ambiguous: [], withoutEnd: [] });
  const needle = identity.slice(2).toLowerCase();
  const naming: string[] = [];
  for (const [key, pttl] of await everyKey()) {
    const type = await redis.type(key);
    const value =
      type === 'string'
        ? ((await redis.get(key)) ?? '')
        : type === 'zset'
          ? (await redis.zrange(key, '0', '-1')).join(' ')
          : type === 'hash'
            ? JSON.stringify(await redis.hgetall(key))
            : '';
    if (!`${key} ${value}`.toLowerCase().includes(needle)) continue;
    const row = dataTable().find((candidate) => candidate.matches.test(key))!;
    naming.push(`${row.pattern === 'signet:oidc:{<Model>:<id>}' ? key.replace(/:[^:}]+\}$/, ':<id>}') : row.pattern}${pttl > 0 ? '' : ' (no TTL)'}`);
  }
  // Kept as proof with their end; the challenges signed to sign in and to erase; the login's
  // authorization code, refused once its Grant is gone, until its 60 s life ends; and the CIBA
  // request the erasure denied, until its 600 s life ends, so that the waiting client hears it,
  // with the count of CIBA starts for the identity, until its window (600 s) ends.
  expect([...new Set(naming)].sort()).toEqual(
    [
      'signet:oidc:{AuthorizationCode:<id>}',
      'signet:consent:<grantId>',
      'signet:consents:<identity>',
      'signet:{access-grant:<id>}',
      'signet:access-grants:identity:<identity>',
      'signet:{challenge:<nonce>}',
      'signet:oidc:{BackchannelAuthenticationRequest:<id>}',
      'signet:rate:<class>:<who>',
    ].sort(),
  );
  // The claim Signet issued no longer stands, anywhere.
  const after = await api('GET', `/identities/${identity}/claims/${kyc.claim_id}`);
  expect(after.json.status).toBe('not_confirmed_by_issuer');
}, 60_000);

test("a login's consent receipt lives the grant's life plus retention.receiptDays, and the identity's index with it", async () => {
  const owner = h.chain.accounts[1]!;
  const identity = await ownerIdentity(owner);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid email' });
  await logIn(login, owner);
  const [receipt] = await h.signet.receipts.listFor(identity);
  const life = h.config.ttl.grant + RECEIPT_SECONDS;
  expect(await ttlOf(keys.consent(receipt!.grant_id))).toBeGreaterThanOrEqual(life - 2);
  expect(await ttlOf(keys.consent(receipt!.grant_id))).toBeLessThanOrEqual(life);
  expect(await ttlOf(keys.consentsOf(identity))).toBeGreaterThanOrEqual(life - 2);
  expect(await ttlOf(keys.consentsOf(identity))).toBeLessThanOrEqual(life);
  // The grant's record index lives as long as its longest record (the refresh token or the grant).
  const grantIndex = await ttlOf(keys.grantIndex(receipt!.grant_id));
  expect(grantIndex).toBeGreaterThanOrEqual(Math.max(h.config.ttl.grant, h.config.ttl.refreshToken) - 2);
  expect(grantIndex).toBeLessThanOrEqual(Math.max(h.config.ttl.grant, h.config.ttl.refreshToken));
});

test('an access grant lives its request, then its use, then retention.endedGrantDays once ended; a lasting active one until revoked', async () => {
  const owner = h.chain.accounts[2]!;
  const identity = await ownerIdentity(owner);
  const apiKey = (await h.signet.apiKeys.create('analytics')).key;
  const { agent } = await signInToAccount(h.issuer, owner);
  const within = async (key: string, seconds: number) => {
    const left = await ttlOf(key);
    expect(left).toBeGreaterThanOrEqual(seconds - 2);
    expect(left).toBeLessThanOrEqual(seconds);
  };
  const grantKeys = (id: string) => [keys.accessGrant(id), keys.accessGrantStatus(id)];

  const once = await requestGrant(identity, 'immediate', apiKey);
  for (const key of grantKeys(once.id)) await within(key, h.config.challengeTtlSeconds + ENDED_GRANT_SECONDS);
  const token = (await api('POST', `/access-grants/${once.id}/validations`, { body: { signature: await owner.signMessage({ message: once.challenge }) } })).json
    .access_token as string;
  for (const key of grantKeys(once.id)) await within(key, h.config.challengeTtlSeconds + ENDED_GRANT_SECONDS);
  await api('GET', `/identities/${identity}/profile`, { token });
  expect((await h.signet.accessGrants.current(once.id)).status).toBe('used');
  for (const key of grantKeys(once.id)) await within(key, ENDED_GRANT_SECONDS);

  const lasting = await requestGrant(identity, 'persistent', apiKey);
  for (const key of grantKeys(lasting.id)) await within(key, h.config.grants.pendingSeconds + ENDED_GRANT_SECONDS);
  await api('POST', `/access-grants/${lasting.id}/validations`, { agent, body: { signature: await owner.signMessage({ message: lasting.challenge }) } });
  for (const key of grantKeys(lasting.id)) expect(await ttlOf(key)).toBe(Number.POSITIVE_INFINITY);
  // While a lasting grant is active, the indexes that list it never expire.
  expect(await ttlOf(keys.accessGrantsOfIdentity(identity))).toBe(Number.POSITIVE_INFINITY);
  expect(await ttlOf(keys.accessGrantsOfServiceResource('analytics', `/identities/${identity}/profile`))).toBe(Number.POSITIVE_INFINITY);
  await api('POST', `/access-grants/${lasting.id}/revocations`, { agent, body: {} });
  for (const key of grantKeys(lasting.id)) await within(key, ENDED_GRANT_SECONDS);

  const denied = await requestGrant(identity, 'persistent', apiKey);
  await api('POST', `/access-grants/${denied.id}/denials`, { agent, body: {} });
  for (const key of grantKeys(denied.id)) await within(key, ENDED_GRANT_SECONDS);

  // Every grant of the identity has ended: its index expires with the latest of their end periods.
  await within(keys.accessGrantsOfIdentity(identity), ENDED_GRANT_SECONDS);
  expect((await h.store.indexMembers(keys.accessGrantsOfIdentity(identity))).sort()).toEqual([once.id, lasting.id, denied.id].sort());
});

test('a pending request read after its wait is expired, and from then kept the ended period', async () => {
  const owner = h.chain.accounts[3]!;
  const identity = await ownerIdentity(owner);
  const apiKey = (await h.signet.apiKeys.create('analytics')).key;
  const pending = await requestGrant(identity, 'immediate', apiKey);
  // Read after its wait: it is expired, and from then kept the ended period.
  h.clock.advance((h.config.challengeTtlSeconds + 1) * 1000);
  try {
    expect((await h.signet.accessGrants.current(pending.id)).status).toBe('expired');
  } finally {
    h.clock.advance(-(h.config.challengeTtlSeconds + 1) * 1000);
  }
  const left = await ttlOf(keys.accessGrant(pending.id));
  expect(left).toBeGreaterThanOrEqual(ENDED_GRANT_SECONDS - 2);
  expect(left).toBeLessThanOrEqual(ENDED_GRANT_SECONDS);
});

test("a claim's data is kept while it stands; revoked, or found removed by a fresh read, retention.endedClaimDays; found back, without end", async () => {
  const owner = h.chain.accounts[4]!;
  const identity = await ownerIdentity(owner);
  const kyc = await issueClaim(identity, 'kyc');
  const accredited = await issueClaim(identity, 'accredited');
  const kycKey = keys.claimRecord(identity, kyc.claim_id);
  const accreditedKey = keys.claimRecord(identity, accredited.claim_id);
  expect(kyc.added).toBe(true);
  expect(await ttlOf(kycKey)).toBe(Number.POSITIVE_INFINITY);
  expect((await h.signet.claims.release(identity, kyc.claim_id)).data).toEqual({ level: 'basic' });
  expect(await ttlOf(keys.claimRecordsOf(identity))).toBe(Number.POSITIVE_INFINITY);

  // Revoked through Signet.
  await api('POST', '/admin/claims/revocations', { admin: true, body: { identity, claim_id: accredited.claim_id } });
  expect(await ttlOf(accreditedKey)).toBeGreaterThanOrEqual(ENDED_CLAIM_SECONDS - 2);
  expect(await ttlOf(accreditedKey)).toBeLessThanOrEqual(ENDED_CLAIM_SECONDS);

  // Removed by its owner on the chain: the next fresh read starts the period, once.
  await send(h.chain.as(owner), { address: identity, abi: identityAbi, functionName: 'removeClaim', args: [kyc.claim_id] });
  await expect(h.signet.claims.release(identity, kyc.claim_id)).rejects.toMatchObject({ reason: 'claim_not_found' });
  const gone = JSON.parse((await h.store.get(kycKey))!) as ClaimRecord;
  expect(gone.gone_at).toEqual(expect.any(String));
  expect(await ttlOf(kycKey)).toBeGreaterThanOrEqual(ENDED_CLAIM_SECONDS - 2);
  expect(await ttlOf(kycKey)).toBeLessThanOrEqual(ENDED_CLAIM_SECONDS);
  // With no claim kept without end, the identity's index expires with its latest record.
  expect(await ttlOf(keys.claimRecordsOf(identity))).toBeLessThanOrEqual(ENDED_CLAIM_SECONDS);
  const records = createClaimRecords(h.store, { endedClaimSeconds: ENDED_CLAIM_SECONDS });
  expect((await records.listFor(identity)).map((record) => record.claim_id).sort()).toEqual([kyc.claim_id, accredited.claim_id].sort());

  // Put back by its owner: a read that finds it kept without end again.
  const { topic, signature, data, uri } = kyc.claim;
  await send(h.chain.as(owner), {
    address: identity,
    abi: identityAbi,
    functionName: 'addClaim',
    args: [BigInt(topic), 1n, h.chain.suite.claimIssuer, signature, data, uri],
  });
  expect((await h.signet.claims.release(identity, kyc.claim_id)).data).toEqual({ level: 'basic' });
  expect(await ttlOf(kycKey)).toBe(Number.POSITIVE_INFINITY);
  expect((JSON.parse((await h.store.get(kycKey))!) as ClaimRecord).gone_at).toBeUndefined();
  expect(await ttlOf(keys.claimRecordsOf(identity))).toBe(Number.POSITIVE_INFINITY);
});
