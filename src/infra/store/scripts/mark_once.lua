-- The mark inherits the record's remaining life to the millisecond, so it never outlives it.
-- KEYS: record, mark, and the index listing the record (one server only), and a bounded index
-- (optional). ARGV: value, keep ms (0: the record keeps its life; else the mark that takes
-- effect cuts the record's life to it, and re-times the record's member of the index), and
-- with the bounded index its bound and the evicted records' mark suffixes…: a record still
-- listed in the index then joins it for what is left of its life.
-- Runs after index_library.lua, prefixed at load (clock_ms, add_to_index, ...).
local left = redis.call('PTTL', KEYS[1])
if left == -2 then return 'missing' end
local keep = tonumber(ARGV[2])
local cut = keep > 0 and (left == -1 or left > keep)
if cut then left = keep end
local marked
if left == -1 then
  marked = redis.call('SET', KEYS[2], ARGV[1], 'NX')
else
  marked = redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', left)
end
if not marked then return 'already_marked' end
-- Uncut, the record keeps its life and its member its time: the index is left alone.
local now
if cut then
  redis.call('PEXPIRE', KEYS[1], left)
  if #KEYS > 2 then
    now = clock_ms()
    retime_member(KEYS[3], KEYS[1], left, now)
  end
end
if keep > 0 and #KEYS > 2 then
  if #KEYS > 3 and redis.call('ZSCORE', KEYS[3], KEYS[1]) then
    now = now or clock_ms()
    local marks = {}
    for i = 4, #ARGV do marks[#marks + 1] = ARGV[i] end
    local evicted = add_within_bound(KEYS[4], KEYS[1], left / 1000, now, tonumber(ARGV[3]))
    remove_from_all({KEYS[3]}, evicted)
    delete_records(evicted, marks)
  end
end
return 'marked'
