-- KEYS: the indexes; ARGV: member, ttl, then each index's bound. Returns 0 when listed in all,
-- else the 1-based place of the first index already full (nothing written then).
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
local now = clock_ms()
for i, key in ipairs(KEYS) do
  drop_past(key, now)
  if not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then return i end
end
for _, key in ipairs(KEYS) do add_to_index(key, ARGV[1], tonumber(ARGV[2]), now, false) end
return 0
