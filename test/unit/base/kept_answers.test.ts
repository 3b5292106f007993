// The answers kept per text: asked again, a text's answer is the one computed first (not computed
// again); past the bound the oldest text goes and is computed anew; a text the caller does not
// want kept is computed each time; an answer that throws is not kept.
import { keptAnswers } from '../../../src/base/kept_answers.js';

test('an answer is computed once per text, within the bound; the oldest text goes first', () => {
  const asked: string[] = [];
  const lengthOf = keptAnswers(2, (text) => {
    asked.push(text);
    return text.length;
  });
  expect([lengthOf('a'), lengthOf('bb'), lengthOf('a'), lengthOf('bb')]).toEqual([1, 2, 1, 2]);
  expect(asked).toEqual(['a', 'bb']);
  expect(lengthOf('ccc')).toBe(3);
  // 'a' was the oldest: it went, and is computed again.
  expect(lengthOf('a')).toBe(1);
  expect(asked).toEqual(['a', 'bb', 'ccc', 'a']);
});

test('a text refused by keepIf, and an answer that throws, are never kept', () => {
  let computed = 0;
  const check = keptAnswers(
    10,
    (text) => {
      computed++;
      if (text === 'bad') throw new Error('refused');
      return text;
    },
    { keepIf: (text) => text.length < 5 },
  );
  check('long text');
  check('long text');
  expect(computed).toBe(2);
  expect(() => check('bad')).toThrow('refused');
  expect(() => check('bad')).toThrow('refused');
  expect(computed).toBe(4);
});
