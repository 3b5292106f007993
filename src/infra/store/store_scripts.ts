// The store's Lua scripts (scripts/*.lua), one per multi-key step, each atomic and one round
// trip. Most build on index_library.lua, the functions that keep an index (a sorted set scored
// by the server's clock) and the TTL of the key that holds it.
import type { Redis } from 'ioredis';
import { defineLuaScripts, type LuaScriptSpec, readLuaScripts } from './lua_scripts.js';
import type { RedisClient } from './redis_connection.js';
import type { MarkOutcome } from './store.js';

const withIndexes: LuaScriptSpec = { library: 'index_library.lua' };

export const STORE_SCRIPTS = readLuaScripts(new URL('./scripts/', import.meta.url), {
  'add_to_indexes_unless.lua': withIndexes,
  'add_to_indexes.lua': withIndexes,
  'add_to_indexes_within.lua': withIndexes,
  'index_members_live.lua': { ...withIndexes, numberOfKeys: 1 },
  'remove_from_index.lua': { ...withIndexes, numberOfKeys: 1 },
  'retime_member.lua': withIndexes,
  'put_record.lua': withIndexes,
  'mark_once.lua': withIndexes,
  'close_indexes.lua': {},
  'read_counting_attempt.lua': { numberOfKeys: 3 },
  'compare_and_set.lua': { numberOfKeys: 1 },
  'get_via_lookup.lua': { numberOfKeys: 1 },
});

/** A client with the store's scripts as commands; a server's and a cluster's command API is the same. */
export type ScriptedRedis = Redis & {
  addToIndexesUnless(numberOfKeys: number, ...args: string[]): Promise<[number, ...string[]]>;
  addToIndexes(numberOfKeys: number, ...args: string[]): Promise<number>;
  addToIndexesWithin(numberOfKeys: number, ...args: string[]): Promise<number>;
  indexMembersLive(key: string): Promise<string[]>;
  removeFromIndex(key: string, ...members: string[]): Promise<number>;
  retimeMember(numberOfKeys: number, ...args: string[]): Promise<string[]>;
  putRecord(numberOfKeys: number, ...args: string[]): Promise<number>;
  markOnce(numberOfKeys: number, ...args: string[]): Promise<MarkOutcome>;
  closeIndexes(numberOfKeys: number, ...args: string[]): Promise<string[]>;
  readCountingAttempt(
    record: string,
    mark: string,
    counter: string,
    field: string,
    value: string,
    fallbackMs: string,
  ): Promise<[string | null, string | null, number]>;
  compareAndSet(key: string, next: string, life: string, ...expected: string[]): Promise<[number, string | null]>;
  getViaLookup(lookupKey: string, ...beforeAndAfter: string[]): Promise<(string | null | false)[]>;
};

export function defineStoreScripts(client: RedisClient): ScriptedRedis {
  defineLuaScripts(client, STORE_SCRIPTS);
  return client as ScriptedRedis;
}
