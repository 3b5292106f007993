// A read sent ahead is taken once, only within its window, and a write of its key drops it.
import { createReadAhead, READ_AHEAD_MS } from '../../../../src/infra/store/read_ahead.js';

test('taken once, within the window; dropped or replaced, never stale', async () => {
  const clock = { now: 1_000 };
  const ahead = createReadAhead<string>(() => clock.now);
  ahead.send('k', Promise.resolve('first'));
  expect(await ahead.take('k')).toBe('first');
  expect(ahead.take('k')).toBeUndefined();

  ahead.send('k', Promise.resolve('late'));
  clock.now += READ_AHEAD_MS + 1;
  expect(ahead.take('k')).toBeUndefined();

  ahead.send('k', Promise.resolve('old'));
  ahead.send('k', Promise.resolve('new'));
  expect(await ahead.take('k')).toBe('new');

  ahead.send('k', Promise.resolve('before a write'));
  ahead.drop('k');
  expect(ahead.take('k')).toBeUndefined();
});

test("a failed read nobody takes is nobody's failure; the one who takes it gets the failure", async () => {
  const ahead = createReadAhead<string>();
  ahead.send('untaken', Promise.reject(new Error('Redis is down')));
  ahead.send('taken', Promise.reject(new Error('Redis is down')));
  await expect(ahead.take('taken')).rejects.toThrow('Redis is down');
});
