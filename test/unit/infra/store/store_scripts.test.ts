// Each of the store's Lua scripts (src/infra/store/scripts/), run by the command named after its
// file on a real redis-server, with its edge cases: what it answers and what it leaves in Redis.
import { Redis } from 'ioredis';
import { defineStoreScripts, type ScriptedRedis } from '../../../../src/infra/store/store_scripts.js';
import { redisForTests } from '../../../support/redis_for_tests.js';

const redis = redisForTests();
let client: ScriptedRedis;

beforeAll(() => {
  client = defineStoreScripts(new Redis(redis.url));
});

afterAll(() => {
  client.disconnect();
});

/** The server's clock, in ms, as the scripts read it. */
async function serverNow(): Promise<number> {
  const [seconds, micros] = await redis.admin.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

const scoreOf = async (key: string, member: string) => redis.admin.zscore(key, member);

describe('addToIndexes (add_to_indexes.lua)', () => {
  test('lists each member until its ttl, or until removed with ttl 0; the index expires with its latest member', async () => {
    const before = await serverNow();
    expect(await client.addToIndexes(2, 'ix:a', 'ix:b', 'm', '10', '0', 'm', '0', '0')).toBe(1);
    const score = Number(await scoreOf('ix:a', 'm'));
    expect(score).toBeGreaterThanOrEqual(before + 10_000);
    expect(score).toBeLessThanOrEqual((await serverNow()) + 10_000);
    expect(await redis.admin.pexpiretime('ix:a')).toBe(score);
    expect(await scoreOf('ix:b', 'm')).toBe('inf');
    expect(await redis.admin.pttl('ix:b')).toBe(-1);
  });

  test("with only-later ('1') a member's time never comes earlier; without, it does and the expiry follows", async () => {
    await client.addToIndexes(1, 'ix:a', 'm', '100', '0');
    const late = await scoreOf('ix:a', 'm');
    await client.addToIndexes(1, 'ix:a', 'm', '10', '1');
    expect(await scoreOf('ix:a', 'm')).toBe(late);
    await client.addToIndexes(1, 'ix:a', 'm', '10', '0');
    const early = Number(await scoreOf('ix:a', 'm'));
    expect(early).toBeLessThan(Number(late));
    expect(await redis.admin.pexpiretime('ix:a')).toBe(early);
  });

  test('a member whose time has passed is dropped by the next join', async () => {
    await redis.admin.zadd('ix:a', '1', 'gone');
    await client.addToIndexes(1, 'ix:a', 'm', '10', '0');
    expect(await redis.admin.zrange('ix:a', '0', '-1')).toEqual(['m']);
  });
});

describe('addToIndexesWithin over one index (add_to_indexes_within.lua, as Store.addToIndexWithin runs it)', () => {
  test('refuses (1) a new member of a full index, lists a member already there again (0)', async () => {
    expect(await client.addToIndexesWithin(1, 'ix:w', 'a', '60', '2')).toBe(0);
    expect(await client.addToIndexesWithin(1, 'ix:w', 'b', '60', '2')).toBe(0);
    expect(await client.addToIndexesWithin(1, 'ix:w', 'c', '60', '2')).toBe(1);
    expect(await client.addToIndexesWithin(1, 'ix:w', 'a', '60', '2')).toBe(0);
    expect((await redis.admin.zrange('ix:w', '0', '-1')).sort()).toEqual(['a', 'b']);
  });

  test('a past member does not count against the bound', async () => {
    await redis.admin.zadd('ix:w', '1', 'past');
    expect(await client.addToIndexesWithin(1, 'ix:w', 'a', '60', '1')).toBe(0);
    expect(await redis.admin.zrange('ix:w', '0', '-1')).toEqual(['a']);
  });
});

describe('addToIndexesWithin (add_to_indexes_within.lua)', () => {
  test('0 when listed in all; else the place of the first full index, and nothing written', async () => {
    expect(await client.addToIndexesWithin(2, 'ix:1', 'ix:2', 'a', '60', '1', '5')).toBe(0);
    expect(await client.addToIndexesWithin(2, 'ix:1', 'ix:2', 'b', '60', '1', '5')).toBe(1);
    expect(await client.addToIndexesWithin(2, 'ix:2', 'ix:1', 'b', '60', '5', '1')).toBe(2);
    expect(await redis.admin.zrange('ix:2', '0', '-1')).toEqual(['a']);
  });
});

describe('indexMembersLive (index_members_live.lua)', () => {
  test('the listed members, the past ones dropped first; none for a missing index', async () => {
    expect(await client.indexMembersLive('ix:none')).toEqual([]);
    await redis.admin.zadd('ix:l', '1', 'past', '+inf', 'kept', String((await serverNow()) + 60_000), 'live');
    expect((await client.indexMembersLive('ix:l')).sort()).toEqual(['kept', 'live']);
    expect(await redis.admin.zscore('ix:l', 'past')).toBeNull();
  });
});

describe('removeFromIndex (remove_from_index.lua)', () => {
  test('removes the members, and the index then expires with the latest one left', async () => {
    await client.addToIndexes(2, 'ix:r', 'ix:r', 'long', '100', '0', 'short', '10', '0');
    expect(await client.removeFromIndex('ix:r', 'long', 'absent')).toBe(1);
    expect(await redis.admin.zrange('ix:r', '0', '-1')).toEqual(['short']);
    expect(await redis.admin.pexpiretime('ix:r')).toBe(Number(await scoreOf('ix:r', 'short')));
    await client.removeFromIndex('ix:r', 'short');
    expect(await redis.admin.exists('ix:r')).toBe(0);
  });
});

describe('retimeMember (retime_member.lua)', () => {
  test("brings a listed member's time earlier, never later, and never lists an absent one", async () => {
    await client.addToIndexes(1, 'ix:t', 'm', '100', '0');
    expect(await client.retimeMember(1, 'ix:t', 'm', '5000')).toEqual([]);
    const cut = Number(await scoreOf('ix:t', 'm'));
    expect(cut).toBeLessThanOrEqual((await serverNow()) + 5000);
    await client.retimeMember(1, 'ix:t', 'm', '50000');
    expect(Number(await scoreOf('ix:t', 'm'))).toBe(cut);
    await client.retimeMember(1, 'ix:t', 'absent', '5000');
    expect(await scoreOf('ix:t', 'absent')).toBeNull();
  });

  test('with a bounded index, a still-listed member joins it and the members past the bound leave both', async () => {
    await client.addToIndexes(3, 'ix:t', 'ix:t', 'ix:b', 'm', '100', '0', 'old', '100', '0', 'old', '20', '0');
    const evicted = await client.retimeMember(2, 'ix:t', 'ix:b', 'm', '30000', '1');
    expect(evicted).toEqual(['old']);
    expect(await redis.admin.zrange('ix:b', '0', '-1')).toEqual(['m']);
    expect(await redis.admin.zrange('ix:t', '0', '-1')).toEqual(['m']);
    // Not listed in the index: the bounded index is left alone.
    expect(await client.retimeMember(2, 'ix:t', 'ix:b', 'absent', '30000', '1')).toEqual([]);
    expect(await redis.admin.zrange('ix:b', '0', '-1')).toEqual(['m']);
  });
});

describe('putRecord (put_record.lua)', () => {
  const put = (keys: string[], args: string[]) => client.putRecord(keys.length, ...keys, ...args);

  test('writes the record, clears, aliases and index joins together, with the ttl on each', async () => {
    await redis.admin.set('rec:clear', 'x');
    expect(await put(['rec:1', 'rec:1', 'rec:clear', 'alias:1', 'ix:p'], ['v', '60', '0', '1', '1', '1', 'rec:1'])).toBe(1);
    expect(await redis.admin.get('rec:1')).toBe('v');
    expect(await redis.admin.ttl('rec:1')).toBe(60);
    expect(await redis.admin.exists('rec:clear')).toBe(0);
    expect(await redis.admin.get('alias:1')).toBe('rec:1');
    expect(await redis.admin.ttl('alias:1')).toBe(60);
    expect(await redis.admin.zrange('ix:p', '0', '-1')).toEqual(['rec:1']);
  });

  test('ttl 0 writes without expiry and lists the record until removed', async () => {
    expect(await put(['rec:1', 'rec:1', 'ix:p'], ['v', '0', '0', '0', '0', '1'])).toBe(1);
    expect(await redis.admin.ttl('rec:1')).toBe(-1);
    expect(await scoreOf('ix:p', 'rec:1')).toBe('inf');
  });

  test('refused (0), nothing written, while the unless key exists', async () => {
    await redis.admin.set('tombstone', '1');
    expect(await put(['rec:1', 'tombstone', 'ix:p'], ['v', '60', '1', '0', '0', '1'])).toBe(0);
    expect(await redis.admin.exists('rec:1', 'ix:p')).toBe(0);
  });

  test('a bounded index evicts the records that leave soonest, with their marks, from every index', async () => {
    await put(['rec:old', 'rec:old', 'ix:p', 'ix:bound'], ['old', '30', '0', '0', '0', '1', '1', ':used']);
    await redis.admin.set('rec:old:used', '1');
    expect(await put(['rec:new', 'rec:new', 'ix:p', 'ix:bound'], ['new', '60', '0', '0', '0', '1', '1', ':used'])).toBe(1);
    expect(await redis.admin.exists('rec:old', 'rec:old:used')).toBe(0);
    expect(await redis.admin.zrange('ix:bound', '0', '-1')).toEqual(['rec:new']);
    expect(await redis.admin.zrange('ix:p', '0', '-1')).toEqual(['rec:new']);
  });
});

describe('markOnce (mark_once.lua)', () => {
  test("missing, then marked once with the record's time left, then already_marked", async () => {
    expect(await client.markOnce(2, 'rec:m', 'rec:m:used', 'first', '0')).toBe('missing');
    await redis.admin.set('rec:m', 'v', 'PX', 60_000);
    expect(await client.markOnce(2, 'rec:m', 'rec:m:used', 'first', '0')).toBe('marked');
    expect(await client.markOnce(2, 'rec:m', 'rec:m:used', 'second', '0')).toBe('already_marked');
    expect(await redis.admin.get('rec:m:used')).toBe('first');
    const [recordEnds, markEnds] = [await redis.admin.pexpiretime('rec:m'), await redis.admin.pexpiretime('rec:m:used')];
    expect(markEnds).toBeLessThanOrEqual(recordEnds);
    expect(markEnds).toBeGreaterThan(recordEnds - 1000);
  });

  test('a record without expiry gives a mark without expiry; a keep cuts both to it', async () => {
    await redis.admin.set('rec:m', 'v');
    expect(await client.markOnce(2, 'rec:m', 'rec:m:used', 'x', '0')).toBe('marked');
    expect(await redis.admin.pttl('rec:m:used')).toBe(-1);
    await redis.admin.set('rec:k', 'v');
    expect(await client.markOnce(2, 'rec:k', 'rec:k:used', 'x', '5000')).toBe('marked');
    for (const key of ['rec:k', 'rec:k:used']) {
      const left = await redis.admin.pttl(key);
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(5000);
    }
  });

  test("a keep shorter than the record's life re-times its member of the index; a longer one changes nothing", async () => {
    await client.putRecord(3, 'rec:i', 'rec:i', 'ix:g', 'v', '600', '0', '0', '0', '1');
    const listed = Number(await scoreOf('ix:g', 'rec:i'));
    expect(await client.markOnce(3, 'rec:i', 'rec:i:used', 'ix:g', 'x', '1000000')).toBe('marked');
    expect(Number(await scoreOf('ix:g', 'rec:i'))).toBe(listed);
    await client.putRecord(3, 'rec:j', 'rec:j', 'ix:g', 'v', '600', '0', '0', '0', '1');
    expect(await client.markOnce(3, 'rec:j', 'rec:j:used', 'ix:g', 'x', '5000')).toBe('marked');
    expect(Number(await scoreOf('ix:g', 'rec:j'))).toBeLessThanOrEqual((await serverNow()) + 5000);
  });

  test('with a bounded index, the marked record joins it and evicts the others past the bound, with their marks', async () => {
    for (const id of ['a', 'b']) await client.putRecord(3, `rec:${id}`, `rec:${id}`, 'ix:g', 'v', '600', '0', '0', '0', '1');
    expect(await client.markOnce(4, 'rec:a', 'rec:a:used', 'ix:g', 'ix:used', 'x', '5000', '1', ':used')).toBe('marked');
    expect(await client.markOnce(4, 'rec:b', 'rec:b:used', 'ix:g', 'ix:used', 'x', '9000', '1', ':used')).toBe('marked');
    expect(await redis.admin.zrange('ix:used', '0', '-1')).toEqual(['rec:b']);
    expect(await redis.admin.exists('rec:a', 'rec:a:used')).toBe(0);
    expect(await redis.admin.zrange('ix:g', '0', '-1')).toEqual(['rec:b']);
  });
});

describe('readCountingAttempt (read_counting_attempt.lua)', () => {
  const read = (value = 'pending') => client.readCountingAttempt('rec:c', 'rec:c:used', 'rec:c:tries', 'state', value, '7000');

  test('nothing for a missing record, and nothing counted', async () => {
    expect(await read()).toEqual([null, null, 0]);
    expect(await redis.admin.exists('rec:c:tries')).toBe(0);
  });

  test('an unmarked record whose field holds the value counts one attempt, the counter ending with the record', async () => {
    await redis.admin.set('rec:c', JSON.stringify({ state: 'pending' }), 'PX', 60_000);
    expect(await read()).toEqual([JSON.stringify({ state: 'pending' }), null, 1]);
    expect(await read()).toEqual([JSON.stringify({ state: 'pending' }), null, 2]);
    const apart = (await redis.admin.pexpiretime('rec:c:tries')) - (await redis.admin.pexpiretime('rec:c'));
    expect(Math.abs(apart)).toBeLessThanOrEqual(1);
    expect(await redis.admin.pttl('rec:c:tries')).toBeGreaterThan(50_000);
  });

  test('a record without expiry gives the counter the fallback', async () => {
    await redis.admin.set('rec:c', JSON.stringify({ state: 'pending' }));
    expect((await read())[2]).toBe(1);
    const left = await redis.admin.pttl('rec:c:tries');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(7000);
  });

  test('another value, text that is not JSON, or a marked record: read, not counted', async () => {
    await redis.admin.set('rec:c', JSON.stringify({ state: 'done' }));
    expect(await read()).toEqual([JSON.stringify({ state: 'done' }), null, 0]);
    await redis.admin.set('rec:c', 'not json');
    expect(await read()).toEqual(['not json', null, 0]);
    await redis.admin.set('rec:c', JSON.stringify({ state: 'pending' }));
    await redis.admin.set('rec:c:used', 'mark');
    expect(await read()).toEqual([JSON.stringify({ state: 'pending' }), 'mark', 0]);
    expect(await redis.admin.exists('rec:c:tries')).toBe(0);
  });
});

describe('closeIndexes (close_indexes.lua)', () => {
  test('leaves the tombstone, deletes the indexes and returns each member once, past ones too', async () => {
    await redis.admin.zadd('ix:1', '1', 'past', '+inf', 'shared');
    await redis.admin.zadd('ix:2', '+inf', 'shared', '+inf', 'other');
    const members = await client.closeIndexes(3, 'tomb', 'ix:1', 'ix:2', '30');
    expect(members.sort()).toEqual(['other', 'past', 'shared']);
    expect(await redis.admin.exists('ix:1', 'ix:2')).toBe(0);
    expect(await redis.admin.ttl('tomb')).toBe(30);
    expect(await client.closeIndexes(2, 'tomb', 'ix:none', '30')).toEqual([]);
  });
});

describe('compareAndSet (compare_and_set.lua)', () => {
  test('nothing for a missing key; the current value, unchanged, when it is not one expected', async () => {
    expect(await client.compareAndSet('k', 'next', '-', 'a')).toEqual([0, null]);
    await redis.admin.set('k', 'other');
    expect(await client.compareAndSet('k', 'next', '-', 'a', 'b')).toEqual([0, 'other']);
    expect(await redis.admin.get('k')).toBe('other');
  });

  test("sets when it is one expected: keeping its ttl ('-'), with none ('0'), or with a new one", async () => {
    await redis.admin.set('k', 'b', 'EX', 100);
    expect(await client.compareAndSet('k', 'c', '-', 'a', 'b')).toEqual([1, 'b']);
    expect(await redis.admin.ttl('k')).toBeGreaterThan(90);
    expect(await client.compareAndSet('k', 'd', '0', 'c')).toEqual([1, 'c']);
    expect(await redis.admin.ttl('k')).toBe(-1);
    expect(await client.compareAndSet('k', 'e', '30', 'd')).toEqual([1, 'd']);
    expect(await redis.admin.get('k')).toBe('e');
    expect(await redis.admin.ttl('k')).toBe(30);
  });
});

describe('getViaLookup (get_via_lookup.lua)', () => {
  test('nothing for a missing lookup; else the id and each key built around it, a missing one empty', async () => {
    expect(await client.getViaLookup('uid:1', 'rec:', '', 'rec:', ':used')).toEqual([]);
    await redis.admin.set('uid:1', 'abc');
    await redis.admin.set('rec:abc', 'record');
    const [id, record, mark] = await client.getViaLookup('uid:1', 'rec:', '', 'rec:', ':used');
    expect([id, record]).toEqual(['abc', 'record']);
    expect(mark || undefined).toBeUndefined();
  });
});
