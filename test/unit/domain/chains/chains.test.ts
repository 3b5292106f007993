// Every chain built once with all its parts, each part on its own chain: its profiles and claim
// records keyed as that chain names its identities, Signet's issuer at that chain's address, and
// the one-chain shorthand built as the same one-entry list as CHAINS.
import { type Address, createPublicClient, getAddress, http } from 'viem';
import { loadConfig } from '../../../../src/config/load.js';
import { createDisplayNames } from '../../../../src/domain/claims/display_names.js';
import { createChains } from '../../../../src/domain/chains/chains.js';
import { keys } from '../../../../src/infra/store/keys.js';
import { createMemoryStore } from '../../../../src/infra/store/memory_store.js';

const IDENTITY: Address = '0x00000000000000000000000000000000000000d1';
const FACTORY: Address = '0x00000000000000000000000000000000000000f1';
const ISSUER_DEFAULT: Address = '0x00000000000000000000000000000000000000a1';
const ISSUER_OWN: Address = '0x00000000000000000000000000000000000000a2';
const KEY = `0x${'11'.repeat(32)}`;
// Never called: building a chain asks nothing of it.
const client = createPublicClient({ transport: http('http://127.0.0.1:9') });

const build = (env: Record<string, string>) => {
  const config = loadConfig({ SIGNET_ISSUER_KEY: KEY, SIGNET_ISSUER_ADDRESS: ISSUER_DEFAULT, ...env });
  const store = createMemoryStore();
  const chains = createChains(
    config.chains.map((settings) => ({ settings, client })),
    { config, store, names: createDisplayNames(config), now: Date.now },
  );
  return { config, store, chains };
};

test('the one-chain shorthand is built as a one-entry list: the default chain, its identities by bare address', async () => {
  const { config, store, chains } = build({ CHAIN_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ID: '31337', IDENTITY_FACTORY: FACTORY });
  expect(config.chains).toEqual([{ chain_id: 31337, name: 'chain 31337', rpc_url: 'http://127.0.0.1:8545', identity_factory: FACTORY }]);
  const [only] = chains.all;
  expect(chains.several).toBe(false);
  expect(only!.settings).toBe(config.chains[0]);
  await only!.profiles.set(IDENTITY, { given_name: 'Ada' });
  expect(await store.get(keys.profile(IDENTITY))).toContain('Ada');
  expect(only!.issuer).toBeDefined();
});

test("each chain's parts are its own: profiles keyed by its naming, Signet's issuer at its address", async () => {
  const { store, chains } = build({
    CHAINS: JSON.stringify([
      { chain_id: 8453, name: 'Base', rpc_url: 'http://127.0.0.1:8545', identity_factory: FACTORY },
      { chain_id: 137, name: 'Polygon', rpc_url: 'http://127.0.0.1:8546', identity_factory: FACTORY, claim_issuer: ISSUER_OWN },
    ]),
  });
  const base = chains.named(undefined);
  const polygon = chains.named(137);
  expect([base.name, polygon.name]).toEqual(['Base', 'Polygon']);
  await polygon.profiles.set(IDENTITY, { given_name: 'Grace' });
  // The same address on the default chain is another identity: nothing of Polygon's shows there.
  expect(await base.profiles.find(IDENTITY)).toBeUndefined();
  expect(await store.get(keys.profile(`eip155:137:${IDENTITY}`))).toContain('Grace');
  expect(base.issuer!.address).toBe(getAddress(ISSUER_DEFAULT));
  expect(polygon.issuer!.address).toBe(getAddress(ISSUER_OWN));
  expect(polygon.topics).not.toBe(base.topics);
});
