
-- Every script above runs once for each match of a call, in order, and replies the list of the
-- matches' replies: a pass projects many matches in one call to Redis (on a cluster, where the
-- matches' keys are in different slots, a call holds one match).
-- KEYS: each match's keys in turn, ARGV[1] of them; then, on one Redis, the dirty set, which each
--       match's run is given after its own keys.
-- ARGV: 1 how many keys each match has, then for each match the number of its arguments and
--       those arguments.
local per = tonumber(ARGV[1])
local count = math.floor(#KEYS / per)
local shared = KEYS[count * per + 1]
local replies, at = {}, 2
for m = 1, count do
  local keys = {}
  for i = 1, per do
    keys[i] = KEYS[(m - 1) * per + i]
  end
  keys[per + 1] = shared
  local n = tonumber(ARGV[at])
  local argv = {}
  for i = 1, n do
    argv[i] = ARGV[at + i]
  end
  at = at + n + 1
  replies[m] = run(keys, argv)
end
return replies
