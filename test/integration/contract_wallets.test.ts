// Who may sign a login: an EOA's signature is recovered locally, with no chain call; a
// contract wallet is asked on the chain, deployed (EIP-1271) or not yet (EIP-6492).
import { type Address, getAddress, type Hex } from 'viem';
import { SignetError } from '../../src/base/errors.js';
import { verifyWalletSignature } from '../../src/domain/wallet/verify_wallet_signature.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { KeyPurpose } from '../../src/infra/chain/contracts.js';
import { addKey } from '../../src/infra/local_chain/deploy_onchainid.js';
import { OUTAGE_ANSWER_MS } from '../support/bounds.js';
import { contractWalletInitCode, counterfactualWallet, saltOf, wrap6492 } from '../support/contract_wallet.js';
import { freePort } from '../support/free_port.js';
import { logIn, signChallenge, startLogin, submitSignature } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

let h: Harness;
let identity: Address;

const owner = () => h.chain.accounts[0]!;
/** The key that owns the contract wallets. */
const walletKey = () => h.chain.accounts[2]!;
const stranger = () => h.chain.accounts[5]!;

beforeAll(async () => {
  h = await startSignet();
  identity = await h.chain.createIdentityFor(owner().address);
});

afterAll(async () => {
  await h.close();
});

async function deployContractWallet(): Promise<Address> {
  const hash = await h.chain.deployer.wallet.sendTransaction({
    data: contractWalletInitCode(walletKey().address),
    account: h.chain.deployer.wallet.account,
    chain: h.chain.deployer.wallet.chain,
  });
  const { contractAddress } = await h.chain.client.waitForTransactionReceipt({ hash });
  const wallet = getAddress(contractAddress!);
  await addKey(h.chain.as(owner()), identity, wallet, KeyPurpose.ACTION);
  return wallet;
}

describe('EIP-1271: a deployed contract wallet', () => {
  let wallet: Address;
  beforeAll(async () => {
    wallet = await deployContractWallet();
  });

  test('signs in with a signature its owner key made', async () => {
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
    const signing = { address: wallet, signMessage: walletKey().signMessage } as unknown as Parameters<typeof logIn>[1];
    const { tokens } = await logIn(login, signing, { identity });
    expect(tokens.claims()!.sub).toBe(`eip155:31337:${identity}`);
  });

  test('is refused a signature another key made', async () => {
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
    const signing = { address: wallet, signMessage: stranger().signMessage } as unknown as Parameters<typeof logIn>[1];
    const { message, signature } = await signChallenge(login, signing, { identity });
    const answer = await submitSignature(login, { signature, message });
    expect(answer).toMatchObject({ status: 422, json: { error: 'invalid_signature', reason: 'signature_invalid' } });
  });
});

describe('EIP-6492: a contract wallet not deployed yet', () => {
  test('signs in with a wrapped signature, and checking it deploys nothing', async () => {
    const { address: wallet, deployData } = counterfactualWallet(walletKey().address, saltOf(6492));
    await addKey(h.chain.as(owner()), identity, wallet, KeyPurpose.ACTION);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
    const signing = {
      address: wallet,
      signMessage: async (args: { message: string }) => wrap6492(deployData, await walletKey().signMessage(args)),
    } as unknown as Parameters<typeof logIn>[1];
    const { tokens } = await logIn(login, signing, { identity });
    expect(tokens.claims()!.sub).toBe(`eip155:31337:${identity}`);
    expect(await h.chain.client.getCode({ address: wallet })).toBeUndefined();
  });

  test('is refused when the wrapped signature is another key’s', async () => {
    const { address: wallet, deployData } = counterfactualWallet(walletKey().address, saltOf(6493));
    await addKey(h.chain.as(owner()), identity, wallet, KeyPurpose.ACTION);
    const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
    const signing = {
      address: wallet,
      signMessage: async (args: { message: string }) => wrap6492(deployData, await stranger().signMessage(args)),
    } as unknown as Parameters<typeof logIn>[1];
    const { message, signature } = await signChallenge(login, signing, { identity });
    const answer = await submitSignature(login, { signature, message });
    expect(answer.status).toBe(422);
    expect((answer.json as { reason: string }).reason).toBe('signature_invalid');
  });
});

describe('an EOA signature never asks the chain', () => {
  // A client whose every RPC call fails at once: nothing listens on its port.
  const unreachable = async () => createChainClient(`http://127.0.0.1:${await freePort()}`, 31337, { callTimeoutMs: 1000 });
  const message = 'signet.example wants you to sign in';

  test('the wallet’s own signature is accepted with the chain unreachable', async () => {
    const signature = await owner().signMessage({ message });
    await expect(verifyWalletSignature(await unreachable(), owner().address, message, signature)).resolves.toBe(true);
  });

  test('another key’s signature needs the chain (is there a contract?): unreachable, it is a 503, never a "no"', async () => {
    const signature: Hex = await stranger().signMessage({ message });
    const started = Date.now();
    const refused = await verifyWalletSignature(await unreachable(), owner().address, message, signature).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SignetError);
    expect((refused as SignetError).status).toBe(503);
    expect((refused as SignetError).reason).toBe('chain_unavailable');
    expect(Date.now() - started).toBeLessThan(OUTAGE_ANSWER_MS);
  });

  test('against the chain, another key’s signature over an EOA is a plain "no"', async () => {
    const signature = await stranger().signMessage({ message });
    await expect(verifyWalletSignature(h.chain.client, owner().address, message, signature)).resolves.toBe(false);
  });
});
