// A stored profile is checked against its schema as it is read; the answer for a text read
// before is the same object, frozen (every reader gets it), and a changed text is read anew.
import { parseProfile } from '../../../../src/domain/profile/profile.js';

test('the same text gives the same frozen profile; another text its own', () => {
  const raw = JSON.stringify({ given_name: 'Ada', address: { locality: 'London' } });
  const first = parseProfile(raw);
  expect(first).toEqual({ given_name: 'Ada', address: { locality: 'London' } });
  expect(parseProfile(raw)).toBe(first);
  expect(Object.isFrozen(first)).toBe(true);
  expect(Object.isFrozen(first.address)).toBe(true);
  expect(parseProfile(JSON.stringify({ given_name: 'Grace' }))).toEqual({ given_name: 'Grace' });
  expect(parseProfile(undefined)).toEqual({});
});

test('a stored text the schema refuses is refused each time it is read', () => {
  const raw = JSON.stringify({ email: 'not an e-mail' });
  expect(() => parseProfile(raw)).toThrow();
  expect(() => parseProfile(raw)).toThrow();
});
