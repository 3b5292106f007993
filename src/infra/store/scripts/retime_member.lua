-- On a cluster, beside markOnce (whose record is in another slot): KEYS index, and the bounded
-- index the member then joins if it is still listed (optional). ARGV member, keep ms, and with
-- the bounded index its bound. Returns the members the bound evicted, for their records' slots.
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
local now = clock_ms()
retime_member(KEYS[1], ARGV[1], tonumber(ARGV[2]), now)
if #KEYS < 2 or not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {} end
local evicted = add_within_bound(KEYS[2], ARGV[1], tonumber(ARGV[2]) / 1000, now, tonumber(ARGV[3]))
remove_from_all({KEYS[1]}, evicted)
return evicted
