-- KEYS: record, unless ('' slot unused when absent), then clear…, alias…, index… keys, and the
-- bounded index when there is one. ARGV: value, ttl (0 = none), has_unless, #clear, #aliases,
-- #indexes, alias values…, the bound (0: no bounded index), the evicted records' mark suffixes….
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
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
return 1
