// The one rule for a date or a time as text: the shape, then the calendar's check (a day that
// exists) or the clock's (what Date.parse reads, a 31st in any month), each told apart here.
import { DATE_SHAPE, dayOf, readsAsTime, TIME_SHAPE } from '../../../src/base/dates.js';

test.each([
  ['1815-12-10', { year: 1815, month: 12, day: 10, at: Date.UTC(1815, 11, 10) }],
  ['2000-02-29', { year: 2000, month: 2, day: 29, at: Date.UTC(2000, 1, 29) }],
  ['2026-01-31', { year: 2026, month: 1, day: 31, at: Date.UTC(2026, 0, 31) }],
])('%s is a day of the calendar', (text, day) => {
  expect(dayOf(text)).toEqual(day);
  expect(readsAsTime(text)).toBe(true);
});

test.each(['2001-02-29', '2001-02-30', '2001-02-31', '2001-04-31'])('%s has the shape, the clock reads it, but the calendar has no such day', (text) => {
  expect(DATE_SHAPE.test(text)).toBe(true);
  expect(readsAsTime(text)).toBe(true);
  expect(dayOf(text)).toBeUndefined();
});

test.each(['2001-13-01', '2001-00-10', '2001-01-00', '2001-02-32'])('%s has the shape, and neither check takes it', (text) => {
  expect(DATE_SHAPE.test(text)).toBe(true);
  expect(readsAsTime(text)).toBe(false);
  expect(dayOf(text)).toBeUndefined();
});

test.each(['2001-1-01', '01-01-2001', '2001-25-01', '2001-01-45', '2001-01-01T00:00:00Z', ' 2001-01-01', '20010101', ''])('%j is not a date', (text) => {
  expect(DATE_SHAPE.test(text)).toBe(false);
  expect(dayOf(text)).toBeUndefined();
});

test.each(['2026-12-02T01:30Z', '2026-12-02T01:30:15+01:00', '2026-12-02T01:30:15.250-05:30'])('%s is a time', (text) => {
  expect(TIME_SHAPE.test(text)).toBe(true);
  expect(readsAsTime(text)).toBe(true);
});

test.each(['2026-12-02', '2026-12-02T01:30', '2026-12-02T01:30:15', '2026-12-02 01:30Z', '2026-12-02T24:61Z', '2026-12-02T01:30:15+0100'])(
  '%j is not a time as the standard writes one',
  (text) => expect(TIME_SHAPE.test(text)).toBe(false),
);

test('the clock reads what the shape does not ask for (a claim expiry in words), and not a text that names no moment', () => {
  expect(readsAsTime('2 December 2026')).toBe(true);
  expect(readsAsTime('next Tuesday')).toBe(false);
  expect(readsAsTime('')).toBe(false);
});
