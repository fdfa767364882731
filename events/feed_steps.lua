-- Publishing a match's steps to one partition of the global feed, shared by the scripts that
-- publish: projections/readmodels/feed.lua (a projection pass) and events/append.lua (a write
-- that carries its projection). Both are loaded with this source in front of their own.
--
-- A partition is a stream (its entries "<position>-0", positions 1, 2, 3 ... assigned once) and
-- a hash ``seen`` beside it: match id -> the last step published, "" -> the last position. A
-- step is published only when it is the next after the match's last one, so a run repeated or
-- two runs at once publish nothing twice and leave no gap.

-- The partition's last position.
local function feed_position(seen)
  return tonumber(redis.call('HGET', seen, '') or '0')
end

-- The last step of ``match`` published in the partition (0 for none).
local function feed_last(seen, match)
  return tonumber(redis.call('HGET', seen, match) or '0')
end

-- Both at once, in one read: the last step of ``match`` published, and the partition's last
-- position.
local function feed_where(seen, match)
  local held = redis.call('HMGET', seen, match, '')
  return tonumber(held[1] or '0'), tonumber(held[2] or '0')
end

-- The server's clock in ms, the publish time each entry holds: a merged view of every partition
-- orders its page by it.
local function feed_clock()
  local now = redis.call('TIME')
  return string.format('%.0f', now[1] * 1000 + math.floor(now[2] / 1000))
end

-- Append the steps of ``match`` (of ``game``) given as n triples ARGV[from..] (step, type,
-- event JSON; steps ascending) that follow ``last``, its last step published, from the
-- partition's ``position`` on, at time ``at``. Returns the partition's new position, the number
-- of steps published and the match's new last step, which the caller notes (``feed_note``).
local function feed_publish(stream, match, game, last, from, n, position, at)
  local first = last
  for j = 0, n - 1 do
    local k = from + 3 * j
    local step = tonumber(ARGV[k])
    if step == last + 1 then
      position = position + 1
      redis.call('XADD', stream, string.format('%.0f', position) .. '-0', 'm', match, 's', step, 'g', game,
        't', ARGV[k + 1], 'a', at, 'e', ARGV[k + 2])
      last = step
    end
  end
  return position, last - first, last
end

-- Note, in one write, the last step of ``match`` published (``feed_publish``) and the
-- partition's last position.
local function feed_note(seen, match, last, position)
  redis.call('HSET', seen, match, last, '', position)
end
