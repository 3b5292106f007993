// Captures what a Signet logger writes, for tests that read its JSON lines: the raw text as
// written (a test may clear it) and the lines parsed.
import { Writable } from 'node:stream';

export function captureLogs<Line>() {
  const written: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  const lines = (): Line[] =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
  return { written, destination, lines };
}
