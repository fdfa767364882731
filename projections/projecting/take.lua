-- Takes one match for a projection run: its lease (unless none is asked for), where its
-- projection stands, and the events after it, in one call in the match's slot.
--
-- KEYS: 1 lease (string), 2 proj (hash), 3 log (stream)
-- ARGV: 1 the lease's token ("" for a run that takes none), 2 its lifetime in ms,
--       3 the checkpoint whose position the caller holds already ("" when it holds none),
--       4 how many events to read at most
-- Replies false when another run holds the lease; else {checkpoint, models, frozen, events}:
-- frozen (the position, field env) only when the stored checkpoint is not the one the caller
-- holds (false otherwise, and when the match was never projected), models false when absent,
-- events as XRANGE gives them from the step after the stored checkpoint.
--
-- `run` is one match's part; projections/projecting/many.lua, appended to this script, runs it for each match
-- of a call, with that match's keys and arguments.

local function run(KEYS, ARGV)
  local lease, proj, log = KEYS[1], KEYS[2], KEYS[3]
  if ARGV[1] ~= '' and not redis.call('SET', lease, ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
    return false
  end
  local stored = redis.call('HMGET', proj, 'checkpoint', 'models')
  local checkpoint = stored[1] or '0'
  local frozen = false
  if checkpoint ~= ARGV[3] then
    frozen = redis.call('HGET', proj, 'env')
  end
  local from = string.format('%d-0', tonumber(checkpoint) + 1)
  local events = redis.call('XRANGE', log, from, '+', 'COUNT', tonumber(ARGV[4]))
  return {checkpoint, stored[2], frozen, events}
end
