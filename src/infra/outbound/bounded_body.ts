// How Signet reads the body of an answer from a server it does not run (a client's logo, an
// information provider's answer): chunk by chunk, up to a bound and no further, so that a server
// that sends more than it should costs Signet no more than the bound, and one that says it will
// (its Content-Length) costs nothing read.

/** The body's bytes, read until `maxBytes` and no further: undefined once it is over them or declares it will be (the rest is cancelled); none read as empty. */
export async function bodyUpTo(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!response.body) return new Uint8Array();
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body.cancel().catch(() => {});
    return undefined;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
