-- A stopping worker puts the entries it read but did not settle back on the stream, each only if
-- it is still pending under this worker (another may have claimed it meanwhile).
local moved = 0
for i = 1, #ARGV - 2, 2 do
  local id = ARGV[i + 2]
  if #redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1, ARGV[2]) > 0 then
    redis.call('XADD', KEYS[1], '*', 'job', ARGV[i + 3])
    redis.call('XACK', KEYS[1], ARGV[1], id)
    redis.call('XDEL', KEYS[1], id)
    moved = moved + 1
  end
end
return moved
