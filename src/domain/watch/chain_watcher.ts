// Follows the chain for the events that end consents (docs/operations.md, "Following the
// chain"). Every pollMs, the process holding the lease (watch_lease.ts) reads the head, the
// settled point (settled_point.ts: head - confirmations, or the node's safe or finalized block)
// and its cursor (watch_cursor.ts), asks eth_getLogs for the blocks after the cursor up to the
// settled point and never past it, in ranges of at most maxBlockRange (and no more than the RPC
// endpoint takes, as it learned: src/infra/chain/rpc_endpoints.ts), filtered by address: the watched
// identities (watchlist.ts) and the claim issuers, in chunks; it hands each event, in chain
// order, to the consent handlers, and moves the cursor past a range only once all of them
// succeeded. A failure (chain, store or handler) keeps the cursor: the range is read again on
// the next round. A round's cost is the head's header (and the settled block's where that is
// not the head, once handled, for the lag in seconds), and per new range one eth_getLogs per
// chunk of watched addresses: nothing per grant, and no eth_getLogs at all with no address.
// When every endpoint rests after a 429, the
// next round waits for the first Retry-After. A watcher that has not reached the settled point
// for lagWarnSeconds says so once, at warn. The round is here; its parts are the blocks it
// reads first (chain_points.ts), a range's events (watched_logs.ts), where it stands and what
// it reports (watch_progress.ts), and the stage a failure is counted in (round_stage.ts).
import { randomUUID } from 'node:crypto';
import type { Address, PublicClient } from 'viem';
import type { Config } from '../../config/config.js';
import { createWorkerLoop } from '../../infra/background/worker_loop.js';
import type { ChainNaming } from '../../infra/chain/chains.js';
import type { RpcEndpoints } from '../../infra/chain/rpc_endpoints.js';
import { type SettledPoint, settledPointOf } from '../../infra/chain/settled_point.js';
import type { Logger } from '../../infra/observability/logger.js';
import type { Metrics } from '../../infra/observability/metrics.js';
import type { Store } from '../../infra/store/store.js';
import { nextRange } from './block_ranges.js';
import { readChainPoints } from './chain_points.js';
import { type ChainConsentHandlers, dispatch } from './consent_handlers.js';
import { at, StageError, type WatchStage } from './round_stage.js';
import { createWatchCursor } from './watch_cursor.js';
import { createWatchLease } from './watch_lease.js';
import { type ChainWatchReport, createWatchProgress } from './watch_progress.js';
import { watchedEventsIn } from './watched_logs.js';
import type { Watchlist } from './watchlist.js';

export { type ChainConsentHandlers, noConsentEnds } from './consent_handlers.js';

export type { ChainWatchReport, WatchStage };

export type RoundResult = {
  outcome: 'followed' | 'standby' | 'failed' | 'stopped';
  /** eth_getLogs calls made. */
  getLogs: number;
  events: number;
  /** Block ranges completed (the cursor moved past them). */
  ranges: number;
  ms: number;
  failedAt?: WatchStage;
};

export type ChainWatcher = {
  /** Rounds every pollMs from now on (idempotent). */
  start(): void;
  /** Ends the rounds, waiting for the one in flight, and lets another process take the lease. */
  stop(): Promise<void>;
  /** One round now, after any in flight (the timer's rounds call this too). */
  round(): Promise<RoundResult>;
  /** The watcher's state while this process holds the lease; undefined otherwise. */
  report(): ChainWatchReport | undefined;
};

export type ChainWatcherDeps = {
  store: Store;
  client: PublicClient;
  /** Another chain than the default one: its own lease and cursor (the default chain's keys are as with one chain). */
  chainId?: number;
  watchlist: Watchlist;
  /** ClaimIssuer contracts whose ClaimRevoked events count (the trusted ones, Signet's own). */
  issuers: readonly Address[];
  handlers: ChainConsentHandlers;
  settings: Config['chainWatch'];
  /** When a block's events count (default: settings.confirmations as a number of blocks or a tag, else 0). */
  settled?: SettledPoint;
  /** The chain's endpoints: the eth_getLogs range they take, and when they rest after a 429. */
  endpoints?: Pick<RpcEndpoints, 'logBlockRange' | 'restingUntil'>;
  metrics?: Metrics;
  /** The chain's id in the metrics' `chain_id` label (default: `chainId`, else none). */
  metricsChainId?: number;
  logger?: Logger;
  /** Addresses in one eth_getLogs filter (default 1000). */
  addressesPerCall?: number;
  now?: () => number;
};

