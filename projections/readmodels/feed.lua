-- Publish matches' public events to one feed partition, each step once, in each match's order.
-- KEYS[1]: the partition's stream; KEYS[2]: its hash of match -> last step published ("": the
-- partition's last position). ARGV: for each match, its id, its game, n, then n triples
-- (step, type, event JSON), steps ascending. A step is published only when it is the next after
-- the match's last one, so a run repeated or two runs at once publish nothing twice and leave no
-- gap. Returns the number of events published.
local stream, seen = KEYS[1], KEYS[2]
local position = tonumber(redis.call('HGET', seen, '') or '0')
local published = 0
-- The server's clock in ms: a merged view of every partition orders its page by it.
local now = redis.call('TIME')
local at = string.format('%.0f', now[1] * 1000 + math.floor(now[2] / 1000))
local i = 1
while i <= #ARGV do
  local match, game, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local last = tonumber(redis.call('HGET', seen, match) or '0')
  local first = last
  for j = 0, n - 1 do
    local k = i + 3 + 3 * j
    local step = tonumber(ARGV[k])
    if step == last + 1 then
      position = position + 1
      redis.call('XADD', stream, string.format('%.0f', position) .. '-0', 'm', match, 's', step, 'g', game,
        't', ARGV[k + 1], 'a', at, 'e', ARGV[k + 2])
      last = step
      published = published + 1
    end
  end
  if last ~= first then
    redis.call('HSET', seen, match, last)
  end
  i = i + 3 + 3 * n
end
if published > 0 then
  redis.call('HSET', seen, '', position)
end
return published
