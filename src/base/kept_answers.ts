// The answers of a pure function of a text, kept for the texts asked last: for what a request
// parses again and again (a subject, a stored profile, a token's scope) and the same text gives
// the same answer. Bounded: past `most` texts, the oldest kept goes. The answer is shared by
// every caller, so it must not be changed (freeze it where it is an object).

export function keptAnswers<T>(most: number, answer: (text: string) => T, options: { keepIf?: (text: string) => boolean } = {}): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    // One lookup when the answer is kept (an answer may be undefined: then whether it is kept).
    const held = kept.get(text);
    if (held !== undefined || kept.has(text)) return held as T;
    const value = answer(text);
    if (options.keepIf && !options.keepIf(text)) return value;
    if (kept.size >= most) kept.delete(kept.keys().next().value!);
    kept.set(text, value);
    return value;
  };
}
