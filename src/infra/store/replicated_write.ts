// The store's writes that replicas must hold before they count (RedisStoreOptions.waitReplicas):
// a single-use mark, a revocation. Replication is asynchronous, so without WAIT a failover can
// lose a write the master had acknowledged.
import { storeUnavailable } from './redis_guard.js';
import type { ScriptedRedis } from './store_scripts.js';

type Commands = Record<string, (...args: (string | number)[]) => unknown>;

/** Runs `command` (a script's name, or a plain command) as a write that must not be lost. */
export type ReplicatedWrite = <T>(command: string, ...args: (string | number)[]) => Promise<T>;

/**
 * A write that must not be lost in a failover: sent with WAIT right behind it in one pipeline,
 * so WAIT runs on the connection (and, on a cluster, the node) that took the write. Without
 * replicas to wait for (waitReplicas 0), the command alone.
 */
export function createReplicatedWrite(redis: ScriptedRedis, waitReplicas: number, waitTimeoutMs: number): ReplicatedWrite {
  return async <T>(command: string, ...args: (string | number)[]): Promise<T> => {
    if (!waitReplicas) return (await (redis as unknown as Commands)[command]!(...args)) as T;
    const chain = redis.pipeline() as unknown as Commands & { exec(): Promise<[Error | null, unknown][] | null> };
    chain[command]!(...args);
    chain.wait!(waitReplicas, waitTimeoutMs);
    const [[writeError, result], [waitError, acknowledged]] = (await chain.exec()) as [[Error | null, unknown], [Error | null, unknown]];
    if (writeError) throw writeError;
    if (waitError) throw waitError;
    if (Number(acknowledged) < waitReplicas) {
      throw storeUnavailable(new Error(`${acknowledged} of ${waitReplicas} replicas acknowledged within ${waitTimeoutMs} ms`));
    }
    return result as T;
  };
}
