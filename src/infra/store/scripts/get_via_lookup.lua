-- A lookup and the keys it leads to, on one server: KEYS[1] holds an id; each pair of ARGV is
-- the text before and after the id in one key read. Returns the id, then a value per key.
local id = redis.call('GET', KEYS[1])
if not id then return {} end
local out = {id}
for i = 1, #ARGV, 2 do out[#out + 1] = redis.call('GET', ARGV[i] .. id .. ARGV[i + 1]) end
return out
