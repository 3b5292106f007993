// Store over ioredis, on one server, a Sentinel-watched master or a Redis Cluster. Multi-key
// steps run as Lua scripts registered with defineCommand (sent as EVALSHA once loaded), so each
// is atomic and costs one round trip. On a cluster a script may only touch one hash slot: the
// keys (keys.ts) put what one step needs under one hash tag, and the steps whose keys cannot
// share a slot (a record and its lookups, the records a revoked grant deletes or a token bound
// evicts, a consumed record and its grant index entry) are split here, in an order that keeps their guarantee. The client fails fast when Redis is gone (no offline
// queue, a command deadline) and reconnects on its own.
import { Cluster, type Redis } from 'ioredis';
import { defaultNumber } from '../../config/config.js';
import {
  bySlot,
  createRedisClient,
  REDIS_CLIENT_DEFAULTS,
  type RedisClient,
  type RedisClientTuning,
  type RedisConnection,
  redisClientOptions,
  slotGroup,
} from './redis_connection.js';
import { type RedisGuard, redisGuard, storeUnavailable } from './redis_guard.js';
import type { BoundedIndex, RecordWrite, Store } from './store.js';

export type RedisStoreOptions = RedisClientTuning & {
  /**
   * Replicas that must hold a single-use or revocation write before it counts (WAIT), 0 = none.
   * Replication is asynchronous: without it a failover can lose such a write the master had
   * acknowledged. When fewer acknowledge within half the command deadline: store_unavailable.
   */
  waitReplicas?: number;
  /** Told of each connection error and each command refused as an outage (the metrics count them). */
  onError?: (kind: 'connection' | 'command') => void;
};
export const REDIS_STORE_DEFAULTS = REDIS_CLIENT_DEFAULTS;
export { redisClientOptions };

// An index is a sorted set: member -> the epoch ms it is listed until, on the server's clock
// ('inf': until removed). Each write first drops the members whose time has passed, and the
// set expires with its latest member (PEXPIREAT), or never while one is listed until removed.
// A record and the index that lists it are scored by the same clock on one server (one
// script); on a cluster the index's node scores a record after the record's node set its TTL,
// by the same TTL, so a member never leaves before its record.
const INDEX_LUA = `
local function clock_ms()
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function ms(value) return string.format('%.0f', value) end
-- Strictly before now: Redis keeps a key through the very millisecond its expiry names, so a
-- member scored with that millisecond leaves only once its record has.
local function drop_past(key, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. ms(now))
end
local function expire_with_last(key)
  local last = redis.call('ZRANGE', key, 0, 0, 'REV', 'WITHSCORES')
  if #last == 0 then return end
  if last[2] == 'inf' then
    redis.call('PERSIST', key)
  else
    redis.call('PEXPIREAT', key, last[2])
  end
end
-- What a join reads first, its index's time left, tells it what a new member needs: no index yet
-- (-2, so nothing to drop), one listing a member until removed (-1, so it stays), or the score of
-- its latest member (its expiry always is that score: every other write sets it by
-- expire_with_last). A member listed again may come earlier, perhaps the latest: then the index's
-- expiry is read again from its members.
local function add_to_index(key, member, ttl, now, only_later)
  local left = redis.call('PTTL', key)
  if left ~= -2 then drop_past(key, now) end
  local until_ms = now + ttl * 1000
  local score = ttl == 0 and '+inf' or ms(until_ms)
  if only_later then
    redis.call('ZADD', key, 'GT', score, member)
  elseif redis.call('ZADD', key, score, member) == 0 then
    expire_with_last(key)
    return
  end
  if ttl == 0 then
    if left >= 0 then redis.call('PERSIST', key) end
  elseif left == -2 or (left >= 0 and until_ms > now + left) then
    redis.call('PEXPIREAT', key, score)
  end
end
local function retime_member(key, member, keep_ms, now)
  drop_past(key, now)
  redis.call('ZADD', key, 'XX', 'LT', ms(now + keep_ms), member)
  expire_with_last(key)
end
-- A bounded index (Store's RecordWrite.bounded): lists member as add_to_index does, then removes
-- the members past at_most that leave soonest, never member itself, and returns them.
local function add_within_bound(key, member, ttl, now, at_most)
  add_to_index(key, member, ttl, now, false)
  local over = redis.call('ZCARD', key) - at_most
  if over <= 0 then return {} end
  local evicted = {}
  for _, candidate in ipairs(redis.call('ZRANGE', key, 0, over)) do
    if candidate ~= member and #evicted < over then evicted[#evicted + 1] = candidate end
  end
  redis.call('ZREM', key, unpack(evicted))
  expire_with_last(key)
  return evicted
end
-- The evicted members leave the other indexes that list them too.
local function remove_from_all(indexes, members)
  if #members == 0 then return end
  for _, index in ipairs(indexes) do
    redis.call('ZREM', index, unpack(members))
    expire_with_last(index)
  end
end
-- On one server, in the same script: the evicted records go, with their marks (each suffix).
local function delete_records(records, marks)
  for _, record in ipairs(records) do
    redis.call('DEL', record)
    for _, suffix in ipairs(marks) do redis.call('DEL', record .. suffix) end
  end
end`;

