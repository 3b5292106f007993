// One chain that never answers (its RPC node accepts connections and stays silent) beside one
// that does: the silent chain's login answers 503 chain_unavailable at its chain deadline,
// and while it waits, a whole login on the other chain (challenge, signature, tokens,
// userinfo, refresh) and its readiness go on. No wall-clock bound: the order is the assertion.
import { createServer, type Server, type Socket } from 'node:net';
import * as oidc from 'openid-client';
import { createChainClient } from '../../src/infra/chain/chain_client.js';
import { logIn, requestChallenge, startLogin } from '../support/login_driver.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

const FIRST = 31337;
const SILENT = 31338;

let h: Harness;
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  // Accepts every connection, answers nothing.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
  h = await startSignet({
    otherChains: [SILENT],
    chainClient: (chain) =>
      chain.anvil.chainId === SILENT ? createChainClient(silentUrl, SILENT, { pollingInterval: 50, callTimeoutMs: 4000 }) : chain.client,
    // A chain deadline a loaded host's whole login on the other chain fits in many times over.
    configure: () => ({ chainTimeouts: { requestMs: 4000, callMs: 4000 } }),
  });
}, 120_000);

afterAll(async () => {
  await h?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

test("a silent chain's login waits for its deadline alone: the other chain's login, tokens and refresh go on meanwhile", async () => {
  const owner = h.chain.accounts[0]!;
  const identity = await h.chain.createIdentityFor(owner.address);
  let silentAnswered = false;
  const onSilent = startLogin(h.issuer, WEBSITE, { scope: 'openid' })
    .then((login) => requestChallenge(login, { address: owner.address, chain_id: SILENT }))
    .finally(() => {
      silentAnswered = true;
    });

  const login = await startLogin(h.issuer, WEBSITE, { scope: 'openid' });
  const { tokens } = await logIn(login, owner, { chain_id: FIRST });
  const sub = `eip155:${FIRST}:${identity}`;
  expect((await oidc.fetchUserInfo(login.config, tokens.access_token, sub)).sub).toBe(sub);
  expect((await oidc.refreshTokenGrant(login.config, tokens.refresh_token!)).claims()!.sub).toBe(sub);
  expect(silentAnswered).toBe(false);

  expect(await onSilent).toMatchObject({ status: 503, json: { reason: 'chain_unavailable' } });
  // Still ready (READY_WITH_CHAINS=any, the default): the silent chain is in the details.
  const ready = await fetch(`${h.issuer}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({
    checks: {
      chain: 'ok',
      chains: [
        { chain_id: FIRST, check: 'ok' },
        { chain_id: SILENT, check: 'unreachable' },
      ],
    },
  });
});
