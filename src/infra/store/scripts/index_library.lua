-- The functions the index scripts share: store_scripts.ts puts this text before each script
-- that names it as its library.
--
-- An index is a sorted set: member -> the epoch ms it is listed until, on the server's clock
-- ('inf': until removed). Each write first drops the members whose time has passed, and the
-- set expires with its latest member (PEXPIREAT), or never while one is listed until removed.
-- A record and the index that lists it are scored by the same clock on one server (one
-- script); on a cluster the index's node scores a record after the record's node set its TTL,
-- by the same TTL, so a member never leaves before its record.
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
end