// Index joins on one clock reading: one, or on one server those asked in one turn of the event
// loop. KEYS: the indexes. ARGV: per index its member, its ttl (0: until removed) and '1' to only
// ever move the member's time later (GT).
const ADD_TO_INDEXES = `${INDEX_LUA}
local now = clock_ms()
for i, key in ipairs(KEYS) do
  local at = (i - 1) * 3
  add_to_index(key, ARGV[at + 1], tonumber(ARGV[at + 2]), now, ARGV[at + 3] == '1')
end
return 1`;

// ARGV: member, ttl (0: until removed), the most other members the index may list.
const ADD_TO_INDEX_WITHIN = `${INDEX_LUA}
local now = clock_ms()
drop_past(KEYS[1], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
add_to_index(KEYS[1], ARGV[1], tonumber(ARGV[2]), now, false)
return 1`;

// KEYS: the indexes; ARGV: member, ttl, then each index's bound. Returns 0 when listed in all,
// else the 1-based place of the first index already full (nothing written then).
const ADD_TO_INDEXES_WITHIN = `${INDEX_LUA}
local now = clock_ms()
for i, key in ipairs(KEYS) do
  drop_past(key, now)
  if not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return i end
end
for _, key in ipairs(KEYS) do add_to_index(key, ARGV[1], tonumber(ARGV[2]), now, false) end
return 0`;

// The listed members, the past ones dropped first.
const INDEX_MEMBERS = `${INDEX_LUA}
drop_past(KEYS[1], clock_ms())
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

const REMOVE_FROM_INDEX = `${INDEX_LUA}
redis.call('ZREM', KEYS[1], unpack(ARGV))
expire_with_last(KEYS[1])
return 1`;

// On a cluster, beside markOnce (whose record is in another slot): KEYS index, and the bounded
// index the member then joins if it is still listed (optional). ARGV member, keep ms, and with
// the bounded index its bound. Returns the members the bound evicted, for their records' slots.
const RETIME_MEMBER = `${INDEX_LUA}
local now = clock_ms()
retime_member(KEYS[1], ARGV[1], tonumber(ARGV[2]), now)
if #KEYS < 2 or not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {} end
local evicted = add_within_bound(KEYS[2], ARGV[1], tonumber(ARGV[2]) / 1000, now, tonumber(ARGV[3]))
remove_from_all({KEYS[1]}, evicted)
return evicted`;

// KEYS: record, unless ('' slot unused when absent), then clear…, alias…, index… keys, and the
// bounded index when there is one. ARGV: value, ttl (0 = none), has_unless, #clear, #aliases,
// #indexes, alias values…, the bound (0: no bounded index), the evicted records' mark suffixes….
const PUT_RECORD = `${INDEX_LUA}
local ttl = tonumber(ARGV[2])
if ARGV[3] == '1' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
local clears, aliases, indexes = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local at = 3
for i = 1, clears do redis.call('DEL', KEYS[at]); at = at + 1 end
for i = 1, aliases do
  if ttl > 0 then
    redis.call('SET', KEYS[at], ARGV[6 + i], 'EX', ttl)
  else
    redis.call('SET', KEYS[at], ARGV[6 + i])
  end
  at = at + 1
