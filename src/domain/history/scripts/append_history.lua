-- Adds entries to the logs, then trims each log written by age and by count and renews its
-- life. One identity's failure (a key of another type) costs its own entries only.
-- KEYS: each identity's log. ARGV: keep-from score, max entries, ttl, then three per entry: its
-- log (1-based), entry, score. Answers {entries not written, logs not trimmed}.
local keepFrom, most, ttl = ARGV[1], tonumber(ARGV[2]), ARGV[3]
local added, lost, untrimmed = {}, 0, 0
local function add(i)
  local log = tonumber(ARGV[i])
  redis.call('ZADD', KEYS[log], ARGV[i + 2], ARGV[i + 1])
  added[log] = true
end
local function trim(log)
  redis.call('ZREMRANGEBYSCORE', KEYS[log], '-inf', '(' .. keepFrom)
  -- All but the newest `most` (nothing when it holds fewer).
  redis.call('ZREMRANGEBYRANK', KEYS[log], 0, -most - 1)
  redis.call('EXPIRE', KEYS[log], ttl)
end
for i = 4, #ARGV, 3 do
  if not pcall(add, i) then lost = lost + 1 end
end
for log = 1, #KEYS do
  if added[log] and not pcall(trim, log) then untrimmed = untrimmed + 1 end
end
return {lost, untrimmed}
