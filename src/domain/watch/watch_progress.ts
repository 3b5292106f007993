// How far the watcher has come, as /admin/readiness and the metrics show it: head, cursor and
// settled point, the lag in blocks and in seconds, since when it has been behind (said once at
// warn past lagWarnSeconds), and its latest round and failure (said once per outage, not once
// per poll).
import type { Config } from '../../config/config.js';
import { describeSettled, type SettledPoint } from '../../infra/chain/settled_point.js';
import type { Logger } from '../../infra/observability/logger.js';
import type { Metrics } from '../../infra/observability/metrics.js';
import { StageError, type WatchStage } from './round_stage.js';

/** What /admin/readiness shows of the watcher, in the process that holds its lease. */
export type ChainWatchReport = {
  head: number;
  /** The last block whose events were all handled. */
  cursor: number;
  /** head - cursor. */
  lag_blocks: number;
  /** Seconds since the newest block whose events were all handled was made (as far as its time is known). */
  lag_seconds?: number;
  /** The newest block taken as settled; the watcher reads nothing past it. */
  settled: number;
  /** What makes a block settled: "12 confirmations", "safe", "finalized". */
  settled_by: string;
  /** Since when the watcher has not reached the settled point (absent: it is there). */
  behind_since?: string;
  /** When the last round that read the chain completed. */
  last_round_at?: string;
  /** The latest failed round (where, and when); the cursor stayed, the range is read again. */
  last_error?: { stage: WatchStage; at: string };
};

export type WatchProgressDeps = {
  settings: Pick<Config['chainWatch'], 'lagWarnSeconds' | 'pollMs'>;
  settled: SettledPoint;
  /** The chain's `chain_id` label, if any. */
  chainLabel: { chain_id?: string };
  metrics?: Metrics;
  logger?: Logger;
  now: () => number;
};

export type WatchProgress = {
  /** The lease is lost: only the holder reports where it is. */
  forget(): void;
  /** The newest block whose events were all handled and whose time is known. */
  handled(): { block: bigint; timestamp: number } | undefined;
  handledUpTo(block: bigint, timestamp: number): void;
  /** Where the round stands now. */
  observe(head: bigint, cursor: bigint, settledAt: bigint): void;
  /** Where the round left the cursor against the settled point: behind since when, said once past the bound. */
  keepUp(reached: boolean): void;
  succeeded(): void;
  failed(stage: WatchStage, error: unknown): void;
  /** Undefined before the first round that read the chain since the lease was taken. */
  report(): ChainWatchReport | undefined;
};

export function createWatchProgress(deps: WatchProgressDeps): WatchProgress {
  const { settings, metrics, chainLabel, now } = deps;
  let state: { head: bigint; cursor: bigint; settled: bigint } | undefined;
  /** The newest fully handled block whose time is known. */
  let handled: { block: bigint; timestamp: number } | undefined;
  /** Since when the cursor has been short of the settled point (or the rounds failed). */
  let behindSince: number | undefined;
  let warnedBehind = false;
  let lastRoundAt: number | undefined;
  let lastError: { stage: WatchStage; at: number } | undefined;
  let failing = false;

  const lagSeconds = () => (handled ? Math.max(0, Math.round(now() / 1000 - handled.timestamp)) : undefined);
  const keepUp = (reached: boolean) => {
    if (reached) {
      if (warnedBehind) deps.logger?.info('the chain watcher has reached the settled point again');
      behindSince = undefined;
      warnedBehind = false;
      return;
    }
    behindSince ??= now();
    if (!warnedBehind && now() - behindSince >= settings.lagWarnSeconds * 1000) {
      warnedBehind = true;
      deps.logger?.warn(
        `the chain watcher has not reached the settled point for ${Math.round((now() - behindSince) / 1000)} s (bound ${settings.lagWarnSeconds} s): consents that chain events end are ended late`,
        { lag_blocks: state ? Number(state.head - state.cursor) : undefined, lag_seconds: lagSeconds() },
      );
    }
  };

  return {
    forget() {
      state = undefined;
    },
    handled: () => handled,
    handledUpTo(block, timestamp) {
      handled = { block, timestamp };
    },
    observe(head, cursor, settledAt) {
      state = { head, cursor, settled: settledAt };
      metrics?.chainWatchLag.set(chainLabel, Number(head > cursor ? head - cursor : 0n));
      const seconds = lagSeconds();
      if (seconds !== undefined) metrics?.chainWatchLagSeconds.set(chainLabel, seconds);
    },
    keepUp,
    succeeded() {
      lastRoundAt = now();
      if (failing) deps.logger?.info('the chain watcher reads the chain again');
      failing = false;
    },
    failed(stage, error) {
      lastError = { stage, at: now() };
      metrics?.chainWatchErrors.inc({ ...chainLabel, stage });
      keepUp(false);
      // Once per outage, not once per poll.
      if (!failing) {
        deps.logger?.error(
          `the chain watcher round failed (${stage}); the cursor stays, the range is read again every ${settings.pollMs} ms`,
          error instanceof StageError ? error.cause : error,
        );
      }
      failing = true;
    },
    report() {
      if (!state) return undefined;
      const { head, cursor } = state;
      const seconds = lagSeconds();
      return {
        head: Number(head),
        cursor: Number(cursor),
        lag_blocks: Number(head > cursor ? head - cursor : 0n),
        ...(seconds === undefined ? {} : { lag_seconds: seconds }),
        settled: Number(state.settled),
        settled_by: describeSettled(deps.settled),
        ...(behindSince === undefined ? {} : { behind_since: new Date(behindSince).toISOString() }),
        ...(lastRoundAt === undefined ? {} : { last_round_at: new Date(lastRoundAt).toISOString() }),
        ...(lastError ? { last_error: { stage: lastError.stage, at: new Date(lastError.at).toISOString() } } : {}),
      };
    },
  };
}
