-- GET, and SET when the value is one of the expected ones: keeping the TTL (ARGV[2] '-'), with
-- no expiry ('0') or with a new one (seconds).
local current = redis.call('GET', KEYS[1])
if not current then return {0, false} end
for i = 3, #ARGV do
  if current == ARGV[i] then
    if ARGV[2] == '-' then
      redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
    elseif ARGV[2] == '0' then
      redis.call('SET', KEYS[1], ARGV[1])
    else
      redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
    end
    return {1, current}
  end
end
return {0, current}
