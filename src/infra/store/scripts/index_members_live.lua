-- The listed members, the past ones dropped first.
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
drop_past(KEYS[1], clock_ms())
return redis.call('ZRANGE', KEYS[1], 0, -1)
