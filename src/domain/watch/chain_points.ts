// The two blocks a round reads first: the head, and the newest settled block (settled_point.ts:
// head - confirmations, or the node's safe or finalized block), with its time where the round
// already has it.
import type { PublicClient } from 'viem';
import type { SettledPoint } from '../../infra/chain/settled_point.js';

export type ChainPoints = { head: bigint; last: bigint; lastTime?: number };

export async function readChainPoints(client: PublicClient, settled: SettledPoint): Promise<ChainPoints> {
  const head = await client.getBlock({ blockTag: 'latest' });
  if ('tag' in settled) {
    const point = await client.getBlock({ blockTag: settled.tag });
    return { head: head.number, last: point.number, lastTime: Number(point.timestamp) };
  }
  const last = head.number - BigInt(settled.confirmations);
  return { head: head.number, last: last > 0n ? last : 0n, lastTime: settled.confirmations === 0 ? Number(head.timestamp) : undefined };
}
