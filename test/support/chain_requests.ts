// JSON-RPC requests Signet sends, by chain id (one request, one round trip): `observe` goes into
// each chain's client (createChainClient's `observe`), `during` counts what a piece of work sent.
export function chainRequestCounter(chainIds: readonly number[]) {
  const sent = new Map<number, number>();
  return {
    observe:
      (chainId: number) =>
      (fetchFn: typeof fetch): typeof fetch =>
      (input, init) => {
        sent.set(chainId, (sent.get(chainId) ?? 0) + 1);
        return fetchFn(input, init);
      },
    /** The answer of `work` and the requests it sent on each chain. */
    async during<T>(work: () => Promise<T>): Promise<{ answer: T; trips: Record<number, number> }> {
      sent.clear();
      const answer = await work();
      return { answer, trips: Object.fromEntries(chainIds.map((chainId) => [chainId, sent.get(chainId) ?? 0])) };
    },
  };
}
