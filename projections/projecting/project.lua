-- Writes one match's projection if nobody else has moved it since it was read: a compare and set
-- on the checkpoint, with the position, the summary and the new snapshots, all in the match's
-- slot. (The scoreboard is the game's scores of the position, computed when it is read.)
--
-- KEYS: 1 proj (hash), 2 snap (sorted set), 3 lease (string), 4 meta (hash); on one Redis also
--       5 dirty (the set of matches whose projection may lag), which a run then takes the match off here.
-- ARGV: 1 <checkpoint the fold started from>, 2 <new checkpoint>, 3 the frozen position (field
--       env), 4 summary, 5 <the read models' basis of this summary>, 6 <the run's token>, 7 <the lease's token,
--       or "">, 8 <the match id>, then <step> <member> for each snapshot
-- Replies {code, version}:
--   code 0: the stored checkpoint is not the one the fold started from; nothing written, and
--           the lease given back (the match stays dirty for the next run).
--   code 1: written, and the read models already hold what the summary says (field models
--           equals the basis). The lease is given back; on one Redis the match also leaves the
--           dirty set here unless a write came in after the fold (version is then the log's).
--   code 2: written, and the read models may not say it: models reads "pending:<token>" until
--           the run that writes them confirms them (projections/projecting/finish.lua, which ends the run).
--
-- `run` is one match's part; projections/projecting/many.lua, appended to this script, runs it for each match
-- of a call, with that match's keys and arguments.

local function run(KEYS, ARGV)
  local proj, snap, lease, meta, dirty = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]

  local function release()
    if ARGV[7] ~= '' and redis.call('GET', lease) == ARGV[7] then
      redis.call('DEL', lease)
    end
  end

  local stored = redis.call('HGET', proj, 'checkpoint') or '0'
  if stored ~= ARGV[1] then
    release()
    return {0, 0}
  end
  redis.call('HSET', proj, 'checkpoint', ARGV[2], 'env', ARGV[3], 'summary', ARGV[4])
  -- Projections written before held the game's view and its scoreboard too, which reads now
  -- take from the position.
  redis.call('HDEL', proj, 'view', 'scores')
  for i = 9, #ARGV, 2 do
    redis.call('ZADD', snap, tonumber(ARGV[i]), ARGV[i + 1])
  end
  if redis.call('HGET', proj, 'models') ~= ARGV[5] then
    redis.call('HSET', proj, 'models', 'pending:' .. ARGV[6])
    return {2, 0}
  end
  release()
  local version = redis.call('HGET', meta, 'version') or '0'
  -- A write after the fold marked the match itself (and is not undone here): it stays dirty.
  if dirty and version == ARGV[2] then
    redis.call('SREM', dirty, ARGV[8])
  end
  return {1, tonumber(version)}
end
