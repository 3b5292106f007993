// Every Prometheus metric Signet exports, named once, on one registry per process.
// The HTTP middleware, the engine's events and the process collectors fill some; the others
// are hooks for the parts that see the event (chain client, store, rate limits, webhooks):
// they call e.g. `metrics.chainCalls.inc({ method, outcome })` where it happens.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10];

export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'signet_' });
  const registers = [registry];
  /** Read at each scrape: the queue fills these in when it exists (server.ts). */
  const sources: { webhookDeadLetters?: () => Promise<number>; webhookQueueDepth?: () => Promise<number> } = {};
  return {
    sources,
    registry,
    /** HTTP: requests by route template (never the raw path) and status; latency. */
    httpRequests: new Counter({
      name: 'signet_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'signet_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route template',
      labelNames: ['method', 'route'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    /** Connections closed as soon as accepted because the process held HTTP_MAX_CONNECTIONS (src/app/http_server.ts). */
    httpConnectionsDropped: new Counter({
      name: 'signet_http_connections_dropped_total',
      help: 'Connections closed on arrival because the process already held its most open connections',
      registers,
    }),
    /** Logins: outcome success or failure, with the error reason ("none" for success). */
    loginOutcomes: new Counter({
      name: 'signet_login_outcomes_total',
      help: 'Signed consents submitted at the end of a login, by outcome and reason',
      labelNames: ['outcome', 'reason'] as const,
      registers,
    }),
    /** The engine's own errors (engine event name and OAuth error code). */
    engineErrors: new Counter({
      name: 'signet_engine_errors_total',
      help: 'Errors the OIDC engine reported, by event and error code',
      labelNames: ['event', 'error'] as const,
      registers,
    }),
    /** One per JSON-RPC call, outcome ok | error | timeout (chain_calls.ts around the client's fetch). */
    chainCalls: new Counter({
      name: 'signet_chain_calls_total',
      help: 'JSON-RPC calls to the chain, by method and outcome (and chain_id, the chain called)',
      labelNames: ['method', 'outcome', 'chain_id'] as const,
      registers,
    }),
    chainCallDuration: new Histogram({
      name: 'signet_chain_call_duration_seconds',
      help: 'JSON-RPC call latency, by method (and chain_id)',
      labelNames: ['method', 'chain_id'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    /** One per attempt at one RPC endpoint (src/infra/chain/rpc_endpoints.ts), named by its label or host, never its URL. */
    chainEndpointCalls: new Counter({
      name: 'signet_chain_endpoint_requests_total',
      help: 'JSON-RPC requests to each RPC endpoint, by outcome (ok, answered_error: the node answered an error; rate_limited; failed; timeout)',
      labelNames: ['chain_id', 'endpoint', 'outcome'] as const,
      registers,
    }),
    chainEndpointDuration: new Histogram({
      name: 'signet_chain_endpoint_request_duration_seconds',
      help: 'JSON-RPC request latency, by RPC endpoint',
      labelNames: ['chain_id', 'endpoint'] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    chainEndpointUp: new Gauge({
      name: 'signet_chain_endpoint_up',
      help: '1 while an RPC endpoint takes calls; 0 while it is failed (probed until it answers) or rate limited (until its Retry-After)',
      labelNames: ['chain_id', 'endpoint'] as const,
      registers,
    }),
    /** Redis: kind connection (a client error event) or command (refused as an outage); redis_store's onError. */
    redisErrors: new Counter({
      name: 'signet_redis_errors_total',
      help: 'Redis commands or connections that failed, by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
    /** Signet's requests to other Information Providers, counted as each ends (app_parts.ts). */
    providerRequests: new Counter({
      name: 'signet_provider_requests_total',
      help: 'Requests to other Information Providers for claim data held there, by provider name, step (access_request, validation, read) and outcome (the HTTP status, timeout, failed, garbage, too_large, redirect_refused)',
      labelNames: ['provider', 'step', 'outcome'] as const,
      registers,
    }),
    /** Counted from 429 answers; the limiter may add its own limit name. */
    rateLimitHits: new Counter({
      name: 'signet_rate_limit_hits_total',
      help: 'Requests refused by a rate limit, by route template',
      labelNames: ['route'] as const,
      registers,
    }),
    /** The webhook queue: attempts counted through its onAttempt, depth and dead letters read at each scrape (server.ts). */
    webhookQueueDepth: new Gauge({
      name: 'signet_webhook_queue_depth',
      help: 'Webhook events waiting for delivery or retry',
      registers,
      async collect() {
        if (sources.webhookQueueDepth) this.set(await sources.webhookQueueDepth().catch(() => Number.NaN));
      },
    }),
    webhookDeliveries: new Counter({
      name: 'signet_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retry, dead, interrupted by a stop)',
      labelNames: ['outcome'] as const,
      registers,
    }),
    /** The chain watcher (src/domain/watch/chain_watcher.ts): set by the process that holds its lease. */
    chainWatchLag: new Gauge({
      name: 'signet_chain_watch_lag_blocks',
      help: 'Blocks between the chain head and the last block the chain watcher fully handled (the lease holder reports it)',
      aggregator: 'max',
      labelNames: ['chain_id'] as const,
      registers,
    }),
    chainWatchLagSeconds: new Gauge({
      name: 'signet_chain_watch_lag_seconds',
      help: 'Seconds since the newest block the chain watcher fully handled was made (the lease holder reports it)',
      aggregator: 'max',
      labelNames: ['chain_id'] as const,
      registers,
    }),
    chainWatchLeaseHeld: new Gauge({
      name: 'signet_chain_watch_lease_held',
      help: '1 while this process holds the chain watcher lease and follows the chain',
      labelNames: ['chain_id'] as const,
      registers,
    }),
    chainWatchRounds: new Counter({
      name: 'signet_chain_watch_rounds_total',
      help: 'Chain watcher rounds, by outcome (followed: this process holds the lease and read the chain; standby: another holds it; failed)',
      labelNames: ['outcome', 'chain_id'] as const,
      registers,
    }),
    chainWatchErrors: new Counter({
      name: 'signet_chain_watch_errors_total',
      help: 'Chain watcher rounds that failed, by where (chain, store, handler); the cursor stays and the range is read again',
      labelNames: ['stage', 'chain_id'] as const,
      registers,
    }),
    chainWatchEvents: new Counter({
      name: 'signet_chain_watch_events_total',
      help: 'Chain events handed to the consent handlers, by type',
      labelNames: ['type', 'chain_id'] as const,
      registers,
    }),
    webhookDeadLetters: new Gauge({
      name: 'signet_webhook_dead_letters',
      help: 'Webhook events that exhausted their retries and wait for a replay',
      registers,
      async collect() {
        if (sources.webhookDeadLetters) this.set(await sources.webhookDeadLetters().catch(() => Number.NaN));
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