end
local bound_at = 7 + aliases
local at_most = tonumber(ARGV[bound_at] or '0')
-- The server's clock only where an index scores the record.
local now = (indexes > 0 or at_most > 0) and clock_ms() or 0
local joined = {}
for i = 1, indexes do add_to_index(KEYS[at], KEYS[1], ttl, now); joined[i] = KEYS[at]; at = at + 1 end
if at_most > 0 then
  local marks = {}
  for i = bound_at + 1, #ARGV do marks[#marks + 1] = ARGV[i] end
  local evicted = add_within_bound(KEYS[at], KEYS[1], ttl, now, at_most)
  remove_from_all(joined, evicted)
  delete_records(evicted, marks)
end
return 1`;

// The mark inherits the record's remaining life to the millisecond, so it never outlives it.
// KEYS: record, mark, and the index listing the record (one server only), and a bounded index
// (optional). ARGV: value, keep ms (0: the record keeps its life; else the mark that takes
// effect cuts the record's life to it, and re-times the record's member of the index), and
// with the bounded index its bound and the evicted records' mark suffixes…: a record still
// listed in the index then joins it for what is left of its life.
const MARK_ONCE = `${INDEX_LUA}
local left = redis.call('PTTL', KEYS[1])
if left == -2 then return 'missing' end
local keep = tonumber(ARGV[2])
local cut = keep > 0 and (left == -1 or left > keep)
if cut then left = keep end
local marked
if left == -1 then
  marked = redis.call('SET', KEYS[2], ARGV[1], 'NX')
else
  marked = redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', left)
end
if not marked then return 'already_marked' end
-- Uncut, the record keeps its life and its member its time: the index is left alone.
local now
if cut then
  redis.call('PEXPIRE', KEYS[1], left)
  if #KEYS > 2 then
    now = clock_ms()
    retime_member(KEYS[3], KEYS[1], left, now)
  end
end
if keep > 0 and #KEYS > 2 then
  if #KEYS > 3 and redis.call('ZSCORE', KEYS[3], KEYS[1]) then
    now = now or clock_ms()
    local marks = {}
    for i = 4, #ARGV do marks[#marks + 1] = ARGV[i] end
    local evicted = add_within_bound(KEYS[4], KEYS[1], left / 1000, now, tonumber(ARGV[3]))
    remove_from_all({KEYS[3]}, evicted)
    delete_records(evicted, marks)
  end
end
return 'marked'`;

// KEYS: record, mark, counter (one hash tag). ARGV: field, value, fallback ms. The record and
// its mark; and, for an unmarked record whose JSON field holds the value, one more attempt,
// the counter expiring with the record to the millisecond.
const READ_COUNTING_ATTEMPT = `
local read = redis.call('MGET', KEYS[1], KEYS[2])
local raw, mark = read[1], read[2]
if not raw or mark then return {raw, mark, 0} end
local ok, record = pcall(cjson.decode, raw)
if not ok or type(record) ~= 'table' or record[ARGV[1]] ~= ARGV[2] then return {raw, false, 0} end
local attempts = redis.call('INCR', KEYS[3])
if attempts == 1 then
  local left = redis.call('PTTL', KEYS[1])
  redis.call('PEXPIRE', KEYS[3], left > 0 and left or ARGV[3])