const DEFAULT_ADDRESSES_PER_CALL = 1000;

export function createChainWatcher(deps: ChainWatcherDeps): ChainWatcher {
  const { settings, metrics, client } = deps;
  const now = deps.now ?? Date.now;
  const perCall = deps.addressesPerCall ?? DEFAULT_ADDRESSES_PER_CALL;
  const lease = createWatchLease(deps.store, randomUUID(), settings.leaseSeconds, deps.chainId);
  const cursorKey = createWatchCursor(deps.store, deps.chainId);
  const issuers = new Set(deps.issuers.map((issuer) => issuer.toLowerCase()));
  const leaseRenewMs = (settings.leaseSeconds * 1000) / 3;
  const settled: SettledPoint = deps.settled ?? settledPointOf(settings.confirmations ?? 0);
  const labelled = deps.metricsChainId ?? deps.chainId;
  const chainLabel: { chain_id?: string } = labelled === undefined ? {} : { chain_id: String(labelled) };

  const progress = createWatchProgress({ settings, settled, chainLabel, metrics, logger: deps.logger, now });

  let holding = false;
  let heldAt = 0;

  const setHolding = (held: boolean) => {
    if (held && !holding) deps.logger?.info('the chain watcher lease is taken: this process follows the chain');
    holding = held;
    metrics?.chainWatchLeaseHeld.set(chainLabel, held ? 1 : 0);
    if (held) return;
    progress.forget();
    // Only the holder reports a lag: the others read 0 (and signet_chain_watch_lease_held 0).
    metrics?.chainWatchLag.set(chainLabel, 0);
  };
  /** Renews the lease when a third of it has passed (long rounds: many ranges, slow handlers). */
  const stillHeld = async () => {
    if (performance.now() - heldAt < leaseRenewMs) return true;
    const held = await at('store', () => lease.hold());
    if (held) heldAt = performance.now();
    else setHolding(false);
    return held;
  };
  /** Every block up to `block` is handled: its time, read once per new block where the round did not read it already. */
  const handledUpTo = async (block: bigint, time: number | undefined) => {
    if (progress.handled()?.block === block) return;
    const timestamp = time ?? Number((await at('chain', () => client.getBlock({ blockNumber: block }))).timestamp);
    progress.handledUpTo(block, timestamp);
  };
  /** The most blocks one range asks: the setting, and no more than the endpoint takes. */
  const rangeSize = () => Math.min(settings.maxBlockRange, deps.endpoints?.logBlockRange() ?? settings.maxBlockRange);

  const succeeded = (result: RoundResult) => {
    progress.succeeded();
    return result;
  };

  const runRound = async (active: () => boolean): Promise<RoundResult> => {
    const started = performance.now();
    const result: RoundResult = { outcome: 'followed', getLogs: 0, events: 0, ranges: 0, ms: 0 };
    try {
      const held = await at('store', () => lease.hold()).catch((error: unknown) => {
        // Without the store nobody can hold the lease: this process stops reporting as its holder.
        setHolding(false);
        throw error;
      });
      setHolding(held);
      if (!held) {
        result.outcome = 'standby';
        return result;
      }
      heldAt = performance.now();
      const { head, last, lastTime } = await at('chain', () => readChainPoints(client, settled));
      let cursor = await at('store', () => cursorKey.readOrStart(last));
      if (cursor >= last) await handledUpTo(last, lastTime);
      progress.observe(head, cursor, last);
      if (!nextRange(cursor, last, rangeSize())) {
        progress.keepUp(true);
        return succeeded(result);
      }
      // Read after the head: an identity listed before this round's head was read is in the filter.
      const identities = await at('store', () => deps.watchlist.identities());
      const from = { identities: new Set(identities.map((identity) => identity.toLowerCase())), issuers };
      const addresses = [...new Set([...from.identities, ...issuers])] as Address[];
      for (let range = nextRange(cursor, last, rangeSize()); range; range = nextRange(cursor, last, rangeSize())) {
        if (result.ranges > 0 && (!active() || !(await stillHeld()))) break;
        // With no address to follow there is nothing to ask for: the cursor moves to the end at once.
        if (!addresses.length) range = { from: range.from, to: last };
        const events = addresses.length ? await watchedEventsIn(client, range, addresses, from, perCall, result) : [];
        for (const watched of events) {
          if (!(await stillHeld())) {
            result.outcome = 'standby';
            return result;
          }
          await at('handler', () => dispatch(deps.handlers, watched));
          result.events++;
          metrics?.chainWatchEvents.inc({ ...chainLabel, type: watched.type });
        }
        if (!(await at('store', () => cursorKey.advance(cursor, range!.to)))) {
          // Another process moved it: it holds the lease now; this one stands by.
          setHolding(false);
          result.outcome = 'standby';
          return result;
        }
        cursor = range.to;
        result.ranges++;
        if (cursor === last) await handledUpTo(last, lastTime);
        progress.observe(head, cursor, last);
      }
      progress.keepUp(cursor >= last);
      return succeeded(result);
    } catch (error) {
      const stage = error instanceof StageError ? error.stage : 'store';
      result.outcome = 'failed';
      result.failedAt = stage;
      progress.failed(stage, error);
      return result;
    } finally {
      result.ms = performance.now() - started;
      metrics?.chainWatchRounds.inc({ ...chainLabel, outcome: result.outcome });
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  const round = (active: () => boolean = () => true): Promise<RoundResult> => {
    const next = queue.then(() => runRound(active));
    // Rounds run one after another; the caller gets this round's failure from `next`, the chain only waits for it.
    queue = next.catch(() => {});
    return next;
  };

  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  const loop = createWorkerLoop(
    async (active) => {
      while (active()) {
        await round(active);
        // Every endpoint rests after a 429: nothing is asked before the first Retry-After ends.
        const resting = deps.endpoints?.restingUntil();
        if (active()) await pause(Math.max(settings.pollMs, resting === undefined ? 0 : resting - Date.now()));
      }
      if (holding) await lease.release().catch(() => {});
      setHolding(false);
    },
    () => wake?.(),
  );

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    round: () => round(),
    report: () => (holding ? progress.report() : undefined),
  };
}

/** The ClaimIssuer contracts whose revocations count: the trusted ones, and Signet's own (on `chainId`: those of that chain). */
export function claimIssuersOf(config: Pick<Config, 'claims' | 'claimIssuer'>, chainId?: number, signetIssuer?: Address): Address[] {
  const trusted = config.claims.trustedIssuers.filter((each) => chainId === undefined || each.chain_id === undefined || each.chain_id === chainId);
  const own = signetIssuer ?? config.claimIssuer?.address;
  return [...trusted.map((each) => each.address as Address), ...(own ? [own as Address] : [])];
}

/**
 * Several chains' watchers as one, each given with its chain: each starts and stops with the
 * others; round and report are the default chain's watcher's (the chain whose records name no
 * chain, as `namingsOf` decides), and every chain's rounds run too.
 */
export function watchersAsOne(all: readonly { watcher: ChainWatcher; chain: Pick<ChainNaming, 'idInRecords'> }[]): ChainWatcher {
  const reported = all.findIndex(({ chain }) => chain.idInRecords === undefined);
  if (reported < 0) throw new Error('watchersAsOne: no watcher of the default chain');
  const watchers = all.map(({ watcher }) => watcher);
  const own = watchers[reported]!;
  if (watchers.length === 1) return own;
  return {
    start: () => {
      for (const each of watchers) each.start();
    },
    stop: async () => {
      await Promise.all(watchers.map((each) => each.stop()));
    },
    round: async () => (await Promise.all(watchers.map((each) => each.round())))[reported]!,
    report: () => own.report(),
  };
}
