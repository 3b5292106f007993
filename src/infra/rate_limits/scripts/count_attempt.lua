-- The library's count (its customIncrTtlLuaScript option, one script for every class), at most
-- two commands where the library's takes three: the count, then the window's start on the first
-- count of a window (the counter's life); past the class's limit, the window's time left (for
-- Retry-After), which a count within it does not need. KEYS: counter. ARGV: points, window
-- seconds, the class's limit (the library passes it). Answers {count, ms left}: within the limit,
-- the whole window, a time nothing reads.
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
if consumed == tonumber(ARGV[1]) then
  redis.call('expire', KEYS[1], ARGV[2])
  return {consumed, 1000 * ARGV[2]}
end
if consumed <= tonumber(ARGV[3]) then return {consumed, 1000 * ARGV[2]} end
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}
