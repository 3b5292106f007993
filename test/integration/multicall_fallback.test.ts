// Chains without Multicall3 at its canonical address (a fresh anvil, some private chains):
// the batched identity checks still read in one round trip and a whole login completes.
import { getAddress } from 'viem';
import { MULTICALL3_ADDRESS } from '../../src/infra/chain/multicall3.js';
import { logIn, requestChallenge, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startSignet();
  // The test chain gets Multicall3 at start; take it away again.
  await h.chain.client.request({ method: 'anvil_setCode' as never, params: [MULTICALL3_ADDRESS, '0x'] as never });
});

afterAll(async () => {
  await h.close();
});

test('without Multicall3 onchain, a login with a given identity completes', async () => {
  expect(await h.chain.client.getCode({ address: MULTICALL3_ADDRESS })).toBeUndefined();
  const owner = h.chain.accounts[0]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { tokens } = await logIn(login, owner, { identity });
  expect(tokens.claims()?.sub).toBe(`eip155:${h.chain.anvil.chainId}:${getAddress(identity)}`);
});

test('without Multicall3 onchain, an unlinked wallet is still refused as unlinked', async () => {
  const [owner, stranger] = [h.chain.accounts[1]!, h.chain.accounts[2]!];
  const identity = await h.chain.createIdentityFor(owner.address);
  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const answer = await requestChallenge(login, { address: stranger.address, identity });
  expect(answer.status).toBe(403);
  expect(answer.json).toMatchObject({ error: 'access_denied' });
});
