// eth_getLogs in the block ranges an endpoint accepts. A range refused for its width or its
// result size (provider_limits.ts) is split and asked again on the same endpoint; a refused
// width is remembered on the endpoint (its logRange), so later queries, and the chain watcher
// (RpcEndpoints.logBlockRange), ask no more. A result-size refusal narrows only the stretch at
// hand: the next range may hold fewer logs.
import type { Logger } from '../observability/logger.js';
import { logsRefusalOf } from './provider_limits.js';
import type { Endpoint, EndpointCall } from './rpc_endpoint.js';

/** Ranges are never learned below one block. */
const ONE = 1n;

const hex = (value: bigint) => `0x${value.toString(16)}`;

export type LogsInRanges = (endpoint: Endpoint, filter: Record<string, unknown>, deadline: () => number) => Promise<unknown[]>;

export function createLogsInRanges(call: EndpointCall, options: { chainId: number; logger?: Logger }): LogsInRanges {
  const log = options.logger;
  return async (endpoint, filter, deadline) => {
    const { fromBlock, toBlock } = filter;
    if (typeof fromBlock !== 'string' || typeof toBlock !== 'string' || !fromBlock.startsWith('0x') || !toBlock.startsWith('0x')) {
      return (await call(endpoint, 'eth_getLogs', [filter], deadline())) as unknown[];
    }
    const last = BigInt(toBlock);
    const logs: unknown[] = [];
    let start = BigInt(fromBlock);
    let narrowed: bigint | undefined;
    while (start <= last) {
      const span = narrowed ?? (endpoint.logRange === undefined ? last - start + ONE : BigInt(endpoint.logRange));
      const end = start + span - ONE < last ? start + span - ONE : last;
      try {
        const part = (await call(endpoint, 'eth_getLogs', [{ ...filter, fromBlock: hex(start), toBlock: hex(end) }], deadline())) as unknown[];
        logs.push(...part);
        start = end + ONE;
        narrowed = undefined;
      } catch (error) {
        const refusal = logsRefusalOf(error);
        const asked = end - start + ONE;
        if (!refusal || asked === ONE) throw error;
        const fits = smallerSpan(refusal, start, asked);
        if (refusal.kind === 'range') {
          if (endpoint.logRange === undefined || fits < BigInt(endpoint.logRange)) {
            log?.info(`chain ${options.chainId}: RPC endpoint ${endpoint.label} takes at most ${fits} blocks per eth_getLogs; later queries ask no more`);
          }
          endpoint.logRange = Number(fits);
        } else {
          narrowed = fits;
        }
      }
    }
    return logs;
  };
}

/** The span to ask next after a refusal of `asked` blocks from `start`: the provider's hint, else half. */
function smallerSpan(refusal: NonNullable<ReturnType<typeof logsRefusalOf>>, start: bigint, asked: bigint): bigint {
  const { suggested, maxBlocks } = refusal;
  if (suggested && suggested.from === start && suggested.to >= start && suggested.to - start + ONE < asked) return suggested.to - start + ONE;
  if (maxBlocks !== undefined && maxBlocks >= 1 && BigInt(maxBlocks) < asked) return BigInt(maxBlocks);
  const half = asked / 2n;
  return half < ONE ? ONE : half;
}
