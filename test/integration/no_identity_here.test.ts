// One answer for "no identity here", on real Redis and two real anvils: every route under
// /identities/:identity answers 404 identity_not_found for an address that is no identity of
// that chain's IdFactory (a plain address, a contract that is not an identity, an identity of
// the other chain only), anonymous or with a credential that covers nothing there; an identity
// with an empty profile is still 200; a stored profile needs no chain read, and a claim read
// no more than it made before; a chain that does not answer is 503 chain_unavailable, never 404.
import { randomBytes } from 'node:crypto';
import type { Address, Hex, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Reason } from '../../src/base/reasons.js';
import { createProfileStore } from '../../src/domain/profile/profile.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { identityKeyOf } from '../../src/infra/chain/identity_key.js';
import { chainRequestCounter } from '../support/chain_requests.js';
import { jsonApi } from '../support/json_api.js';
import { logIn, startLogin } from '../support/login_driver.js';
import { ANALYTICS, type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';
import type { TestChain } from '../support/test_chain.js';

const FIRST = 31337;
const SECOND = 31338;

let h: Harness;
const api = jsonApi(() => h.issuer);
const chainRequests = chainRequestCounter([FIRST, SECOND]);
/** The answer of `work` and the round trips it made on each chain. */
const withRoundTrips = chainRequests.during;

/** What one chain holds for the tests: its path prefix, a plain address, a contract that is no identity, two identities. */
type Place = {
  chainId: number;
  chain: TestChain;
  /** How a path names an address of this chain. */
  named: (address: Address) => string;
  plain: Address;
  contract: Address;
  /** An identity whose owner saved a profile. */
  withProfile: Address;
  /** An identity with no stored profile. */
  bare: Address;
  owner: LocalAccount;
};
const places: Place[] = [];
let analyticsKey: string;
/** A grant token of the first chain's withProfile profile, and a login's access token of it. */
let grantToken: string;
let loginToken: string;

const randomId = (): Hex => `0x${randomBytes(32).toString('hex')}`;
const notFound = (reason: Reason) => ({ status: 404, json: { error: 'not_found', error_description: expect.any(String), reason } });
const refused = (status: number, reason: Reason) => ({ status, json: expect.objectContaining({ reason }) });

beforeAll(async () => {
  h = await startSignet({
    otherChains: [SECOND],
    chainProxy: true,
    clients: [WEBSITE, ANALYTICS],
    chainClient: (chain, rpcUrl) =>
      createChainClient(rpcUrl, chain.anvil.chainId, { pollingInterval: 50, observe: chainRequests.observe(chain.anvil.chainId) }),
  });
  analyticsKey = (await h.signet.apiKeys.create('analytics', 'tests')).key;
  const second = h.otherChains[0]!;
  for (const [chain, chainId, [owner, other]] of [
    [h.chain, FIRST, [h.chain.accounts[0]!, h.chain.accounts[1]!]],
    [second, SECOND, [h.chain.accounts[2]!, h.chain.accounts[3]!]],
  ] as const) {
    const withProfile = await chain.createIdentityFor(owner.address);
    const bare = await chain.createIdentityFor(other.address);
    const onOther = chainId === FIRST ? undefined : chainId;
    await createProfileStore(h.store, (identity) => identityKeyOf(identity, onOther)).set(withProfile, { given_name: `Ada of ${chainId}` });
    places.push({
      chainId,
      chain,
      named: (address) => (chainId === FIRST ? address : `eip155:${chainId}:${address}`),
      plain: privateKeyToAccount(generatePrivateKey()).address,
      // The chain's IdFactory: code, but no ERC-735 reads and not one of its own identities.
      contract: chain.suite.identityFactory,
      withProfile,
      bare,
      owner,
    });
  }
  const [first] = places;
  // A persistent grant of the first chain's withProfile profile, and a login that kept it.
  const request = await api('POST', `/identities/${first!.withProfile}/profile/access-requests`, { key: analyticsKey, body: { kind: 'persistent' } });
  expect(request.status).toBe(201);
  const validated = await api('POST', `/access-grants/${request.json.id}/validations`, {
    body: { signature: await first!.owner.signMessage({ message: request.json.challenge }) },
  });
  expect(validated.status).toBe(200);
  grantToken = validated.json.access_token;
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid profile' });
  loginToken = (await logIn(login, first!.owner)).tokens.access_token;
}, 120_000);

afterAll(async () => {
  await h.close();
});

describe.each([FIRST, SECOND])('on chain %i', (chainId) => {
  const place = () => places.find((each) => each.chainId === chainId)!;
  const notIdentities = () => {
    const { plain, contract, named } = place();
    const otherChains = places.filter((each) => each.chainId !== chainId);
    // An identity of the other chain, named on this one: the same address is nothing here.
    return [
      ['a plain address', named(plain)],
      ['a contract that is not an identity', named(contract)],
      ["the other chain's identity", named(otherChains[0]!.withProfile)],
    ] as const;
  };

  test('the public profile: 404 identity_not_found for each address that is no identity; an identity is 200, empty or not', async () => {
    const { named, withProfile, bare } = place();
    for (const [, at] of notIdentities()) {
      expect(await api('GET', `/identities/${at}/profile`)).toEqual(expect.objectContaining(notFound('identity_not_found')));
    }
    expect(await api('GET', `/identities/${named(bare)}/profile`)).toMatchObject({ status: 200, json: { identity: bare, fields: [] } });
    expect(await api('GET', `/identities/${named(withProfile)}/profile`)).toMatchObject({
      status: 200,
      json: { identity: withProfile, fields: ['given_name'] },
    });
  });

  test('a claim: 404 identity_not_found for each address that is no identity; an identity without the claim is claim_not_found', async () => {
    const { named, bare } = place();
    for (const [, at] of notIdentities()) {
      expect(await api('GET', `/identities/${at}/claims/${randomId()}`)).toEqual(expect.objectContaining(notFound('identity_not_found')));
    }
    expect(await api('GET', `/identities/${named(bare)}/claims/${randomId()}`)).toEqual(expect.objectContaining(notFound('claim_not_found')));
  });

  test('access requests: 404 identity_not_found for each address that is no identity, as before', async () => {
    const { named, bare } = place();
    for (const [, at] of notIdentities()) {
      for (const path of [`/identities/${at}/profile/access-requests`, `/identities/${at}/claims/${randomId()}/access-requests`]) {
        expect(await api('POST', path, { key: analyticsKey, body: { kind: 'persistent' } })).toEqual(expect.objectContaining(notFound('identity_not_found')));
      }
    }
    // An identity's own refusals: nothing to share, no such claim.
    expect(await api('POST', `/identities/${named(bare)}/profile/access-requests`, { key: analyticsKey, body: { kind: 'persistent' } })).toMatchObject(
      refused(404, 'resource_empty'),
    );
    expect(
      await api('POST', `/identities/${named(bare)}/claims/${randomId()}/access-requests`, { key: analyticsKey, body: { kind: 'persistent' } }),
    ).toMatchObject(refused(404, 'claim_not_found'));
  });

  test('with a credential that covers nothing there: 404 identity_not_found at no identity, the credential’s refusal at an identity', async () => {
    const { named, bare } = place();
    const credentials = [
      ['a grant token', { token: grantToken }, 'token_scope_insufficient'],
      ["a login's access token", { token: loginToken }, 'token_scope_insufficient'],
      ['an API key', { key: analyticsKey }, 'grant_missing'],
    ] as const;
    for (const [, credential, coverage] of credentials) {
      for (const [, at] of notIdentities()) {
        expect(await api('GET', `/identities/${at}/profile`, credential)).toEqual(expect.objectContaining(notFound('identity_not_found')));
        expect(await api('GET', `/identities/${at}/claims/${randomId()}`, credential)).toEqual(expect.objectContaining(notFound('identity_not_found')));
      }
      expect(await api('GET', `/identities/${named(bare)}/profile`, credential)).toMatchObject(refused(403, coverage));
      expect(await api('GET', `/identities/${named(bare)}/claims/${randomId()}`, credential)).toMatchObject(refused(403, coverage));
    }
    // A credential that is not valid is refused for itself, wherever it is sent.
    expect(await api('GET', `/identities/${notIdentities()[0][1]}/profile`, { token: 'not-a-real-token' })).toMatchObject(refused(401, 'token_invalid'));
  });

  test('round trips: a stored profile reads no chain; no stored profile, one; a claim read, one as before', async () => {
    const { named, withProfile, bare, plain } = place();
    const none = { [FIRST]: 0, [SECOND]: 0 };
    const one = { ...none, [chainId]: 1 };
    expect((await withRoundTrips(() => api('GET', `/identities/${named(withProfile)}/profile`))).trips).toEqual(none);
    expect((await withRoundTrips(() => api('GET', `/identities/${named(bare)}/profile`))).trips).toEqual(one);
    expect((await withRoundTrips(() => api('GET', `/identities/${named(plain)}/profile`))).trips).toEqual(one);
    expect((await withRoundTrips(() => api('GET', `/identities/${named(plain)}/claims/${randomId()}`))).trips).toEqual(one);
    expect((await withRoundTrips(() => api('GET', `/identities/${named(bare)}/claims/${randomId()}`))).trips).toEqual(one);
  });
});

test("a credential's own read reads no chain: the grant token and the login token of a stored profile", async () => {
  const { withProfile } = places[0]!;
  for (const token of [grantToken, loginToken]) {
    const { answer, trips } = await withRoundTrips(() => api('GET', `/identities/${withProfile}/profile`, { token }));
    expect(answer).toMatchObject({ status: 200, json: { identity: withProfile, fields: ['given_name'], values: { given_name: `Ada of ${FIRST}` } } });
    expect(trips).toEqual({ [FIRST]: 0, [SECOND]: 0 });
  }
});

test('the first chain down: 503 chain_unavailable wherever the chain must answer, never 404; a stored profile and the other chain still answer', async () => {
  const [first, second] = places as [Place, Place];
  await h.chainProxy!.set('refuse');
  try {
    const unavailable = { status: 503, json: { error: 'temporarily_unavailable', error_description: expect.any(String), reason: 'chain_unavailable' } };
    for (const at of [first.plain, first.contract, first.bare]) {
      expect(await api('GET', `/identities/${at}/profile`)).toEqual(expect.objectContaining(unavailable));
      expect(await api('GET', `/identities/${at}/claims/${randomId()}`)).toEqual(expect.objectContaining(unavailable));
      expect(await api('GET', `/identities/${at}/profile`, { token: grantToken })).toEqual(expect.objectContaining(unavailable));
      expect(await api('GET', `/identities/${at}/profile`, { key: analyticsKey })).toEqual(expect.objectContaining(unavailable));
      expect(await api('POST', `/identities/${at}/profile/access-requests`, { key: analyticsKey, body: { kind: 'persistent' } })).toEqual(
        expect.objectContaining(unavailable),
      );
    }
    // Redis alone tells a stored profile's identity; the grant's own read needs no chain either.
    expect(await api('GET', `/identities/${first.withProfile}/profile`)).toMatchObject({ status: 200, json: { fields: ['given_name'] } });
    expect(await api('GET', `/identities/${first.withProfile}/profile`, { token: grantToken })).toMatchObject({ status: 200 });
    // The other chain answers as ever.
    expect(await api('GET', `/identities/${second.named(second.plain)}/profile`)).toEqual(expect.objectContaining(notFound('identity_not_found')));
  } finally {
    await h.chainProxy!.set('pass');
  }
  expect(await api('GET', `/identities/${first.plain}/profile`)).toEqual(expect.objectContaining(notFound('identity_not_found')));
});
