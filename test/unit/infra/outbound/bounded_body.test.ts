// An answer's body is read up to its bound and no further: all of it within the bound, nothing
// (and the rest cancelled) once it goes over or says it will, an empty body as no bytes.
import { bodyUpTo } from '../../../../src/infra/outbound/bounded_body.js';

/** A body sent in chunks, telling whether the reader cancelled it. */
function chunked(chunks: string[]) {
  const seen = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[seen.pulled++];
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body), seen };
}

test('a body within the bound is read whole, to the bound exactly', async () => {
  const { response, seen } = chunked(['abc', 'def']);
  expect(Buffer.from((await bodyUpTo(response, 6))!).toString()).toBe('abcdef');
  expect(seen.cancelled).toBe(false);
});

test('a body over the bound is none, and its rest is not read', async () => {
  const { response, seen } = chunked(['abc', 'def', 'ghi', 'jkl']);
  expect(await bodyUpTo(response, 5)).toBeUndefined();
  expect(seen.cancelled).toBe(true);
  expect(seen.pulled).toBeLessThan(4);
});

test('no body is no bytes', async () => {
  expect(await bodyUpTo(new Response(null), 10)).toEqual(new Uint8Array());
});

test('a body whose Content-Length is over the bound is none, and nothing of it is read', async () => {
  const seen = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulled++;
        controller.enqueue(new TextEncoder().encode('abcdef'));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  expect(await bodyUpTo(new Response(body, { headers: { 'content-length': '6' } }), 5)).toBeUndefined();
  expect(seen).toEqual({ cancelled: true, pulled: 0 });
});
