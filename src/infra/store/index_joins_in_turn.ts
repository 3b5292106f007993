// On one server, the index joins asked in the same turn of the event loop (a consent's
// watchlist entry and its indexes, say) go as one script: one clock reading, one EVALSHA. Each
// join keeps its own meaning; they succeed or fail together. Sent on the next tick, the script
// still leaves with the turn's other commands (the client pipelines a tick's commands).
import type { ScriptedRedis } from './store_scripts.js';

type Joins = { keys: string[]; args: string[]; waiting: { resolve: () => void; reject: (error: unknown) => void }[] };

/** Lists `key`'s member with the joins of this turn: args are its member, ttl and only-later flag (add_to_indexes.lua). */
export type IndexJoinInTurn = (key: string, args: readonly [string, string, string]) => Promise<void>;

export function createIndexJoinsInTurn(redis: ScriptedRedis): IndexJoinInTurn {
  let joins: Joins | undefined;
  return (key, args) =>
    new Promise<void>((resolve, reject) => {
      if (!joins) {
        const batch: Joins = { keys: [], args: [], waiting: [] };
        joins = batch;
        process.nextTick(() => {
          joins = undefined;
          redis.addToIndexes(batch.keys.length, ...batch.keys, ...batch.args).then(
            () => {
              for (const each of batch.waiting) each.resolve();
            },
            (error: unknown) => {
              for (const each of batch.waiting) each.reject(error);
            },
          );
        });
      }
      joins.keys.push(key);
      joins.args.push(...args);
      joins.waiting.push({ resolve, reject });
    });
}
