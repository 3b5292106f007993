-- Only the caller that removes the dead letter puts it back, so a double replay queues it once.
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('XADD', KEYS[2], '*', 'job', ARGV[2])
return 1
