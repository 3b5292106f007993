// The watched events of a block range: one eth_getLogs per chunk of addresses (a filter names at
// most so many), decoded, kept only where they concern a watched identity or a counted issuer,
// and put in chain order, the order the consent handlers take them in.
import type { Address, PublicClient } from 'viem';
import { chunks } from './block_ranges.js';
import { type DecodedLog, inChainOrder, type WatchedEvent, watchedEventOf, watchedEvents } from './chain_events.js';
import { at } from './round_stage.js';

export async function watchedEventsIn(
  client: PublicClient,
  range: { from: bigint; to: bigint },
  addresses: Address[],
  from: { identities: Set<string>; issuers: Set<string> },
  perCall: number,
  count: { getLogs: number },
): Promise<WatchedEvent[]> {
  const found: WatchedEvent[] = [];
  for (const chunk of chunks(addresses, perCall)) {
    count.getLogs++;
    const logs = await at('chain', () => client.getLogs({ address: chunk, events: watchedEvents, fromBlock: range.from, toBlock: range.to, strict: true }));
    for (const log of logs as unknown as DecodedLog[]) {
      const watched = watchedEventOf(log, from);
      if (watched) found.push(watched);
    }
  }
  return found.sort((a, b) => inChainOrder(a.event, b.event));
}
