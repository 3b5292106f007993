/**
 * The harness's default deadlines, for tests that are not about outages. A shared CI host
 * stalls a process for over a second now and then (CPU steal: a jest worker once saw 1.9 s
 * between two timer ticks), and at the shipped 500 ms per Redis command and 1.5 s per request's chain reads such a stall
 * read as an outage: a 503 in the middle of a login test. Outage tests ask for 'production'.
 */
export const RELAXED_DEADLINES = {
  redis: { commandTimeoutMs: 5000, reconnectMaxDelayMs: 250, waitReplicas: 0 },
  chainTimeouts: { requestMs: 10_000, callMs: 10_000 },
};
