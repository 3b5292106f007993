// Measures a parsed JSON value without recursion: its nesting depth and its longest string
// (keys included), so a body can be refused before any handler walks it.

export type JsonShape = { depth: number; longestString: number };

/** Depth counts containers: `1` and `"x"` are 0 deep, `{}` and `[1]` are 1, `{"a":[1]}` is 2. */
export function measureJson(value: unknown, stopAtDepth = Number.POSITIVE_INFINITY): JsonShape {
  let depth = 0;
  let longestString = 0;
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value === 'string') {
      longestString = Math.max(longestString, item.value.length);
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    const inner = item.depth + 1;
    depth = Math.max(depth, inner);
    // Past the bound the exact depth no longer matters; stop walking deeper.
    if (inner > stopAtDepth) continue;
    if (Array.isArray(item.value)) {
      for (const element of item.value) pending.push({ value: element, depth: inner });
    } else {
      for (const [key, element] of Object.entries(item.value)) {
        longestString = Math.max(longestString, key.length);
        pending.push({ value: element, depth: inner });
      }
    }
  }
  return { depth, longestString };
}
