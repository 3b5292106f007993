// What the engine's read of a record told (its grant, a session's uid), kept for the engine's
// next step on that record in the same request of the same process, so that step needs no read
// of its own.

// How many records' grants (or sessions' uids) are remembered between the engine's read and its next step.
const REMEMBERED = 1000;

/** What the engine's read of a record told, kept for its next step on that record in the same request (bounded: the oldest go). */
export function rememberedOfRead() {
  const of = new Map<string, string>();
  return {
    remember(key: string, value: string) {
      of.delete(key);
      of.set(key, value);
      if (of.size > REMEMBERED) of.delete(of.keys().next().value!);
    },
    /** Once: the value is forgotten as it is taken. */
    take(key: string): string | undefined {
      const value = of.get(key);
      of.delete(key);
      return value;
    },
  };
}
