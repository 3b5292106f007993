// The status list tokens a process has signed, each answered again for a few seconds rather than
// signed anew on every request: a verifier's fetch then costs one Redis read (the list's
// revision) and a cache lookup, and a list is signed once in that time however many ask at once
// (those arriving while it is signed share the signing). A revocation changes the list's
// revision, so the next request, on any process, signs the list with its new bit: the cache
// never hides a revocation. A failed signing (Redis down) is not kept.
import { LRUCache } from 'lru-cache';

export type KeptStatusToken = { token: string; signedAt: number };

export function keptStatusTokens(
  options: { keptSeconds: number; lists: number; now: () => number; revisionOf: (list: number) => Promise<string | undefined> },
  sign: (list: number, signedAt: number) => Promise<string>,
) {
  // Keyed by list and revision: `<list>.<revision>`.
  const kept = new LRUCache<string, KeptStatusToken>({
    max: options.lists,
    ttl: options.keptSeconds * 1000,
    // Signet's clock, which tests move.
    perf: { now: options.now },
    fetchMethod: async (key) => {
      const signedAt = Math.floor(options.now() / 1000);
      return { token: await sign(Number(key.split('.')[0]), signedAt), signedAt };
    },
  });
  return {
    /** The list's token as it stands now, signed at most `keptSeconds` ago (`signedAt` in epoch seconds). */
    of: async (list: number): Promise<KeptStatusToken> => (await kept.fetch(`${list}.${(await options.revisionOf(list)) ?? ''}`))!,
  };
}
