// CHAINS: several chains behind one issuer, validated at start with messages naming the entry;
// the one-chain shorthand stays; trusted issuers name their chain when there are several.

import { loadConfig } from '../../../../src/config/config.js';
import { chainEndpointsOf } from '../../../../src/infra/chain/chains.js';
import { configRefusal } from '../../../support/config_refusal.js';

const FACTORY = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const ISSUER = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const TOPICS = JSON.stringify([
  { name: 'kyc', topic: 1, description: 'KYC' },
  { name: 'accredited', topic: 7, description: 'Accredited' },
]);

const chain = (chain_id: number, extra: Record<string, unknown> = {}) => ({
  chain_id,
  name: `Chain ${chain_id}`,
  rpc_url: `http://127.0.0.1:${8000 + (chain_id % 1000)}`,
  identity_factory: FACTORY,
  ...extra,
});
const withChains = (chains: unknown, env: Record<string, string> = {}) => ({ CHAINS: JSON.stringify(chains), ...env });

const refusal = configRefusal;

test('CHAINS lists the chains in order; the shorthand gives one; neither (the demo) none', () => {
  const config = loadConfig(withChains([chain(1), chain(137, { claim_issuer: ISSUER.toLowerCase() })]));
  const one = (url: string) => [{ url, label: new URL(url).host }];
  expect(config.chains).toEqual([
    { chain_id: 1, name: 'Chain 1', rpc_url: 'http://127.0.0.1:8001', identity_factory: FACTORY },
    { chain_id: 137, name: 'Chain 137', rpc_url: 'http://127.0.0.1:8137', identity_factory: FACTORY, claim_issuer: ISSUER },
  ]);
  expect(config.chains.map(chainEndpointsOf)).toEqual([one('http://127.0.0.1:8001'), one('http://127.0.0.1:8137')]);
  const shorthand = loadConfig({ CHAIN_RPC_URL: 'http://127.0.0.1:8545', CHAIN_ID: '31337', IDENTITY_FACTORY: FACTORY });
  expect(shorthand.chains).toEqual([{ chain_id: 31337, name: 'chain 31337', rpc_url: 'http://127.0.0.1:8545', identity_factory: FACTORY }]);
  expect(shorthand.chains.map(chainEndpointsOf)).toEqual([one('http://127.0.0.1:8545')]);
  expect(loadConfig({}).chains).toEqual([]);
});

test('a bad entry is refused, naming the entry', () => {
  expect(refusal(withChains([chain(1), chain(2, { rpc_url: 'nope' })]))).toMatch(/chains\.1\.rpc_url.*absolute URL/);
  expect(refusal(withChains([chain(1), chain(2, { identity_factory: '0x12' })]))).toMatch(/chains\.1\.identity_factory/);
  expect(refusal(withChains([chain(1), { ...chain(2), name: '' }]))).toMatch(/chains\.1\.name/);
  expect(refusal(withChains([chain(1), chain(1)]))).toMatch(/chains\.1\.chain_id.*listed twice/);
  expect(refusal(withChains([]))).toMatch(/CHAINS.*at least one chain/);
  expect(refusal({ CHAINS: '{' })).toMatch(/CHAINS.*JSON/);
});

test('CHAINS with the one-chain shorthand is refused', () => {
  expect(refusal(withChains([chain(1)], { CHAIN_RPC_URL: 'http://127.0.0.1:8545' }))).toMatch(/CHAINS.*cannot be set with CHAIN_RPC_URL/);
  expect(refusal(withChains([chain(1)], { IDENTITY_FACTORY: FACTORY }))).toMatch(/CHAINS.*cannot be set with IDENTITY_FACTORY/);
});

test('with several chains a trusted issuer names its chain, one of those configured', () => {
  const trusted = (entries: unknown[]) => ({ CLAIM_TOPICS: TOPICS, TRUSTED_ISSUERS: JSON.stringify(entries) });
  expect(refusal(withChains([chain(1), chain(137)], trusted([{ address: ISSUER, topics: ['kyc'] }])))).toMatch(
    /claims\.trustedIssuers\.0\.chain_id.*required when several chains/,
  );
  expect(refusal(withChains([chain(1), chain(137)], trusted([{ address: ISSUER, topics: ['kyc'], chain_id: 10 }])))).toMatch(
    /claims\.trustedIssuers\.0\.chain_id.*not a configured chain/,
  );
  const config = loadConfig(withChains([chain(1), chain(137)], trusted([{ address: ISSUER, topics: ['kyc'], chain_id: 137 }])));
  expect(config.claims.trustedIssuers[0]!.chain_id).toBe(137);
  // One chain: the entry may leave its chain out (it is that chain's).
  expect(loadConfig(withChains([chain(1)], trusted([{ address: ISSUER, topics: ['kyc'] }]))).claims.trustedIssuers).toHaveLength(1);
});

