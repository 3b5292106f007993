-- KEYS: the tombstone, then the indexes. Every member of each, once, the past ones too (their
-- records are gone or about to go: deleting is harmless).
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
local members, seen = {}, {}
for i = 2, #KEYS do
  for _, member in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
    if not seen[member] then
      seen[member] = true
      members[#members + 1] = member
    end
  end
  redis.call('DEL', KEYS[i])
end
return members
