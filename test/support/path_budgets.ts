// What each request of the paths people and services wait on may cost (docs/decisions.md, 52):
// Redis round trips (exchanges the request waits on; commands sent together count once), Redis
// commands (those a script runs included) and chain round trips (JSON-RPC requests), on a chain
// with Multicall3 and on one without. test/integration/path_budgets.test.ts counts them exactly
// and fails when a request goes over; a change that needs more raises the budget here, in the
// same commit, and says why in the decisions. Times are the bench's (npm run bench), never here.

export type PathCost = { redisRoundTrips: number; redisCommands: number; chainRoundTrips: number };
export type Budget = PathCost;

const budget = (redisRoundTrips: number, redisCommands: number, chainRoundTrips: number): Budget => ({ redisRoundTrips, redisCommands, chainRoundTrips });

export const PATH_BUDGETS = {
  /** A person's browser: the website's authorization request to userinfo (scope openid profile email). */
  browserLogin: {
    // The address's count (decision 62: one script, EVALSHA and INCRBY, and EXPIRE when it opens
    // a window), before the engine; the engine's Interaction written (one SET).
    authorize: budget(2, 4, 0),
    // The Interaction read.
    'consent page': budget(1, 1, 0),
    // The Interaction; both rate counters together; the challenge written. One eth_call: the wallet's identity.
    challenge: budget(3, 9, 1),
    // The Interaction; the counters; the challenge and its fate read with its attempt counted; its
    // retire (one SET NX); the watchlist entry, the Grant and the receipt with its indexes together
    // (the three index joins in one script); the Interaction's result. One eth_call: the key read live.
    signature: budget(6, 29, 1),
    // The engine's: the Interaction read; its delete, with the Grant the Interaction names read
    // ahead (docs/decisions.md, 34); the code written (one SET: not listed, decision 55); the
    // Session written with its copy at its uid.
    resume: budget(4, 12, 0),
    // The engine's: the failed-authentication counter; the code, with its Grant and the owner's
    // profile read ahead in one MGET and the Session (its copy at its uid) beside it; the code
    // consumed; the two tokens (the access token listed in its grant's bounded index alone). The
    // ID token's history entry is written after the answer (its commands count).
    token: budget(6, 27, 0),
    // The token; its Grant and the owner's profile read ahead in one MGET, its Session beside it;
    // the history entry after the answer.
    userinfo: budget(2, 8, 0),
  },
  /** A wallet SDK: the same, with the identity named in the challenge (checked in the same eth_call). */
  walletSdkLogin: {
    challenge: budget(3, 9, 1),
    signature: budget(6, 29, 1),
  },
  /** What websites and services call at machine speed (a login with offline_access and a claim topic). */
  reads: {
    // With a claim topic the claims are read fresh: one eth_call (the consent receipt naming them
    // and the profile read ahead in the token's Grant's MGET), and their history entry after the answer.
    userinfo: budget(3, 9, 1),
    // The key read live before a refresh (decision 11; the receipt naming the wallet read ahead in
    // the refresh token's Grant's MGET), and the claims read fresh for the new ID token.
    refresh: budget(8, 42, 2),
    // The token; its receipt read ahead in its Grant's MGET; the claim's data; the claim read fresh;
    // the history entry after the answer.
    'claim read': budget(3, 9, 1),
    // The grant token's grant, the profile, the history entry.
    'access-grant read': budget(3, 9, 0),
  },
} satisfies Record<string, Record<string, Budget>>;

/**
 * Requests to another Information Provider per login for one claim whose data it holds (decision
 * 77), counted exactly at the provider by test/integration/information_providers.test.ts. `page`:
 * the challenge and the provider's challenge (the access request, sent while the owner reads);
 * `signature`: the validation and the read; `after`: the code exchange and a userinfo (the copy
 * kept for the grant, nothing at the provider). A login without such claims asks no provider.
 */
export const PROVIDER_REQUESTS = {
  firstLogin: { page: 1, signature: 2, after: 0 },
  laterLogin: { page: 0, signature: 1, after: 0 },
} satisfies Record<string, Record<string, number>>;
