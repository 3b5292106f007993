// The "What stands in the way" and profile sections of docs/performance.md, written from the
// run's own figures: for each target, how far it is, and from the two CPU profiles (Signet and
// the engine floor, logins alone at c=8) where Signet's extra milliseconds per login go.
import { type BenchResults, CPU_LIMIT, P50_OVER_FLOOR_MS, type ProfiledLogins, type Target } from './report.js';
import { round } from './stats.js';

/** ms per login of each bucket or part of a profile (its share of the profiled CPU per login). */
function msPerLogin(profile: ProfiledLogins, list: 'buckets' | 'parts'): Map<string, number> {
  return new Map(profile[list].map((row) => [row.what, (row.percent / 100) * profile.serverCpuMsPerLogin]));
}

/** Buckets by how many more ms per login Signet spends in them than the floor. */
function extraByBucket(results: BenchResults) {
  const signet = msPerLogin(results.profile!.signet, 'buckets');
  const floor = msPerLogin(results.profile!.floor, 'buckets');
  return [...new Set([...signet.keys(), ...floor.keys()])]
    .map((what) => ({ what, signet: signet.get(what) ?? 0, floor: floor.get(what) ?? 0 }))
    .map((row) => ({ ...row, extra: row.signet - row.floor }))
    .sort((a, b) => b.extra - a.extra);
}

export function profileSection(results: BenchResults): string[] {
  const profile = results.profile;
  if (!profile) return [];
  const signetParts = msPerLogin(profile.signet, 'parts');
  const floorParts = msPerLogin(profile.floor, 'parts');
  return [
    `## Where a login's CPU goes (CPU profiles, ${profile.logins} logins at c=8 on each server)`,
    '',
    `Another process of each server, profiled over logins alone (the profiler adds its own cost: Signet ${profile.signet.serverCpuMsPerLogin} ms,`,
    `the floor ${profile.floor.serverCpuMsPerLogin} ms of CPU per login while it ran). ms per login = share of the profile × that CPU.`,
    '',
    '| where (self time) | Signet ms/login | floor ms/login | Signet − floor |',
    '|---|---|---|---|',
    ...extraByBucket(results)
      .slice(0, 18)
      .map((row) => `| ${row.what} | ${round(row.signet, 2)} | ${round(row.floor, 2)} | ${round(row.extra, 2)} |`),
    '',
    'Parts, inclusive (a part’s callees count; parts overlap):',
    '',
    '| part | Signet % | Signet ms/login | floor ms/login |',
    '|---|---|---|---|',
    ...profile.signet.parts.map(
      (row) => `| ${row.what} | ${row.percent} | ${round(signetParts.get(row.what) ?? 0, 2)} | ${round(floorParts.get(row.what) ?? 0, 2)} |`,
    ),
    '',
    'Signet’s hottest functions (self time):',
    '',
    ...profile.signet.functions.slice(0, 14).map((row) => `- ${row.what}: ${row.percent} %`),
    '',
  ];
}

const REQUEST_CONTEXT = 'request context (AsyncLocalStorage propagation)';
// The owners (profile_summary.ts) that are Signet's middleware around the engine.
const MIDDLEWARE = [
  'security headers (CSP nonce)',
  'request id, access line and metrics calls (request_observer)',
  REQUEST_CONTEXT,
  'metrics (prom-client)',
  'logging (pino, logger)',
  'rate limits',
  'Signet http/ (the rest of its stack)',
];
const UNOWNED_ROW = 'node (HTTP server, sockets, GC, other)';

