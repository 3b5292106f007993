// Benchmarks of the login path, as ratios against a baseline measured in the same run:
//  1. signature check: viem's default verification, which Signet uses (one eth_call through
//     the ERC-6492 validator: EOAs, EIP-1271 and EIP-6492 alike), against viem's local-first
//     mode (ECDSA recovery in JavaScript, the chain only if that fails), same signed text;
//  2. a whole login (authorize → challenge → signature → code → tokens) against one
//     discovery round trip to the same server.
// Needs redis-server on PATH, like the tests.
import { performance } from 'node:perf_hooks';
import { logIn, startLogin } from '../test/support/login_driver.js';
import { startSignet, WEBSITE } from '../test/support/signet_harness.js';

async function timeEach(count: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function main() {
  const h = await startSignet();
  try {
    const owner = h.chain.accounts[0]!;
    const identity = await h.chain.createIdentityFor(owner.address);
    await h.signet.profiles.set(identity, { given_name: 'Ada', email: 'ada@example.org' });

    // 1. Signature check.
    const login = await startLogin(h.issuer, WEBSITE);
    const challenge = (await login.agent.postJson(`${login.interactionUrl}/challenge`, { address: owner.address })).json
      .challenge as string;
    const signature = await owner.signMessage({ message: challenge });
    const verify = (mode: 'auto' | 'eoa') => async () => {
      const ok = await h.chain.client.verifyMessage({ address: owner.address, message: challenge, signature, mode });
      if (!ok) throw new Error('signature did not verify');
    };
    await timeEach(20, verify('auto'));
    await timeEach(20, verify('eoa'));
    const chainFirst = median(await timeEach(300, verify('auto')));
    const localFirst = median(await timeEach(300, verify('eoa')));

    // 2. Whole login against one discovery round trip.
    const discovery = () => fetch(`${h.issuer}/.well-known/openid-configuration`).then((r) => r.arrayBuffer());
    const fullLogin = async () => {
      const started = await startLogin(h.issuer, WEBSITE);
      await logIn(started, owner);
    };
    await timeEach(20, discovery);
    await timeEach(5, fullLogin);
    const roundTrip = median(await timeEach(200, discovery));
    const loginTime = median(await timeEach(40, fullLogin));

    console.log('signature check (median of 300)');
    console.log(`  local-first recovery (baseline)   ${fmt(localFirst)}`);
    console.log(`  chain eth_call (Signet's choice)  ${fmt(chainFirst)}   ratio ${(chainFirst / localFirst).toFixed(2)}`);
    console.log('whole login (median of 40)');
    console.log(`  discovery round trip (baseline) ${fmt(roundTrip)}`);
    console.log(`  login                           ${fmt(loginTime)}   = ${(loginTime / roundTrip).toFixed(1)} round trips`);
  } finally {
    await h.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
