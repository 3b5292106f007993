-- KEYS: the index. ARGV: the members it no longer lists.
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
redis.call('ZREM', KEYS[1], unpack(ARGV))
expire_with_last(KEYS[1])
return 1
