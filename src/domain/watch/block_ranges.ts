// How the watcher cuts its work into eth_getLogs calls: blocks in ranges of at most
// maxBlockRange, addresses in chunks (providers bound both the range and the filter's size).

/** The next range after `cursor` up to `last`, at most `maxBlocks` long; undefined when caught up. */
export function nextRange(cursor: bigint, last: bigint, maxBlocks: number): { from: bigint; to: bigint } | undefined {
  if (cursor >= last) return undefined;
  const from = cursor + 1n;
  const to = from + BigInt(maxBlocks) - 1n;
  return { from, to: to < last ? to : last };
}

/** `items` in consecutive chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
