// The `signet` command line against a running Signet: issue and revoke a claim through the
// admin API, and the errors it prints.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address, Hex } from 'viem';
import { runCli } from '../../src/app/cli.js';
import { projectRoot } from '../../src/base/project_root.js';
import { claimIdOf } from '../../src/domain/claims/claim_reader.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

const ADMIN_TOKEN = 'admin-token-for-the-cli-tests-only';
let h: Harness;
let identity: Address;

beforeAll(async () => {
  h = await startSignet({
    configure: (chain) => ({
      claims: {
        topics: [{ name: 'kyc', topic: 1, description: 'KYC' }],
        trustedIssuers: [{ address: chain.suite.claimIssuer, topics: ['kyc'] }],
      },
      claimIssuer: { address: chain.suite.claimIssuer, key: DEPLOYER_KEY },
      adminToken: ADMIN_TOKEN,
    }),
  });
  const owner = h.chain.accounts[0]!;
  identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, h.chain.deployer.wallet.account.address, KeyPurpose.CLAIM);
}, 60_000);

afterAll(async () => {
  await h.close();
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('claims issue, then claims revoke', async () => {
  const issued = await cli(
    'claims',
    'issue',
    '--url',
    h.issuer,
    '--token',
    ADMIN_TOKEN,
    '--identity',
    identity,
    '--topic',
    'kyc',
    '--data',
    '{"level":"basic"}',
  );
  expect(issued.code).toBe(0);
  const result = JSON.parse(issued.out) as { claim_id: Hex; added: boolean };
  expect(result.claim_id).toBe(claimIdOf(h.chain.suite.claimIssuer, 1));
  expect(result.added).toBe(true);
  expect((await h.signet.claims.publicView(identity, result.claim_id, { fresh: true })).valid).toBe(true);

  const revoked = await cli('claims', 'revoke', '--url', h.issuer, '--token', ADMIN_TOKEN, '--identity', identity, '--claim-id', result.claim_id);
  expect(revoked.code).toBe(0);
  expect(JSON.parse(revoked.out)).toMatchObject({ claim_id: result.claim_id });
  expect((await h.signet.claims.publicView(identity, result.claim_id, { fresh: true })).status).toBe('not_confirmed_by_issuer');
});

test('claims issue with --verified-claims: the verified data goes in the claim, checked against the standard', async () => {
  const verified = { verification: { trust_framework: 'de_aml', time: '2026-01-15T10:00:00Z' }, claims: { given_name: 'Erika', birthdate: '1964-08-12' } };
  const base = ['claims', 'issue', '--url', h.issuer, '--token', ADMIN_TOKEN, '--identity', identity, '--topic', 'kyc', '--data', '{"level":"basic"}'];
  const issued = await cli(...base, '--verified-claims', JSON.stringify(verified));
  expect(issued.code).toBe(0);
  const { claim_id: claimId } = JSON.parse(issued.out) as { claim_id: Hex };
  expect((await h.signet.claims.release(identity, claimId)).data).toEqual({ level: 'basic', verified_claims: verified });

  const invalid = await cli(...base, '--verified-claims', JSON.stringify({ ...verified, claims: { birthdate: '15/01/1964' } }));
  expect(invalid).toEqual({
    code: 1,
    out: '',
    err: 'signet: 400 invalid_request: "data.verified_claims.claims.birthdate" must be a date as YYYY-MM-DD (OpenID Identity Assurance, verified_claims)',
  });
  const notJson = await cli(...base, '--verified-claims', '{');
  expect(notJson.code).toBe(2);
  expect(notJson.err.split('\n')[0]).toBe('signet: --verified-claims must be a JSON object: { "verification": {…}, "claims": {…} }');
});

test('errors: a missing flag, bad JSON, a refusal from Signet', async () => {
  expect(await cli('claims', 'issue', '--url', h.issuer)).toMatchObject({ code: 2, err: expect.stringMatching(/^signet: --token is required\nusage:/) });
  const badJson = await cli('claims', 'issue', '--url', h.issuer, '--token', 'x', '--identity', identity, '--topic', 'kyc', '--data', '{');
  expect(badJson.code).toBe(2);
  expect(badJson.err.split('\n')[0]).toBe('signet: --data must be a JSON object');
  const refused = await cli('claims', 'issue', '--url', h.issuer, '--token', 'wrong-token', '--identity', identity, '--topic', 'kyc', '--data', '{}');
  expect(refused).toEqual({ code: 1, out: '', err: 'signet: 401 invalid_token: the admin token is missing or wrong' });
  expect((await cli('frobnicate')).code).toBe(2);
});

test('--version prints the version package.json says; serve takes no arguments and names its usage', async () => {
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  expect(await cli('--version')).toEqual({ code: 0, out: version, err: '' });
  expect(await cli('version')).toEqual({ code: 0, out: version, err: '' });
  const extra = await cli('serve', '--port', '3000');
  expect(extra.code).toBe(2);
  expect(extra.err).toContain('signet: serve takes no arguments: Signet reads its settings from the environment');
  expect((await cli('serve', '--help')).out).toContain('signet serve\n      Starts Signet for production');
});