end
return {raw, false, attempts}`;

// KEYS: the tombstone, then the indexes. Every member of each, once, the past ones too (their
// records are gone or about to go: deleting is harmless).
const CLOSE_INDEXES = `
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
local members, seen = {}, {}
for i = 2, #KEYS do
  for _, member in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
    if not seen[member] then
      seen[member] = true
      members[#members + 1] = member
    end
  end
  redis.call('DEL', KEYS[i])
end
return members`;

// GET, and SET when the value is one of the expected ones: keeping the TTL (ARGV[2] '-'), with
// no expiry ('0') or with a new one (seconds).
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, false} end
for i = 3, #ARGV do
  if current == ARGV[i] then
    if ARGV[2] == '-' then
      redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
    elseif ARGV[2] == '0' then
      redis.call('SET', KEYS[1], ARGV[1])
    else
      redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
    end
    return {1, current}
  end
end
return {0, current}`;

// On a cluster: the index joins of a record, refused ({0}) while the tombstone exists. KEYS: the
// tombstone (with ARGV[3] '1'), the indexes, and the bounded index (with a bound ARGV[4] > 0),
// all of one hash tag (the grant's). ARGV: member, ttl. Returns {1, members the bound evicted…}:
// their records are in other slots, deleted next.
const ADD_TO_INDEXES_UNLESS = `${INDEX_LUA}
local first = 1
if ARGV[3] == '1' then
  if redis.call('EXISTS', KEYS[1]) == 1 then return {0} end
  first = 2
end
local at_most = tonumber(ARGV[4])
local last = at_most > 0 and #KEYS - 1 or #KEYS
local now = clock_ms()
local joined = {}
for i = first, last do add_to_index(KEYS[i], ARGV[1], tonumber(ARGV[2]), now); joined[#joined + 1] = KEYS[i] end
if at_most == 0 then return {1} end
local evicted = add_within_bound(KEYS[#KEYS], ARGV[1], tonumber(ARGV[2]), now, at_most)
remove_from_all(joined, evicted)
return {1, unpack(evicted)}`;

// A lookup and the keys it leads to, on one server: KEYS[1] holds an id; each pair of ARGV is
// the text before and after the id in one key read. Returns the id, then a value per key.
const GET_VIA_LOOKUP = `
local id = redis.call('GET', KEYS[1])
if not id then return {} end
local out = {id}
for i = 1, #ARGV, 2 do out[#out + 1] = redis.call('GET', ARGV[i] .. id .. ARGV[i + 1]) end
return out`;

// Stands for the id in the keys of getViaLookup, to split them around it.
const ID_PLACEHOLDER = '\u0000id\u0000';

// The command API of a server client and of a cluster client is the same; one type serves both.
type Scripted = Redis & {
  addToIndexesUnless(numberOfKeys: number, ...args: string[]): Promise<[number, ...string[]]>;
  addToIndexes(numberOfKeys: number, ...args: string[]): Promise<number>;
  addToIndexWithin(key: string, member: string, ttl: string, max: string): Promise<number>;
  addToIndexesWithin(numberOfKeys: number, ...args: string[]): Promise<number>;
  indexMembersLive(key: string): Promise<string[]>;
  removeFromIndex(key: string, ...members: string[]): Promise<number>;
  retimeMember(numberOfKeys: number, ...args: string[]): Promise<string[]>;
  putRecord(numberOfKeys: number, ...args: string[]): Promise<number>;
  markOnce(numberOfKeys: number, ...args: string[]): Promise<'marked' | 'already_marked' | 'missing'>;
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

function defineScripts(client: RedisClient): Scripted {
  const redis = client as Redis;
  redis.defineCommand('addToIndexesUnless', { lua: ADD_TO_INDEXES_UNLESS });
  redis.defineCommand('addToIndexes', { lua: ADD_TO_INDEXES });
  redis.defineCommand('addToIndexWithin', { numberOfKeys: 1, lua: ADD_TO_INDEX_WITHIN });
  redis.defineCommand('addToIndexesWithin', { lua: ADD_TO_INDEXES_WITHIN });
  redis.defineCommand('indexMembersLive', { numberOfKeys: 1, lua: INDEX_MEMBERS });
  redis.defineCommand('removeFromIndex', { numberOfKeys: 1, lua: REMOVE_FROM_INDEX });
  redis.defineCommand('retimeMember', { lua: RETIME_MEMBER });
  redis.defineCommand('putRecord', { lua: PUT_RECORD });
  redis.defineCommand('markOnce', { lua: MARK_ONCE });
  redis.defineCommand('closeIndexes', { lua: CLOSE_INDEXES });
  redis.defineCommand('readCountingAttempt', { numberOfKeys: 3, lua: READ_COUNTING_ATTEMPT });
  redis.defineCommand('compareAndSet', { numberOfKeys: 1, lua: COMPARE_AND_SET });
  redis.defineCommand('getViaLookup', { numberOfKeys: 1, lua: GET_VIA_LOOKUP });
  return redis as Scripted;
}

/** A Redis store, with its client and its guard for parts that bring their own Redis logic (rate limits). */
export type RedisStore = Store & {
  readonly kind: 'redis';
  /** A server's or a cluster's client (the command API is the same; keys of one step share a slot). */
  readonly client: Redis;
  /** Runs commands on `client` under the store's guard (redis_guard.ts): first connection, deadline, outage = 503. */
  guarded: RedisGuard;
};

/** The store on a connection (a plain string is a REDIS_URL). */
export function createRedisStore(connection: RedisConnection | string, options: RedisStoreOptions = {}): RedisStore {
  const client = createRedisClient(connection, options);
  client.on('error', () => options.onError?.('connection'));
  return wrapRedis(client, options);
}

export function wrapRedis(client: RedisClient, options: RedisStoreOptions = {}): RedisStore {
  const redis = defineScripts(client);
  // A cluster serves each slot from its own master: multi-key commands are split per slot.
  const sharded = client instanceof Cluster;
  const { commandTimeoutMs } = { ...REDIS_STORE_DEFAULTS, ...options };
  const guard = redisGuard(client, { commandTimeoutMs, onOutage: () => options.onError?.('command') });
  const waitReplicas = options.waitReplicas ?? defaultNumber('redis.waitReplicas');
  const waitTimeoutMs = Math.max(10, Math.floor(commandTimeoutMs / 2));
  /**
   * A write that must not be lost in a failover: sent with WAIT right behind it in one pipeline,
   * so WAIT runs on the connection (and, on a cluster, the node) that took the write.
   */
  type Commands = Record<string, (...args: (string | number)[]) => unknown>;
  const replicated = async <T>(command: string, ...args: (string | number)[]): Promise<T> => {
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
  const seconds = (ttl: number) => Math.max(1, Math.ceil(ttl));
  const ttlArg = (write: RecordWrite) => String(write.ttlSeconds && write.ttlSeconds > 0 ? seconds(write.ttlSeconds) : 0);
  /** A bounded index's script arguments: its bound (0: none), then its marks' suffixes. */
  const boundArgs = (bounded: BoundedIndex | undefined) => (bounded ? [String(bounded.atMost), ...(bounded.marks ?? [])] : ['0']);
  /** On a cluster, the records a bound evicted (in their own slots) and their marks: one DEL per slot, all at once. */
  const deleteEvicted = async (evicted: readonly string[], bounded: BoundedIndex) => {
    if (!evicted.length) return;
    const doomed = evicted.flatMap((record) => [record, ...(bounded.marks ?? []).map((suffix) => record + suffix)]);
    await Promise.all(bySlot(doomed).map((group) => replicated('del', ...group)));
  };

  /**
   * putRecord on a cluster, where a record, its grant's index and its lookups live in different
   * slots. The record (with the keys it clears, which share its tag) is written first; then its
   * indexes, refused while the tombstone exists (tombstone and indexes share the grant's tag).
   * A refusal deletes the record again. A revocation between the two steps either finds the
   * record in the index and deletes it, or leaves the tombstone that refuses the index and
   * makes this write delete it: no record of a revoked grant survives. The record's id is not
   * yet known to any client while this runs, so the moment it exists unindexed is harmless.
   * Lookups (uid, user code) are written last: they point at a record that exists.
   * With a bounded index (which shares the tombstone's and the indexes' tag), the index join
   * decides the bound in the index's slot, and the records it evicts are deleted before this
   * returns: the new record, which no client knows yet, is handed out only once they are gone.
   */
  const putRecordAcrossSlots = async (write: RecordWrite): Promise<boolean> => {
    const ttl = ttlArg(write);
    const clear = write.clear ?? [];
    const strays = clear.filter((key) => slotGroup(key) !== slotGroup(write.key));
    if (strays.length) throw new Error(`putRecord: ${strays.join(', ')} must share the hash tag of ${write.key}`);
    const recordKeys = [write.key, write.key, ...clear];
    await redis.putRecord(recordKeys.length, ...recordKeys, write.value, ttl, '0', String(clear.length), '0', '0', '0');
    const indexes = write.indexes ?? [];
    const { bounded } = write;
    const together = [...(write.unless ? [write.unless] : []), ...indexes, ...(bounded ? [bounded.key] : [])];
    if (bounded && bySlot(together).length > 1) throw new Error(`putRecord: ${together.join(', ')} must share one hash tag`);
    let joined = 1;
    let evicted: string[] = [];
    try {
      if (write.unless || bounded) {
        [joined, ...evicted] = await redis.addToIndexesUnless(together.length, ...together, write.key, ttl, write.unless ? '1' : '0', ...boundArgs(bounded));
      } else await Promise.all(indexes.map((index) => redis.addToIndexes(1, index, write.key, ttl, '0')));
    } catch (error) {
      // The grant's master failed: the request fails, and the record, which no client has
      // seen, is removed if its own master still answers (else it expires unused).
      await redis.del(write.key, ...clear).catch(() => {});
      throw error;
    }
    if (joined !== 1) {
      await redis.del(write.key, ...clear);
      return false;
    }
    // A failure here fails the request (the new record is never handed out, and counts in the
    // bound until it expires); an evicted record left behind is no longer listed and lives out
    // its own life.
    if (bounded) await deleteEvicted(evicted, bounded);
    await Promise.all(
      (write.aliases ?? []).map((alias) => (ttl === '0' ? redis.set(alias.key, alias.value) : redis.set(alias.key, alias.value, 'EX', Number(ttl)))),
    );
    return true;
  };

  /**
   * On one server, the index joins asked in the same turn of the event loop (a consent's
   * watchlist entry and its indexes, say) go as one script: one clock reading, one EVALSHA. Each
   * join keeps its own meaning; they succeed or fail together. Sent on the next tick, the script
   * still leaves with the turn's other commands (the client pipelines a tick's commands).
   */
  type Joins = { keys: string[]; args: string[]; waiting: { resolve: () => void; reject: (error: unknown) => void }[] };
  let joins: Joins | undefined;
  const joinInTurn = (key: string, args: readonly [string, string, string]) =>
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

  return {
    kind: 'redis',
    guarded: guard,
    client: redis,
    get: (key) => guard(() => redis.get(key).then((value) => value ?? undefined)),
    set: (key, value, ttl) =>
      guard(async () => {
        if (ttl) await redis.set(key, value, 'EX', seconds(ttl));
        else await redis.set(key, value);
      }),
    setIfAbsent: (key, value, ttl) =>
      guard(async () => {
        const result = ttl ? await redis.set(key, value, 'EX', seconds(ttl), 'NX') : await redis.set(key, value, 'NX');
        return result === 'OK';
      }),
    take: (key) => guard(async () => (await replicated<string | null>('getdel', key)) ?? undefined),
    delete: (...keys) =>
      guard(async () => {
        if (!keys.length) return;
        // On a cluster one DEL per slot, all at once: each is atomic on its own master.
        await Promise.all((sharded ? bySlot(keys) : [keys]).map((group) => replicated('del', ...group)));
      }),
    ttl: (key) =>
      guard(async () => {
        const left = await redis.ttl(key);
        if (left === -2) return undefined;
        return left === -1 ? Number.POSITIVE_INFINITY : left;
      }),
    addToIndex: (key, member, ttl, options) =>
      guard(async () => {
        const args = [member, String(ttl > 0 ? seconds(ttl) : 0), options?.onlyLater ? '1' : '0'] as const;
        if (sharded) await redis.addToIndexes(1, key, ...args);
        else await joinInTurn(key, args);
      }),
    addToIndexWithin: (key, member, ttl, max) =>
      guard(async () => (await redis.addToIndexWithin(key, member, String(ttl > 0 ? seconds(ttl) : 0), String(max))) === 1),
    addToIndexesWithin: (bounds, member, ttl) =>
      guard(async () => {
        const args = [member, String(ttl > 0 ? seconds(ttl) : 0), ...bounds.map(({ max }) => String(max))];
        const full = await redis.addToIndexesWithin(bounds.length, ...bounds.map(({ key }) => key), ...args);
        return full === 0 ? undefined : bounds[full - 1]!.key;
      }),
    indexMembers: (key) => guard(() => redis.indexMembersLive(key)),
    removeFromIndex: (key, ...members) =>
      guard(async () => {
        if (members.length) await redis.removeFromIndex(key, ...members);
      }),
    compareAndSet: (key, expected, next, ttl) =>
      guard(async () => {
        const life = ttl === undefined ? '-' : ttl > 0 ? String(seconds(ttl)) : '0';
        const [swapped, current] = await replicated<[number, string | null]>('compareAndSet', key, next, life, ...expected);
        return { swapped: swapped === 1, current: current ?? undefined };
      }),
    getMany: (keys) => {
      if (!keys.length) return Promise.resolve([]);
      // One server (or one key): one MGET, its answers in the keys' order.
      if (!sharded || keys.length === 1) return guard(() => redis.mget(...keys).then((values) => values.map((value) => value ?? undefined)));
      return guard(async () => {
        const groups = bySlot(keys);
        // One MGET per slot (one in all for a record and its mark, which share a tag).
        const read = new Map<string, string | null>();
        await Promise.all(
          groups.map(async (group) => {
            const values = await redis.mget(...group);
            for (const [i, key] of group.entries()) read.set(key, values[i] ?? null);
          }),
        );
        return keys.map((key) => read.get(key) ?? undefined);
      });
    },
    getViaLookup: (lookupKey, keysOf) =>
      guard(async () => {
        if (sharded) {
          const id = (await redis.get(lookupKey)) ?? undefined;
          if (id === undefined) return undefined;
          const values = await Promise.all(keysOf(id).map(async (key) => (await redis.get(key)) ?? undefined));
          return { id, values };
        }
        const parts = keysOf(ID_PLACEHOLDER).flatMap((key) => {
          const [before, after, ...more] = key.split(ID_PLACEHOLDER);
          if (after === undefined || more.length) throw new Error(`getViaLookup: ${key} must hold the id once`);
          return [before!, after];
        });
        const [id, ...values] = await redis.getViaLookup(lookupKey, ...parts);
        return id ? { id, values: values.map((value) => value || undefined) } : undefined;
      }),
    putRecord: (write: RecordWrite) =>
      guard(async () => {
        if (sharded) return putRecordAcrossSlots(write);
        const clear = write.clear ?? [];
        const aliases = write.aliases ?? [];
        const indexes = write.indexes ?? [];
        // A record alone (an Interaction, a Grant) is one SET: no script, nothing to keep together.
        if (!write.unless && !clear.length && !aliases.length && !indexes.length && !write.bounded) {
          const ttl = ttlArg(write);
          await (ttl === '0' ? redis.set(write.key, write.value) : redis.set(write.key, write.value, 'EX', Number(ttl)));
          return true;
        }
        const bounded = write.bounded ? [write.bounded.key] : [];
        const keys = [write.key, write.unless ?? write.key, ...clear, ...aliases.map((alias) => alias.key), ...indexes, ...bounded];
        const args = [
          write.value,
          ttlArg(write),
          write.unless ? '1' : '0',
          String(clear.length),
          String(aliases.length),
          String(indexes.length),
          ...aliases.map((alias) => alias.value),
          ...boundArgs(write.bounded),
        ];
        return (await redis.putRecord(keys.length, ...keys, ...args)) === 1;
      }),
    markOnce: (recordKey, markKey, value, keep) =>
      guard(async () => {
        type Outcome = 'marked' | 'already_marked' | 'missing';
        const keepMs = keep ? String(seconds(keep.seconds) * 1000) : '0';
        if (!keep?.index) return replicated<Outcome>('markOnce', 2, recordKey, markKey, value, keepMs);
        const bounded = keep.bounded ? [keep.bounded.key] : [];
        const bound = keep.bounded ? boundArgs(keep.bounded) : [];
        if (!sharded) return replicated<Outcome>('markOnce', 3 + bounded.length, recordKey, markKey, keep.index, ...bounded, value, keepMs, ...bound);
        // On a cluster the index is in the grant's slot, on another node. Only the winner re-times
        // its member, after the mark and without waiting: the losers of a race must not queue on
        // the grant's node ahead of it (they go on to revoke the grant), and a re-timing that fails
        // only leaves the member listed until its record's first life ends, as before the mark.
        // It may only come earlier (LT); the second more keeps the member listed past its record.
        // The bound, too, comes after the mark: it evicts from the grant's slot, then deletes the
        // evicted records in theirs (a consumed record only serves reuse detection).
        const outcome = await replicated<Outcome>('markOnce', 2, recordKey, markKey, value, keepMs);
        if (outcome === 'marked') {
          redis
            .retimeMember(1 + bounded.length, keep.index, ...bounded, recordKey, String(Number(keepMs) + 1000), ...bound)
            .then((evicted) => (keep.bounded ? deleteEvicted(evicted, keep.bounded) : undefined))
            // The mark stands; a bound that fails leaves the records to their TTL, counted as a refused command.
            .catch(() => options.onError?.('command'));
        }
        return outcome;
      }),
    readCountingAttempt: (recordKey, markKey, counterKey, only) =>
      guard(async () => {
        const fallbackMs = String(seconds(only.fallbackSeconds) * 1000);
        const [record, mark, attempts] = await redis.readCountingAttempt(recordKey, markKey, counterKey, only.field, only.equals, fallbackMs);
        return { record: record ?? undefined, mark: mark ?? undefined, attempts };
      }),
    closeIndexes: (indexKeys, tombstoneKey, ttl) => {
      const all = [tombstoneKey, ...indexKeys];
      if (sharded && bySlot(all).length > 1) throw new Error(`closeIndexes: ${all.join(', ')} must share one hash tag`);
      return guard(() => replicated('closeIndexes', all.length, ...all, String(seconds(ttl))));
    },
    ping: () =>
      guard(async () => {
        await redis.ping();
      }),
    close: async () => {
      // QUIT, then disconnect: a Sentinel client's watch on the Sentinels ends only with disconnect.
      await redis.quit().catch(() => {});
      redis.disconnect();
    },
  };
}
