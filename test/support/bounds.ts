// The time bounds Signet promises, each stated once. Only the files of jest.config.js's "timing"
// project assert them (TIMING_FILES there); every other test waits for events or injects a clock.

/** Whatever the chain or Redis does, a request gets one clear answer (a 503 at worst) within this. */
export const OUTAGE_ANSWER_MS = 2000;

/** With Redis down, a request that needs it is refused (503, Retry-After) within this. */
export const STORE_DOWN_REFUSAL_MS = 1000;

/** /readyz answers within this when Redis or the chain does not (its probes give up at 1 s). */
export const READINESS_ANSWER_MS = 1500;

/** A consent the chain ends (a key removed, a claim revoked) is ended, and told, within this of the block. */
export const CHAIN_END_MS = 5000;

/** The chain watcher calls its handler within this of the receipt of the block it is in. */
export const CHAIN_EVENT_HANDLED_MS = 2000;

/** Beyond lease + poll, how late another process may take over the chain watcher. */
export const TAKEOVER_SLACK_MS = 400;

/** Redis back with its data: every request answers as before within this of Redis accepting again. */
export const STORE_RECOVERY_MS = 2000;

/** A request refused for its input (too large, malformed, of the wrong shape) is answered within this, before any work. */
export const INPUT_REFUSAL_MS = 1000;

/** An aborted chain call ends within this (at once: the margin only keeps a stalled host out). */
export const ABORTED_CALL_END_MS = 1000;

/** A receiver that hangs delays only itself: another receiver's webhook or SET arrives within this of the event (the delivery timeout is 5 s). */
export const ISOLATED_DELIVERY_MS = 2000;

/** Beyond what it waits for (the delivery in flight, its stop bound), how late a stopping webhook worker ends. */
export const WORKER_STOP_SLACK_MS = 700;

/** A webhook worker started after a stop delivers what the stop put back within this (not after the 30 s claim delay). */
export const WORKER_RESTART_DELIVERY_MS = 2000;

/** Beyond its lease and two sweeps, how late another process finishes an erasure whose process died. */
export const ERASURE_TAKEOVER_SLACK_MS = 2000;

/** One round of the chain watcher, with 10,000 identities watched, takes less than this. */
export const WATCH_ROUND_MS = 3000;

/** A URL given at run time that the address check refuses (loopback, private, metadata) is answered within this, before any connection. */
export const REFUSED_URL_ANSWER_MS = 500;

/** …whether its port is open or closed: the medians of the two differ by less than this (nothing tells them apart). */
export const REFUSED_URL_SPREAD_MS = 50;

/** Beyond the chain's deadline and PROVIDER_TIMEOUT_MS, how late a login step or userinfo answers when an Information Provider hangs. */
export const PROVIDER_SLACK_MS = 750;

/** Beyond its timeout and Node's sweep of connections, how late a slow client's connection is closed. */
export const SLOW_CLIENT_CUT_SLACK_MS = 500;

/** A connection past HTTP_MAX_CONNECTIONS is closed within this of its arrival, before a byte of it is read. */
export const OVER_CAP_CLOSE_MS = 500;
