-- Ends one match's projection run in the match's slot, after the read models it wrote: gives its
-- lease back, confirms those read models, and says whether the match is caught up with its log.
--
-- KEYS: 1 lease (string), 2 proj (hash), 3 meta (hash); on one Redis also 4 dirty (the set of
--       matches whose projection may lag), which the run then leaves here when it is caught up.
--       On a cluster the caller takes the match off the dirty set before this, and puts it back
--       after when the reply says so.
-- ARGV: 1 the lease's token ("" for a run that took none), 2 the checkpoint the run left,
--       3 the basis of the read models it wrote ("" when it wrote none), 4 the run's token,
--       5 "1" when the run wrote no projection (its fold found nothing new), 6 the match id
-- Replies {version, confirmed}: confirmed is 0 when the run wrote read models that another run
-- may have overwritten (or may overwrite) with an older or newer summary's; models is then
-- removed and the match left dirty, so the next run writes them again.
--
-- A run that wrote its projection confirms only its own "pending:<token>"; a run that found
-- nothing new confirms over no mark or another run's pending one, which was left by a run at
-- this same checkpoint (every compare-and-set replaces it), so it wrote the same entries; a mark
-- that is this run's basis already stays. Anything else may mean that read models of another
-- summary were written after this run's (or will be, by a run that wrote before it).
--
-- `run` is one match's part; projections/projecting/many.lua, appended to this script, runs it for each match
-- of a call, with that match's keys and arguments.

local function run(KEYS, ARGV)
  local lease, proj, meta, dirty = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
  if ARGV[1] ~= '' and redis.call('GET', lease) == ARGV[1] then
    redis.call('DEL', lease)
  end
  local confirmed = 1
  if ARGV[3] ~= '' then
    local mark = redis.call('HGET', proj, 'models')
    local pending = mark and string.sub(mark, 1, 8) == 'pending:'
    local mine = mark == 'pending:' .. ARGV[4] or (ARGV[5] == '1' and (not mark or pending))
    if mark == ARGV[3] then
      -- Confirmed already, by a run whose entries are the ones this run wrote.
    elseif mine and redis.call('HGET', proj, 'checkpoint') == ARGV[2] then
      redis.call('HSET', proj, 'models', ARGV[3])
    else
      redis.call('HDEL', proj, 'models')
      confirmed = 0
    end
  end
  local version = redis.call('HGET', meta, 'version') or '0'
  if dirty then
    if confirmed == 0 then
      redis.call('SADD', dirty, ARGV[6])
    elseif version == ARGV[2] then
      -- A write after the fold marked the match itself (and is not undone here): it stays dirty.
      redis.call('SREM', dirty, ARGV[6])
    end
  end
  return {tonumber(version), confirmed}
end
