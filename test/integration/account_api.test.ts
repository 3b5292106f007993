// The account API behind the pages: identity creation (idempotent, rate-limited per address),
// the transactions prepared for the owner's wallet, and their refusals.
import { encodeFunctionData, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { identityAbi, KeyPurpose, KeyType, keyOf } from '../../src/infra/chain/contracts.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { keys } from '../../src/infra/store/keys.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type Harness, startSignet } from '../support/signet_harness.js';
import { UserAgent } from '../support/user_agent.js';
import { waitFor } from '../support/wait_until.js';

let h: Harness;

beforeAll(async () => {
  h = await startSignet({ configure: () => ({ identityDeployerKey: DEPLOYER_KEY }) });
}, 60_000);

afterAll(async () => {
  await h.close();
});

const signIn = (wallet: LocalAccount) => signInToAccount(h.issuer, wallet);

function waitDeployed(agent: UserAgent) {
  return waitFor('the identity was deployed', async () => {
    const status = await agent.getJson(`${h.issuer}/account/identity`);
    return status.json.status !== 'pending' && status;
  });
}

test('a wallet without identity signs in, creates one once, and a second click changes nothing', async () => {
  const fresh = privateKeyToAccount(generatePrivateKey());
  const { agent, challenge, session } = await signIn(fresh);
  expect(challenge.identity).toBeNull();
  expect(challenge.challenge).toContain('Sign in to Signet with your wallet to create your onchain identity.');
  expect(session).toEqual({ identity: null, wallet: fresh.address, created_at: expect.any(String), csrf_token: expect.any(String) });
  const inbox = await agent.getJson(`${h.issuer}/account/inbox`);
  expect(inbox).toMatchObject({ status: 404, json: { error: 'not_found', reason: 'wallet_without_identity', previous_reason: 'identity_missing' } });

  const started = await agent.postJson(`${h.issuer}/account/identity`, {});
  expect([200, 202]).toContain(started.status);
  expect(started.json).toMatchObject({ wallet: fresh.address, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  const again = await agent.postJson(`${h.issuer}/account/identity`, {});
  expect(again.json.transaction).toBe(started.json.transaction);

  const deployed = await waitDeployed(agent);
  const identity = await h.chain.factoryIdentityOf(fresh.address);
  expect(deployed.json).toMatchObject({ status: 'deployed', identity, wallet: fresh.address });
  // The wallet holds the MANAGEMENT key of its new identity.
  const purposes = (await h.chain.client.readContract({
    address: identity,
    abi: identityAbi,
    functionName: 'getKeyPurposes',
    args: [keyOf(fresh.address)],
  })) as bigint[];
  expect(purposes).toEqual([KeyPurpose.MANAGEMENT]);
  // The session now acts for the identity; creating again is refused.
  expect((await agent.getJson(`${h.issuer}/account/inbox`)).status).toBe(200);
  expect(await agent.postJson(`${h.issuer}/account/identity`, {})).toMatchObject({
    status: 400,
    json: { error: 'invalid_request', reason: 'identity_exists' },
  });
});

test('at most 5 identities an hour from one address (the default)', async () => {
  expect(h.config.rateLimits.identityCreationsPerAddress).toEqual({ points: 5, seconds: 3600 });
  // The first test already created one from this address.
  for (let i = 1; i < 5; i++) {
    const { agent } = await signIn(privateKeyToAccount(generatePrivateKey()));
    expect([200, 202]).toContain((await agent.postJson(`${h.issuer}/account/identity`, {})).status);
  }
  const { agent } = await signIn(privateKeyToAccount(generatePrivateKey()));
  const refused = await agent.postJson(`${h.issuer}/account/identity`, {});
  expect(refused.status).toBe(429);
  expect(refused.json).toEqual({
    error: 'rate_limited',
    error_description: expect.stringMatching(/^at most 5 identities created from one address every 3600 s; try again in \d+ s$/),
    reason: 'rate_limited',
  });
  expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(3500);
});

test('wallet changes are prepared for the owner to send, and the last MANAGEMENT key stays', async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const { agent } = await signIn(owner);
  const other = h.chain.accounts[1]!.address;

  const add = await agent.postJson(`${h.issuer}/account/wallets/transactions`, { address: other, purpose: 'action', action: 'add' });
  expect(add.json).toEqual({
    to: identity,
    data: encodeFunctionData({ abi: identityAbi, functionName: 'addKey', args: [keyOf(other), KeyPurpose.ACTION, KeyType.ECDSA] }),
    description: `Add ${other} as a ACTION key`,
  });
  const hash = await h.chain
    .as(owner)
    .wallet.sendTransaction({ to: add.json.to as Hex, data: add.json.data as Hex, account: owner, chain: h.chain.deployer.wallet.chain });
  await h.chain.client.waitForTransactionReceipt({ hash });
  expect(await agent.getJson(`${h.issuer}/account/transactions/${hash}`)).toEqual({ status: 200, json: { hash, status: 'confirmed' } });

  expect(await agent.postJson(`${h.issuer}/account/wallets/transactions`, { address: other, purpose: 'action', action: 'add' })).toMatchObject({
    status: 409,
    json: { error: 'conflict', reason: 'key_already_held' },
  });
  expect(await agent.postJson(`${h.issuer}/account/wallets/transactions`, { address: owner.address, purpose: 'management', action: 'remove' })).toMatchObject({
    status: 409,
    json: { error: 'conflict', reason: 'last_management_key' },
  });
  expect(await agent.postJson(`${h.issuer}/account/wallets/transactions`, { address: other, purpose: 'management', action: 'remove' })).toMatchObject({
    status: 404,
    json: { error: 'not_found', reason: 'key_not_held' },
  });
  expect(await agent.postJson(`${h.issuer}/account/wallets/transactions`, { address: other, purpose: 'owner', action: 'add' })).toMatchObject({
    status: 400,
    json: { error: 'invalid_request', error_description: '"purpose" must be "management" or "action"', reason: 'invalid_body' },
  });
});

test('a wallet with an ACTION key signs in to the identity it names', async () => {
  const owner = h.chain.accounts[3]!;
  const actor = h.chain.accounts[4]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  await addKey(h.chain.as(owner), identity, actor.address, KeyPurpose.ACTION);
  const agent = new UserAgent();
  const challenge = await agent.postJson(`${h.issuer}/account/challenge`, { address: actor.address, identity });
  expect(challenge.json.identity).toBe(identity);
  const message = challenge.json.challenge as string;
  const session = await agent.postJson(`${h.issuer}/account/session`, { signature: await actor.signMessage({ message }), message });
  expect(session.json).toEqual({ identity, wallet: actor.address, created_at: expect.any(String), csrf_token: expect.any(String) });
});

test('claim changes: an unknown claim and a claim its issuer does not confirm are refused', async () => {
  const owner = h.chain.accounts[2]!;
  await h.chain.createIdentityFor(owner.address);
  const { agent } = await signIn(owner);
  const missing = `0x${'ab'.repeat(32)}`;
  expect(await agent.postJson(`${h.issuer}/account/claims/transactions`, { action: 'remove', claim_id: missing })).toMatchObject({
    status: 404,
    json: { error: 'not_found', reason: 'claim_not_found' },
  });
  const issuer = h.chain.suite.claimIssuer;
  const forged = { topic: 1, scheme: 1, issuer, signature: `0x${'11'.repeat(65)}`, data: `0x${'22'.repeat(32)}`, uri: '' };
  expect(await agent.postJson(`${h.issuer}/account/claims/transactions`, { action: 'add', claim: forged })).toMatchObject({
    status: 403,
    json: { error: 'access_denied', reason: 'claim_not_confirmed', previous_reason: 'claim_unconfirmed_by_issuer' },
  });
});

test('a wallet with no identity and no creation under way reads 404 wallet_without_identity (previously identity_not_created)', async () => {
  const { agent } = await signIn(privateKeyToAccount(generatePrivateKey()));
  expect(await agent.getJson(`${h.issuer}/account/identity`)).toMatchObject({
    status: 404,
    json: { error: 'not_found', reason: 'wallet_without_identity', previous_reason: 'identity_not_created' },
  });
});

test('a creation already under way elsewhere (its lock held, no record yet) is 409 identity_creation_in_progress, and nothing is sent', async () => {
  const fresh = privateKeyToAccount(generatePrivateKey());
  const { agent } = await signIn(fresh);
  expect(await h.store.setIfAbsent(keys.identityCreationLock(fresh.address), '1', 60)).toBe(true);
  expect(await agent.postJson(`${h.issuer}/account/identity`, {})).toMatchObject({
    status: 409,
    json: { error: 'conflict', reason: 'identity_creation_in_progress' },
  });
  expect(await h.store.get(keys.identityCreation(fresh.address))).toBeUndefined();
  expect(await h.chain.factoryIdentityOf(fresh.address)).toBe('0x0000000000000000000000000000000000000000');
});

test('a transaction hash that is not 32 bytes of hex is 400 invalid_path', async () => {
  const { agent } = await signIn(h.chain.accounts[2]!);
  expect(await agent.getJson(`${h.issuer}/account/transactions/0x1234`)).toMatchObject({
    status: 400,
    json: { error: 'invalid_request', reason: 'invalid_path' },
  });
});