export function whatStandsInTheWay(results: BenchResults, targets: Target[]): string[] {
  const c8 = results.logins.c8!;
  const slow1 = results.chainLatency20ms.c1!;
  const byName = (start: string) => targets.find((row) => row.target.startsWith(start))!;
  const lines = ['## What stands in the way', ''];
  const part = (profile: ProfiledLogins | undefined, what: string) => {
    const row = profile?.parts.find((entry) => entry.what === what);
    return row && profile ? round((row.percent / 100) * profile.serverCpuMsPerLogin, 2) : undefined;
  };
  const viemShare = round(results.parts.chainReadCpuMs - results.parts.rawEthCallCpuMs, 3);
  const signetProfile = results.profile?.signet;
  const floorProfile = results.profile?.floor;

  const cpu = byName('server CPU per login ≤');
  const allowed = round(CPU_LIMIT * c8.floor.serverCpuMsPerLogin, 2);
  const floorPerRequest = round(c8.floor.serverCpuMsPerLogin / c8.floor.httpRequestsPerLogin, 2);
  lines.push(
    `- **Server CPU per login, ${cpu.value} × the floor's (${cpu.met ? 'met' : 'not met'}).** Signet ${c8.signet.serverCpuMsPerLogin} ms against the floor's ${c8.floor.serverCpuMsPerLogin} ms at c=8;`,
    `  ${CPU_LIMIT} × allows ${allowed} ms, ${round(Math.max(0, c8.signet.serverCpuMsPerLogin - allowed), 2)} ms less than now. Of the difference:`,
    `  - the fifth HTTP request (the wallet signs between the challenge and the signature; the floor's login has 4): at the floor's`,
    `    ${floorPerRequest} ms per request, about ${floorPerRequest} ms by itself — inherent to a wallet login;`,
    `  - what that leaves: ${CPU_LIMIT} × allows ${round(allowed - c8.floor.serverCpuMsPerLogin - floorPerRequest, 2)} ms for everything else a wallet login adds (below zero: the fifth request alone is over), and its`,
    `    ${c8.signet.chainRoundTripsPerLogin} live chain reads alone cost ${round(c8.signet.chainRoundTripsPerLogin * results.parts.chainReadCpuMs, 2)} ms of CPU in a process at rest (Floors of the parts), before the`,
    '    nonce, the consent receipt and the signature check;',
  );
  if (signetProfile && floorProfile) {
    const extra = extraByBucket(results).slice(0, 6);
    lines.push(
      `  - by the profiles (Signet − floor, ms per login): ${extra.map((row) => `${row.what} ${round(row.extra, 2)}`).join('; ')};`,
      `  - the chain client: viem ${part(signetProfile, 'chain client (viem)')} ms per login and its HTTP client (src/infra/chain/rpc_fetch.ts on node:http) ${part(signetProfile, 'chain HTTP (rpc_fetch)')} ms,`,
      `    inclusive each (the HTTP callbacks run outside viem's frames), for ${c8.signet.chainRoundTripsPerLogin} chain round trips; node's fetch (undici) cost about`,
      `    1.6 ms per login here before; alone, one read costs ${results.parts.chainReadCpuMs} ms of CPU, ${viemShare} ms of it viem's (ABI coding, its request layers)`,
      `    and ${results.parts.rawEthCallCpuMs} ms the HTTP request itself (Floors of the parts); under load the profile counts more for both;`,
      `  - Redis: ${results.redisTrace.signet.roundTripsPerLogin} round trips against the floor's ${results.redisTrace.floor.roundTripsPerLogin}; ioredis ${part(signetProfile, 'Redis client (ioredis)')} ms per login`,
      `    (floor ${part(floorProfile, 'Redis client (ioredis)')} ms), of which socket-write syscalls ${part(signetProfile, 'Redis socket writes (syscalls)')} ms (floor ${part(floorProfile, 'Redis socket writes (syscalls)')} ms):`,
      '    each awaited write is one round trip. Signet adds, per login: the Interaction read and the two counters at the',
      '    challenge and at the signature (sent together, one round trip each step), the challenge write, the challenge read',
      '    with its attempt counted (one script), the retire, the watchlist, and the consent receipt with its index join',
      '    (sent together, one round trip);',
      `  - oidc-provider ${part(signetProfile, 'oidc-provider')} ms (floor ${part(floorProfile, 'oidc-provider')} ms) and GC ${part(signetProfile, 'GC')} ms (floor ${part(floorProfile, 'GC')} ms);`,
      `  - signature recovery ${part(signetProfile, 'signature recovery (recover_message_signer)')} ms per login inclusive (hashing and the address included), no longer a factor.`,
    );
  } else {
    lines.push('  - run without BENCH_CPU_PROFILE=0 for the profiles that split the rest.');
  }
  lines.push(...browserCpuAccount(results, byName('server CPU per browser login')));
  const latencyAbsolute = byName('login p50 at c=1 with 20 ms chain latency ≤ 60');
  const latency = byName('login p50 at c=1 with 20 ms chain latency ≤ floor');
  const c1CpuGap = round(slow1.signet.serverCpuMsPerLogin - slow1.floor.serverCpuMsPerLogin, 1);
  const step = (name: string) => slow1.signet.steps[name]?.p50Ms ?? 0;
  const chainWait = 20 * slow1.signet.chainRoundTripsPerLogin;
  const challengeWork = round(step('challenge') - 20, 1);
  const signatureWork = round(step('signature') - 20, 1);
  lines.push(
    `- **Login p50 with 20 ms chain latency: ${slow1.signet.p50Ms} ms (≤ 60: ${latencyAbsolute.met ? 'met' : 'not met'}), ${latency.value} ms over the floor's ${slow1.floor.p50Ms} ms (≤ ${P50_OVER_FLOOR_MS}: ${latency.met ? 'met' : 'not met'}).**`,
    `  ${slow1.signet.chainRoundTripsPerLogin} chain round trips per login wait ${round(chainWait, 0)} ms (one per step, nothing left to batch) and the wallet signs in the driver`,
    `  (${step('wallet signs (driver)')} ms), which leaves ${round(P50_OVER_FLOOR_MS - chainWait - step('wallet signs (driver)'), 1)} ms for the work of the challenge and the signature above what the floor's`,
    `  interaction costs. p50 per step: challenge ${step('challenge')} ms (${challengeWork} ms besides its chain round trip), signature ${step('signature')} ms`,
    `  (${signatureWork} ms besides its round trip), authorize ${step('authorize')}, resume ${step('resume')}, token ${step('token')} ms. That work is the CPU above`,
    `  (at c=1: ${slow1.signet.serverCpuMsPerLogin} ms per login against ${slow1.floor.serverCpuMsPerLogin} ms, +${c1CpuGap} ms), spent where the CPU target's gap is: the`,
    `  fifth HTTP request, the chain client and the Redis round trips. What would move it, by this run's own figures: viem's`,
    `  share of a chain read is ${viemShare} ms, ${slow1.signet.chainRoundTripsPerLogin} reads per login, so a chain client costing no more than its HTTP request would win`,
    `  ${round(viemShare * slow1.signet.chainRoundTripsPerLogin, 2)} ms; the Redis merge above, one round trip. Nothing is left to overlap: each step's chain read`,
    '  waits on the cheap checks before it (rate limits, the Interaction, the nonce), and its writes wait on the read.',
  );
  const userinfo = byName('userinfo');
  const middleware = byName('Signet’s middleware');
  const userinfoCpu = byName('CPU per userinfo');
  const ui = results.userinfoPerSecond;
  const extraMs = round(ui.signet.serverCpuMsPerRequest - ui.bare.serverCpuMsPerRequest, 3);
  lines.push(
    `- **Userinfo against the bare engine: ${userinfo.value} × its throughput (${userinfo.met ? 'met' : 'not met'}), ${userinfoCpu.value} × its CPU (${userinfoCpu.met ? 'met' : 'not met'}).**`,
    `  Signet ${ui.signet.serverCpuMsPerRequest} ms of CPU per userinfo, the bare engine (oidc-provider on the same adapter, nothing of Signet's)`,
    `  ${ui.bare.serverCpuMsPerRequest} ms, the engine floor (Signet's whole server) ${ui.floor.serverCpuMsPerRequest} ms: Signet adds ${extraMs} ms per request,`,
    `  ${round((100 * extraMs) / ui.signet.serverCpuMsPerRequest, 0)} % of its userinfo's CPU.`,
  );
  const signetUserinfo = results.profile?.signet.userinfo;
  const bareUserinfo = results.profile?.bare.userinfo;
  if (signetUserinfo && bareUserinfo) {
    const ownerMs = (summary: typeof signetUserinfo, what: string) =>
      round(((summary.owners.find((row) => row.what === what)?.percent ?? 0) / 100) * summary.serverCpuMsPerRequest, 3);
    const owners = [...new Set([...signetUserinfo.owners, ...bareUserinfo.owners].map((row) => row.what))]
      .map((what) => ({ what, signet: ownerMs(signetUserinfo, what), bare: ownerMs(bareUserinfo, what) }))
      .sort((a, b) => b.signet - b.bare - (a.signet - a.bare));
    const share = (ms: number) => round((100 * ms) / signetUserinfo.serverCpuMsPerRequest, 1);
    const middlewareProfileMs = round(MIDDLEWARE.reduce((sum, what) => sum + ownerMs(signetUserinfo, what), 0), 3);
    lines.push(
      `  By the userinfo profiles (${signetUserinfo.serverCpuMsPerRequest} ms and ${bareUserinfo.serverCpuMsPerRequest} ms per request with the profiler), each sample given to the`,
      '  innermost owner on its stack (a middleware\'s own work and the native calls it makes; not what it calls of the',
      "  engine), ms per request, Signet's share of its userinfo's CPU, and the bare engine's:",
      '',
      '  | owner | Signet ms | share of Signet | bare engine ms |',
      '  |---|---|---|---|',
      ...owners.map((row) => `  | ${row.what} | ${row.signet} | ${share(row.signet)} % | ${row.bare} |`),
      '',
      `  Measured directly, the middleware costs ${middleware.value} % of Signet's userinfo CPU (${middleware.met ? 'met' : 'not met'}: ≤ 10 %): the bare engine served`,
      `  through Signet's HTTP stack spends ${ui.bareWithMiddleware.serverCpuMsPerRequest} ms per userinfo against its ${ui.bare.serverCpuMsPerRequest} ms. By the profile its owners (${MIDDLEWARE.join(', ')})`,
      `  come to ${middlewareProfileMs} ms, ${share(middlewareProfileMs)} % (the promise hooks counted under request context are ${ownerMs(bareUserinfo, REQUEST_CONTEXT)} ms in the bare engine too, whose own`,
      '  AsyncLocalStorage puts them on every promise); it keeps every line and metric (one access line per request, the HTTP',
      '  metrics, the request id on every line). Cut so far: Signet\'s request context on the engine\'s own AsyncLocalStorage',
      '  (one store in the process, decision 56), log lines written in blocks of 4 KiB or every 250 ms rather than a write',
      '  per line, the log scrubber\'s scans only where a line holds their mark, no async step in pass-through middleware or',
      '  in the Redis guard, the route table consulted only for paths under its own routes (the engine\'s endpoints skip its',
      '  matching). What would move the rest: the access line\'s formatting (pino\'s JSON, the time, the scrubber) stays one',
      '  per request; context propagation without promise hooks (Node 24\'s AsyncContextFrame, an experimental flag on',
      '  Node 22) would take most of the request context\'s share, in the bare engine too. Beyond the middleware, Signet\'s',
      `  userinfo makes ${results.redisTrace.userinfo.signet.roundTripsPerLogin} Redis writes against the bare engine's ${results.redisTrace.userinfo.bare.roundTripsPerLogin} (it waits on two, as the bare engine does: the`,
      "  owner's profile is read ahead with the token's Grant; the third is the access history's entry, written after the",
      `  answer with the other releases of the last 10 ms, docs/decisions.md, 2; ${results.redisTrace.userinfo.signet.withScriptsPerLogin} commands with those inside scripts against ${results.redisTrace.userinfo.bare.withScriptsPerLogin}), and that shows in ioredis`,
      `  (${ownerMs(signetUserinfo, 'ioredis')} against ${ownerMs(bareUserinfo, 'ioredis')} ms), in node's socket and HTTP work and GC (${ownerMs(signetUserinfo, UNOWNED_ROW)} against ${ownerMs(bareUserinfo, UNOWNED_ROW)} ms)`,
      `  and in Signet's own stores (${ownerMs(signetUserinfo, 'Signet, other')} against ${ownerMs(bareUserinfo, 'Signet, other')} ms). The access history is a record the owner relies on`,
      '  and the profile is what userinfo releases, so neither goes: their cost is now off the wait, not off the CPU.',
      '  What userinfo keeps on every request, what each part costs alone and in place, and what closing the gap would',
      '  give up: docs/decisions.md, 58.',
    );
  }
  const trace = results.redisTrace;
  const claimPath = byName('chain round trips per login ≤ 2 (claim-scope');
  lines.push(
    `- **Chain round trips per login: page path ${trace.signet.chainRoundTripsPerLogin}, wallet SDK path ${trace.walletSdk.chainRoundTripsPerLogin}, claim-scope path ${trace.claimScope.chainRoundTripsPerLogin} (≤ 2 on the claim-scope path: ${claimPath.met ? 'met' : 'not met'}).**`,
    '  One per step that needs the chain: the challenge (the wallet\'s identity from the IdFactory, and with claim scopes',
    '  its claims of the asked topics and each issuer\'s word, in one call), the signature (the identity known, the key',
    '  live, with claim scopes the claims again, in one call) and, with claim scopes, the token: the ID token\'s kept',
    '  claims are read when the token is issued, so that a claim its issuer revoked a moment before never leaves with its',
    '  data (docs/decisions.md, 36: the claim and its issuer\'s word at the moment data would leave). What would move it:',
    '  counting the signature\'s read as fresh for an ID token issued a few seconds later (one round trip less), at the',
    '  price of a window in which a revoked claim\'s data still leaves; not taken.',
  );
  const claimReads = byName('claim resource reads');
  const claims = results.claimReadsPerSecond;
  lines.push(
    `- **Claim resource reads: ${claims.perSecond}/s, ${claimReads.value} × a userinfo plus one eth_call (${claimReads.met ? 'met' : 'not met'}: ≥ 0.7; ${round(claims.perSecond / ui.signet.perSecond, 2)} × userinfo alone), ${claims.chainRoundTripsPerRead} chain round trip each.**`,
    `  A read costs ${claims.serverCpuMsPerRequest} ms of CPU against userinfo's ${ui.signet.serverCpuMsPerRequest} ms: the same token lookup and Redis reads (the consent`,
    `  receipt, the claim's data) plus the live chain read, which costs ${results.parts.chainReadCpuMs} ms of CPU by itself in a process at rest`,
    '  (Floors of the parts) and carries the ClaimsReader\'s code (kilobytes) in every request. The read is what the',
    '  resource is for (private data leaves only on a fresh answer from the chain), so its cost is the floor of this',
    '  ratio: the read alone is more than the rest of a userinfo.',
  );
  const redis = byName('Redis round trips');
  const recovery = byName('signature verification');
  lines.push(
    `- **Redis round trips, page path: ${redis.value} (≤ 25: ${redis.met ? 'met' : 'not met'}; ${results.redisTrace.signet.commandsPerLogin} commands).** A login's round trips by step: /auth 1 (the`,
    '  Interaction); challenge 3 (the Interaction, the two counters sent together, the challenge); signature 6 (the',
    '  Interaction, the two counters, the challenge read with its attempt counted, its retire, the watchlist entry with the',
    '  Grant and its receipt sent together, the Interaction\'s result); resume 4 (the Interaction read; its delete with the',
    '  Grant it names read ahead; the code; the Session) and token 7, the engine\'s (the token\'s',
    '  failed-authentication check, the code, its Session, Grant and the owner\'s profile read ahead together, the code',
    '  consumed, the two tokens) and the access history entry, written after the answer; and the client record once a second (its one-second cache), the',
    '  tenths above a whole number. Cut from 30 (counted the same way before; MONITOR read 34.8, counting MULTI … EXEC as',
    '  four): the counters of a step in one round trip (−2), the watchlist entry, Grant and receipt in one (−2), the find',
    '  by uid in one script and the Grant read ahead with it (−2) (docs/decisions.md, 34), the profile read and the history',
    '  entry in one script (−1, decision 2), the challenge read with its attempt counted (−1) and the resume\'s Grant read',
    '  ahead with the Interaction\'s delete (−1) (decision 34). The token step waits on six of its seven: the profile is',
    '  read ahead with the code\'s Grant and the history entry follows the answer (decision 2).',
    `- **Met:** signature verification ${recovery.value} % of the login's CPU`,
    `  (${results.parts.signatureRecoveryBackend}: ${results.parts.signatureRecoveryMs} ms per recovery with the EIP-191 hash, against ${results.parts.jsSignatureRecoveryMs} ms in JavaScript).`,
    '',
  );
  return lines;
}

