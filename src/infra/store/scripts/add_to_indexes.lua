-- Index joins on one clock reading: one, or on one server those asked in one turn of the event
-- loop. KEYS: the indexes. ARGV: per index its member, its ttl (0: until removed) and '1' to only
-- ever move the member's time later (GT).
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
local now = clock_ms()
for i, key in ipairs(KEYS) do
  local at = (i - 1) * 3
  add_to_index(key, ARGV[at + 1], tonumber(ARGV[at + 2]), now, ARGV[at + 3] == '1')
end
return 1
