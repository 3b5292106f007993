// A pending identity deployment lives in Redis, not in the process that sent it: the process
// is dropped before the transaction is mined, and another one, on the same Redis and chain,
// reports the deployed identity once the block is there.
import { createServer } from 'node:http';
import { createTestClient, http } from 'viem';
import { createApp } from '../../src/app/app.js';
import { createWebhookQueueFor } from '../../src/app/webhook_queue_for.js';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { DEPLOYER_KEY } from '../../src/infra/local_chain/anvil_accounts.js';
import { keys } from '../../src/infra/store/keys.js';
import { createRedisStore } from '../../src/infra/store/redis_store.js';
import { signInToAccount } from '../support/account_sign_in.js';
import { type Harness, startSignet } from '../support/signet_harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startSignet({ configure: () => ({ identityDeployerKey: DEPLOYER_KEY }) });
}, 60_000);

afterAll(async () => {
  await h.close();
});

/** A second Signet process on the harness's Redis and chain, with its own connections. */
async function startSecondProcess() {
  const store = createRedisStore(h.redis.url);
  const webhooks = createWebhookQueueFor(h.config, store, {});
  const { anvil, suite } = h.chain;
  const signet = createApp({
    config: h.config,
    store,
    chain: {
      settings: { chain_id: anvil.chainId, name: `chain ${anvil.chainId}`, rpc_url: anvil.rpcUrl, identity_factory: suite.identityFactory },
      client: createChainClient(anvil.rpcUrl, anvil.chainId, { pollingInterval: 50 }),
    },
    webhooks,
  });
  const server = createServer(signet.app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async drop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await webhooks.close();
      await store.close();
    },
  };
}

test('a deployment sent by a process that is then dropped is finished by another process', async () => {
  const wallet = h.chain.accounts[7]!;
  const { agent } = await signInToAccount(h.issuer, wallet);
  const anvil = createTestClient({ mode: 'anvil', transport: http(h.chain.anvil.rpcUrl) });
  const first = await startSecondProcess();
  // Blocks are mined only when the test says so: the first process cannot see a receipt.
  await anvil.setAutomine(false);
  try {
    const started = await agent.postJson(`${first.url}/account/identity`, {});
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ status: 'pending', wallet: wallet.address, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    await first.drop();

    // Not mined yet: the chain answered "no receipt", so pending is the truth.
    expect(await agent.getJson(`${h.issuer}/account/identity`)).toMatchObject({
      status: 200,
      json: { status: 'pending', transaction: started.json.transaction },
    });

    await anvil.mine({ blocks: 1 });
    const identity = await h.chain.factoryIdentityOf(wallet.address);
    expect(identity).not.toBe('0x0000000000000000000000000000000000000000');
    expect(await agent.getJson(`${h.issuer}/account/identity`)).toEqual({
      status: 200,
      json: { wallet: wallet.address, status: 'deployed', transaction: started.json.transaction, identity, started_at: started.json.started_at },
    });
    // The record in Redis is finished too, and the session now acts for the identity.
    expect(JSON.parse((await h.store.get(keys.identityCreation(wallet.address)))!)).toMatchObject({ status: 'deployed', identity });
    expect(await agent.postJson(`${h.issuer}/account/identity`, {})).toMatchObject({
      status: 400,
      json: { error: 'invalid_request', reason: 'identity_exists' },
    });
  } finally {
    await anvil.setAutomine(true);
  }
}, 30_000);
