-- Writes one match's projection if nobody else has moved it since it was read: a compare and set
-- on the checkpoint, with the position, the views and the new snapshots, all in the match's slot.
--
-- KEYS: 1 proj (hash), 2 snap (sorted set)
-- ARGV: <checkpoint the fold started from>, <new checkpoint>, env, view, scores, summary,
--       then <step> <member> for each snapshot
-- Replies 1 when written, 0 when the stored checkpoint is not the one the fold started from.

local proj, snap = KEYS[1], KEYS[2]
local stored = redis.call('HGET', proj, 'checkpoint') or '0'
if stored ~= ARGV[1] then
  return 0
end
redis.call('HSET', proj, 'checkpoint', ARGV[2], 'env', ARGV[3], 'view', ARGV[4],
  'scores', ARGV[5], 'summary', ARGV[6])
for i = 7, #ARGV, 2 do
  redis.call('ZADD', snap, tonumber(ARGV[i]), ARGV[i + 1])
end
return 1
