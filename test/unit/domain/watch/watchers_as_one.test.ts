// Several chains' watchers act as one: all start, stop and run their rounds together; the round
// and report given back are the default chain's watcher's (the chain whose records name no chain),
// wherever it stands in the list.
import type { ChainWatcher, RoundResult } from '../../../../src/domain/watch/chain_watcher.js';
import { watchersAsOne } from '../../../../src/domain/watch/chain_watcher.js';
import type { ChainWatchReport } from '../../../../src/domain/watch/watch_progress.js';

/** A watcher that tells what it was asked, and answers with its own events count and head. */
function watcherOf(events: number, asked: string[]): ChainWatcher {
  return {
    start: () => void asked.push(`start ${events}`),
    stop: async () => void asked.push(`stop ${events}`),
    round: async (): Promise<RoundResult> => {
      asked.push(`round ${events}`);
      return { outcome: 'followed', getLogs: 1, events, ranges: 1, ms: 1 };
    },
    report: () => ({ head: events }) as ChainWatchReport,
  };
}

test('the default chain’s watcher is the one reported, though listed last', async () => {
  const asked: string[] = [];
  const one = watchersAsOne([
    { watcher: watcherOf(10, asked), chain: { idInRecords: 10 } },
    { watcher: watcherOf(1, asked), chain: { idInRecords: undefined } },
  ]);
  one.start();
  expect((await one.round()).events).toBe(1);
  expect(one.report()?.head).toBe(1);
  await one.stop();
  expect(asked.sort()).toEqual(['round 1', 'round 10', 'start 1', 'start 10', 'stop 1', 'stop 10']);
});

test('one watcher is itself; none of the default chain is an error', () => {
  const watcher = watcherOf(1, []);
  expect(watchersAsOne([{ watcher, chain: { idInRecords: undefined } }])).toBe(watcher);
  expect(() => watchersAsOne([{ watcher, chain: { idInRecords: 5 } }])).toThrow('watchersAsOne: no watcher of the default chain');
});
