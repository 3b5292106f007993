// When the chain watcher takes a block's events as settled: a number of blocks under the head,
// or the block the node names `safe` or `finalized`. The watcher reads nothing past that point,
// so an event that a reorganisation removes before it settles ends nothing, and a block that a
// reorganisation replaces is read only once it has settled (docs/decisions.md, 40).

export type SettledPoint = { confirmations: number } | { tag: 'safe' | 'finalized' };

/** How a setting writes it: a number of confirmations, or "safe" or "finalized". */
export type SettledSetting = number | 'safe' | 'finalized';

export const settledPointOf = (setting: SettledSetting): SettledPoint => (typeof setting === 'number' ? { confirmations: setting } : { tag: setting });

/** For people and /admin/readiness: "12 confirmations", "safe", "finalized". */
export const describeSettled = (point: SettledPoint): string =>
  'tag' in point ? point.tag : `${point.confirmations} confirmation${point.confirmations === 1 ? '' : 's'}`;

/**
 * Defaults for well-known chains, weighed between how soon a consent ends and how deep the
 * chain reorganises (docs/operations.md, "Running on a public chain", has the reasons).
 */
export const KNOWN_SETTLED_POINTS: ReadonlyMap<number, { name: string; settled: SettledPoint }> = new Map([
  // Post-merge reorganisations are one or two blocks deep; `safe` trails by 6 to 13 minutes.
  [1, { name: 'Ethereum', settled: { confirmations: 12 } }],
  [11155111, { name: 'Sepolia', settled: { confirmations: 12 } }],
  // Milestones make Polygon PoS blocks final within seconds.
  [137, { name: 'Polygon PoS', settled: { tag: 'finalized' } }],
  // OP Stack: the sequencer's blocks reorganise only when its batch fails to land; `safe` trails by minutes.
  [10, { name: 'OP Mainnet', settled: { confirmations: 10 } }],
  [8453, { name: 'Base', settled: { confirmations: 10 } }],
  // Arbitrum makes a block every 0.25 s; its sequencer does not reorganise what it published.
  [42161, { name: 'Arbitrum One', settled: { confirmations: 20 } }],
  // Fast finality: a block is final two or three blocks later.
  [56, { name: 'BNB Smart Chain', settled: { tag: 'finalized' } }],
]);

/** Chain ids of local development chains (anvil, Hardhat, Ganache): nothing reorganises them. */
const LOCAL_CHAIN_IDS = new Set([1337, 31337]);

/**
 * The settled point of a chain: its own setting, else the one for every chain, else the
 * default for its id; `known` is false where Signet has no default and took 0 (the start warns).
 */
export function settledPointFor(chainId: number, own?: SettledSetting, everyChain?: SettledSetting): { settled: SettledPoint; known: boolean } {
  const given = own ?? everyChain;
  if (given !== undefined) return { settled: settledPointOf(given), known: true };
  const known = KNOWN_SETTLED_POINTS.get(chainId);
  if (known) return { settled: known.settled, known: true };
  return { settled: { confirmations: 0 }, known: LOCAL_CHAIN_IDS.has(chainId) };
}
