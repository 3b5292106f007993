// The paths people and services wait on, each against the bare engine in the same run, in
// alternating slices: a person's browser login (consent page, challenge,
// signature, resume, token, userinfo: browser_driver.ts) and a wallet SDK's login (the identity
// named), against the engine floor's and the bare engine's own login with the same userinfo
// after it (what the engine and the store cost by themselves); and a service's access-grant
// read (`GET /identities/<identity>/profile` with a grant token), against the bare engine's
// userinfo (the same kind of answer: a token found, the profile the owner released).
import { performance } from 'node:perf_hooks';
import type { LocalAccount } from 'viem';
import { browserLogin } from './browser_driver.js';
import { type Counters, type LoginOutcome, type LoginPhase, runLoginsInterleaved, runRatesInterleaved } from './load.js';
import { type BenchClient, floorLogin, resourceRead, signetLogin, userinfo } from './oidc_driver.js';

export type UsersPaths = {
  concurrency: number;
  logins: { browser: LoginPhase; walletSdk: LoginPhase; floor: LoginPhase; bare: LoginPhase };
  accessGrantReads: { signet: { perSecond: number; serverCpuMsPerRequest: number }; bareUserinfo: { perSecond: number; serverCpuMsPerRequest: number } };
};

type Side = { base: string; counters: Counters; idleRate: number };

export type UsersPathsDeps = {
  signet: Side;
  floor: Side;
  bare: Side;
  client: BenchClient;
  scope: string;
  adminToken: string;
  nextUser: () => { wallet: LocalAccount; identity: string };
  /** The bare engine's access tokens, for its userinfo. */
  bareAccess: string[];
  logins: number;
  rateSeconds: number;
  log: (line: string) => void;
};

/** A login, then the website's userinfo with its access token (timed as the `userinfo` step). */
export function withUserinfo(base: string, login: () => Promise<LoginOutcome>): () => Promise<LoginOutcome> {
  return async () => {
    const outcome = await login();
    const started = performance.now();
    await userinfo(base, outcome.tokens.access_token);
    outcome.times.userinfo = performance.now() - started;
    return { ...outcome, requests: outcome.requests + 1 };
  };
}

async function json(response: Response, step: string, status: number): Promise<Record<string, unknown>> {
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== status) throw new Error(`${step} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** A persistent access grant to `identity`'s given name for the bench's client, as a service gets one: its token. */
async function accessGrantToken(deps: UsersPathsDeps, owner: { wallet: LocalAccount; identity: string }): Promise<string> {
  const base = deps.signet.base;
  const { key } = await json(
    await fetch(`${base}/admin/services/${deps.client.client_id}/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${deps.adminToken}` },
      body: JSON.stringify({ label: 'bench' }),
    }),
    'API key',
    201,
  );
  const request = await json(
    await fetch(`${base}/identities/${owner.identity}/profile/access-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': String(key) },
      body: JSON.stringify({ kind: 'persistent', fields: ['given_name'] }),
    }),
    'access request',
    201,
  );
  const signature = await owner.wallet.signMessage({ message: String(request.challenge) });
  const validated = await json(
    await fetch(`${base}/access-grants/${request.id}/validations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ signature }),
    }),
    'validation',
    200,
  );
  return String(validated.access_token);
}

export async function measureUsersPaths(deps: UsersPathsDeps): Promise<UsersPaths> {
  const { signet, floor, bare, client, scope } = deps;
  const concurrency = 8;
  const sides = {
    browser: { counters: signet.counters, idleRate: signet.idleRate, login: () => browserLogin(signet.base, client, scope, deps.nextUser().wallet) },
    walletSdk: {
      counters: signet.counters,
      idleRate: signet.idleRate,
      login: withUserinfo(signet.base, () => {
        const user = deps.nextUser();
        return signetLogin(signet.base, client, scope, user.wallet, user.identity);
      }),
    },
    floor: { counters: floor.counters, idleRate: floor.idleRate, login: withUserinfo(floor.base, () => floorLogin(floor.base, client, scope)) },
    bare: { counters: bare.counters, idleRate: bare.idleRate, login: withUserinfo(bare.base, () => floorLogin(bare.base, client, scope)) },
  };
  // A warm-up of each side (the page's files, the driver's paths), then the measured slices.
  await runLoginsInterleaved(sides, concurrency, 32, 1);
  const runs = await runLoginsInterleaved(sides, concurrency, deps.logins);
  const logins = { browser: runs.browser.phase, walletSdk: runs.walletSdk.phase, floor: runs.floor.phase, bare: runs.bare.phase };
  deps.log(
    `users' paths at c=${concurrency}, CPU ms per login: browser ${logins.browser.serverCpuMsPerLogin}, wallet SDK ${logins.walletSdk.serverCpuMsPerLogin}, floor ${logins.floor.serverCpuMsPerLogin}, bare engine ${logins.bare.serverCpuMsPerLogin}`,
  );

  const owner = deps.nextUser();
  const token = await accessGrantToken(deps, owner);
  const path = `/identities/${owner.identity}/profile`;
  const reads = await runRatesInterleaved(
    {
      signet: { counters: signet.counters, concurrency: 16, work: () => resourceRead(signet.base, path, token) },
      bareUserinfo: { counters: bare.counters, concurrency: 16, work: (w) => userinfo(bare.base, deps.bareAccess[w % deps.bareAccess.length]!) },
    },
    deps.rateSeconds,
  );
  deps.log(`access-grant reads/s: Signet ${reads.signet.perSecond} (${reads.signet.serverCpuMsPerRequest} ms CPU); bare engine's userinfo ${reads.bareUserinfo.perSecond}`);
  return { concurrency, logins, accessGrantReads: reads };
}
