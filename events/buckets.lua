-- Takes one token from each of a caller's token buckets, or from none of them.
--
-- KEYS: the buckets (hashes: tokens, at), all of one caller (one slot on a Redis Cluster).
-- ARGV: 1 now (seconds, as the caller's clock says), then per bucket: its capacity (the burst)
--       and its refill rate (tokens a second).
-- A bucket not yet written is full. Each refills at its rate since it was last written, up to its
-- capacity (a clock that went back refills nothing). When every bucket holds a token, one is taken
-- from each and the buckets expire once they would be full again; otherwise nothing is written.
-- Reply: {0, "0"} taken, or {i, seconds} the i-th bucket is empty and has a token in that many
-- seconds (a string: a script's numbers are integers).

local now = tonumber(ARGV[1])
local held = {}
for i = 1, #KEYS do
  local capacity, rate = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local saved = redis.call('HMGET', KEYS[i], 'tokens', 'at')
  local tokens, at = tonumber(saved[1]) or capacity, tonumber(saved[2]) or now
  if now > at then
    tokens = math.min(capacity, tokens + (now - at) * rate)
    at = now
  end
  if tokens < 1 then
    return {i, tostring((1 - tokens) / rate)}
  end
  held[i] = {tokens - 1, at, math.ceil((capacity - tokens + 1) / rate) + 1}
end
for i = 1, #KEYS do
  redis.call('HSET', KEYS[i], 'tokens', tostring(held[i][1]), 'at', tostring(held[i][2]))
  redis.call('EXPIRE', KEYS[i], held[i][3])
end
return {0, '0'}
