-- ARGV: member, ttl (0: until removed), the most other members the index may list.
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
local now = clock_ms()
drop_past(KEYS[1], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
add_to_index(KEYS[1], ARGV[1], tonumber(ARGV[2]), now, false)
return 1
