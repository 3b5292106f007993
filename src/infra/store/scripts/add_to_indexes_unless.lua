-- On a cluster: the index joins of a record, refused ({0}) while the tombstone exists. KEYS: the
-- tombstone (with ARGV[3] '1'), the indexes, and the bounded index (with a bound ARGV[4] > 0),
-- all of one hash tag (the grant's). ARGV: member, ttl. Returns {1, members the bound evicted…}:
-- their records are in other slots, deleted next.
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
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
return {1, unpack(evicted)}
