-- Publish matches' public events to one feed partition, each step once, in each match's order.
-- Loaded with events/feed_steps.lua in front, whose feed_publish appends the steps.
-- KEYS[1]: the partition's stream; KEYS[2]: its hash of match -> last step published ("": the
-- partition's last position). ARGV: for each match, its id, its game, n, then n triples
-- (step, type, event JSON), steps ascending. A step is published only when it is the next after
-- the match's last one, so a run repeated or two runs at once publish nothing twice and leave no
-- gap. Returns the number of events published.
local stream, seen = KEYS[1], KEYS[2]
local position = feed_position(seen)
local published = 0
local at = feed_clock()
local i = 1
while i <= #ARGV do
  local match, game, n = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local done, last
  position, done, last = feed_publish(stream, match, game, feed_last(seen, match), i + 3, n, position, at)
  if done > 0 then
    feed_note(seen, match, last, position)
  end
  published = published + done
  i = i + 3 + 3 * n
end
return published