test('READY_WITH_CHAINS is any or all', () => {
  expect(loadConfig({ READY_WITH_CHAINS: 'all' }).readyWithChains).toBe('all');
  expect(refusal({ READY_WITH_CHAINS: 'some' })).toMatch(/READY_WITH_CHAINS/);
});

describe('several endpoints for one chain', () => {
  const ALCHEMY = 'https://eth-mainnet.g.alchemy.com/v2/sk_live_abcdef';
  const INFURA = 'https://mainnet.infura.io/v3/0123456789abcdef';

  test('rpc_urls in CHAINS: in order, each labelled by its own label or its host, never by its URL', () => {
    const config = loadConfig(
      withChains([chain(1, { rpc_url: undefined, rpc_urls: [{ url: ALCHEMY, label: 'alchemy' }, INFURA, `${INFURA}?second`], confirmations: 'finalized' })]),
    );
    const [configured] = config.chains;
    expect(chainEndpointsOf(configured!)).toEqual([
      { url: ALCHEMY, label: 'alchemy' },
      { url: INFURA, label: 'mainnet.infura.io' },
      { url: `${INFURA}?second`, label: 'mainnet.infura.io#2' },
    ]);
    expect(chainEndpointsOf(configured!)[0]!.url).toBe(ALCHEMY);
    expect(configured!.confirmations).toBe('finalized');
  });

  test('CHAIN_RPC_URLS for the one chain: `url` or `label=url`, comma separated', () => {
    const config = loadConfig({ CHAIN_RPC_URLS: `alchemy=${ALCHEMY}, ${INFURA}`, CHAIN_ID: '1', IDENTITY_FACTORY: FACTORY });
    expect(chainEndpointsOf(config.chains[0]!)).toEqual([
      { url: ALCHEMY, label: 'alchemy' },
      { url: INFURA, label: 'mainnet.infura.io' },
    ]);
    expect(loadConfig({ CHAIN_RPC_URL: INFURA, CHAIN_ID: '1', IDENTITY_FACTORY: FACTORY }).chains[0]!.rpc_url).toBe(INFURA);
  });

  test('endpoints are refused when both forms are given, none is, a URL is not http(s), an entry has an unknown member, or two share a label', () => {
    expect(refusal({ CHAIN_RPC_URLS: INFURA, CHAIN_RPC_URL: INFURA, CHAIN_ID: '1', IDENTITY_FACTORY: FACTORY })).toMatch(
      /CHAIN_RPC_URLS.*cannot be set with CHAIN_RPC_URL/,
    );
    expect(refusal({ CHAIN_RPC_URLS: INFURA, IDENTITY_FACTORY: FACTORY })).toMatch(/CHAIN_ID.*required with CHAIN_RPC_URLS/);
    expect(refusal(withChains([chain(1, { rpc_urls: [INFURA] })]))).toMatch(/chains\.0\.rpc_urls.*cannot be set with rpc_url/);
    expect(refusal(withChains([chain(1, { rpc_url: undefined })]))).toMatch(/chains\.0\.rpc_url.*required, or rpc_urls/);
    expect(refusal(withChains([chain(1, { rpc_url: undefined, rpc_urls: ['ws://node.example/'] })]))).toMatch(/chains\.0\.rpc_urls\.0/);
    expect(refusal(withChains([chain(1, { rpc_url: undefined, rpc_urls: [{ url: INFURA, lable: 'x' }] })]))).toMatch(/chains\.0\.rpc_urls\.0/);
    expect(refusal(withChains([chain(1, { rpc_url: undefined, rpc_urls: [] })]))).toMatch(/chains\.0\.rpc_urls.*at least one endpoint/);
    expect(
      refusal(
        withChains([
          chain(1, {
            rpc_url: undefined,
            rpc_urls: [
              { url: INFURA, label: 'a' },
              { url: ALCHEMY, label: 'a' },
            ],
          }),
        ]),
      ),
    ).toMatch(/chains\.0\.rpc_urls.*names two endpoints "a"/);
  });

  test('confirmations: a number, "safe" or "finalized", per chain and for every chain; anything else is refused', () => {
    expect(loadConfig({ CHAIN_WATCH_CONFIRMATIONS: 'safe' }).chainWatch.confirmations).toBe('safe');
    expect(loadConfig({ CHAIN_WATCH_CONFIRMATIONS: '12' }).chainWatch.confirmations).toBe(12);
    expect(loadConfig({}).chainWatch.confirmations).toBeUndefined();
    expect(refusal({ CHAIN_WATCH_CONFIRMATIONS: 'latest' })).toMatch(/CHAIN_WATCH_CONFIRMATIONS.*"safe" or "finalized"/);
    expect(refusal(withChains([chain(1, { confirmations: -1 })]))).toMatch(/chains\.0\.confirmations/);
  });
});