/**
 * The browser's login against the engine's own login and userinfo (c=8), in tenths of the
 * floor's CPU, from the run's own figures: the page (the browser's login less the wallet SDK's,
 * the same login without the page), and the wallet's two steps in place of the engine's
 * interaction (the wallet SDK's login less the floor's), with its chain reads and its signature
 * recovery measured apart (Floors of the parts).
 */
function browserCpuAccount(results: BenchResults, target: Target): string[] {
  const { browser, walletSdk, floor } = results.usersPaths.logins;
  const tenth = floor.serverCpuMsPerLogin / 10;
  const inTenths = (ms: number) => round(ms / tenth, 1);
  const over = round(browser.serverCpuMsPerLogin - floor.serverCpuMsPerLogin, 2);
  const page = round(browser.serverCpuMsPerLogin - walletSdk.serverCpuMsPerLogin, 2);
  const wallet = round(walletSdk.serverCpuMsPerLogin - floor.serverCpuMsPerLogin, 2);
  const chain = round(walletSdk.chainRoundTripsPerLogin * results.parts.chainReadCpuMs, 2);
  const recovery = results.parts.signatureRecoveryMs;
  const rest = round(wallet - chain - recovery, 2);
  return [
    `- **Server CPU per browser login, ${target.value} × the engine floor's login and userinfo (${target.met ? 'met' : 'not met'}: ≤ 1.3).** ${browser.serverCpuMsPerLogin} ms`,
    `  against ${floor.serverCpuMsPerLogin} ms at c=8 (The users' paths): ${over} ms over, ${inTenths(over)} tenths of the floor where 3 are allowed. Per tenth (${round(tenth, 2)} ms):`,
    `  - the consent page (the browser's login less the wallet SDK's): ${page} ms, ${inTenths(page)} tenths;`,
    `  - the wallet's challenge and signature in place of the engine's interaction (the wallet SDK's login less the floor's): ${wallet} ms,`,
    `    ${inTenths(wallet)} tenths, of which its ${walletSdk.chainRoundTripsPerLogin} live chain reads ${chain} ms (${inTenths(chain)} tenths) and the signature's recovery ${recovery} ms`,
    `    (${inTenths(recovery)} tenths), measured apart (Floors of the parts); the rest, ${rest} ms (${inTenths(rest)} tenths), is one more HTTP request, the`,
    '    SIWE text and its nonce, the rate counters, the consent receipt and the watchlist entry, and their Redis traffic;',
    '    the profile of the page path above shows where such work goes.',
  ];
}
