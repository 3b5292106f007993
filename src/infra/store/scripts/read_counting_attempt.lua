-- KEYS: record, mark, counter (one hash tag). ARGV: field, value, fallback ms. The record and
-- its mark; and, for an unmarked record whose JSON field holds the value, one more attempt,
-- the counter expiring with the record to the millisecond.
local read = redis.call('MGET', KEYS[1], KEYS[2])
local raw, mark = read[1], read[2]
if not raw or mark then return {raw, mark, 0} end
local ok, record = pcall(cjson.decode, raw)
if not ok or type(record) ~= 'table' or record[ARGV[1]] ~= ARGV[2] then return {raw, false, 0} end
local attempts = redis.call('INCR', KEYS[3])
if attempts == 1 then
  local left = redis.call('PTTL', KEYS[1])
  redis.call('PEXPIRE', KEYS[3], left > 0 and left or ARGV[3])
end
return {raw, false, attempts}
