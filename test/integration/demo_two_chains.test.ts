// The embedded demo with DEMO_CHAINS=2: two local chains, the demo identity at one address on
// both, its claims issued by Signet on each (bound to that chain), readiness listing both, and
// the demo wallet's login answered with the choice of chain.
import { type ClientConfig, loadConfig } from '../../src/config/config.js';
import { type RunningDemo, startDemoServer } from '../../src/demo/demo_server.js';
import { silentLogger } from '../../src/infra/observability/logger.js';
import { freePort } from '../support/free_port.js';
import { requestChallenge, startLogin } from '../support/login_driver.js';

const DEMO_WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let running: RunningDemo;

beforeAll(async () => {
  const port = await freePort();
  running = await startDemoServer(loadConfig({ PORT: String(port), DEMO_CHAINS: '2' }), silentLogger);
}, 90_000);

afterAll(async () => {
  await running?.close();
});

test('two chains served, both ready, the second named in the summary', async () => {
  expect(running.config.chains?.map((chain) => [chain.chain_id, chain.name])).toEqual([
    [31337, 'Demo chain A'],
    [31338, 'Demo chain B'],
  ]);
  expect(running.config.claims.trustedIssuers.map((trusted) => trusted.chain_id)).toEqual([31337, 31338]);
  expect(running.summary.join('\n')).toContain('DEMO_CHAINS=2: the demo identity is there too, same address');
  const ready = await fetch(`${running.config.issuer}/readyz`);
  expect(await ready.json()).toMatchObject({
    status: 'ready',
    checks: {
      chains: [
        { chain_id: 31337, check: 'ok' },
        { chain_id: 31338, check: 'ok' },
      ],
    },
  });
});

test("the demo wallet's login offers both chains; each chain's kyc claim is valid there", async () => {
  // The demo website's client, as configured.
  const client = running.config.clients.find((each) => each.client_id === 'demo') as ClientConfig;
  const login = await startLogin(running.config.issuer, client, { scope: 'openid claim:kyc' });
  const choice = await requestChallenge(login, { address: DEMO_WALLET });
  expect(choice.json).toEqual({
    choose: [
      { chain_id: 31337, chain_name: 'Demo chain A', identity: running.demo!.identity },
      { chain_id: 31338, chain_name: 'Demo chain B', identity: running.demo!.identity },
    ],
  });
  for (const chain_id of [31337, 31338]) {
    const answer = await requestChallenge(login, { address: DEMO_WALLET, chain_id });
    expect(answer.status).toBe(200);
    expect((answer.json.claims as { status: string }[]).map((claim) => claim.status)).toEqual(['valid']);
  }
});
