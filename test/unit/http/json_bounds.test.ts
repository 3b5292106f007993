// measureJson: depth and longest string of a parsed value, without recursion.
import { measureJson } from '../../../src/http/json_bounds.js';

test('depth counts containers; scalars are 0 deep', () => {
  expect(measureJson(1)).toEqual({ depth: 0, longestString: 0 });
  expect(measureJson('abc')).toEqual({ depth: 0, longestString: 3 });
  expect(measureJson({})).toEqual({ depth: 1, longestString: 0 });
  expect(measureJson({ a: [1] })).toEqual({ depth: 2, longestString: 1 });
  expect(measureJson([[], [[{ k: 'xy' }]]])).toEqual({ depth: 4, longestString: 2 });
});

test('keys count as strings', () => {
  expect(measureJson({ [`k${'x'.repeat(99)}`]: 1 })).toEqual({ depth: 1, longestString: 100 });
});

test('a value nested 100 000 levels is measured without overflowing the stack, and the walk stops past the bound', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  expect(measureJson(deep).depth).toBe(100_000);
  expect(measureJson(deep, 8).depth).toBe(9);
});
