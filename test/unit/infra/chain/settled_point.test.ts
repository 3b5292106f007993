// When a chain's events count as settled: its own setting, else the one for every chain, else
// the documented default for its id; a chain Signet has no default for is said to be unknown.
import { describeSettled, KNOWN_SETTLED_POINTS, settledPointFor } from '../../../../src/infra/chain/settled_point.js';

test('the well-known chains have their documented defaults', () => {
  expect(Object.fromEntries([...KNOWN_SETTLED_POINTS].map(([id, { settled }]) => [id, describeSettled(settled)]))).toEqual({
    1: '12 confirmations',
    11155111: '12 confirmations',
    137: 'finalized',
    10: '10 confirmations',
    8453: '10 confirmations',
    42161: '20 confirmations',
    56: 'finalized',
  });
});

test("a chain's own setting comes first, then the one for every chain, then its id's default", () => {
  expect(settledPointFor(1, 'safe', 3)).toEqual({ settled: { tag: 'safe' }, known: true });
  expect(settledPointFor(1, undefined, 3)).toEqual({ settled: { confirmations: 3 }, known: true });
  expect(settledPointFor(1)).toEqual({ settled: { confirmations: 12 }, known: true });
  expect(settledPointFor(56)).toEqual({ settled: { tag: 'finalized' }, known: true });
});

test('a local development chain acts on the newest block; another unknown chain does too, and is said to be unknown', () => {
  expect(settledPointFor(31337)).toEqual({ settled: { confirmations: 0 }, known: true });
  expect(settledPointFor(987654)).toEqual({ settled: { confirmations: 0 }, known: false });
  expect(describeSettled({ confirmations: 1 })).toBe('1 confirmation');
});
