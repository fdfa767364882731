-- Writes to one match's log atomically: creates a match, or appends a batch of events to it.
--
-- KEYS: 1 meta (hash: header fields and "version"), 2 log (stream), 3 idem (hash: idempotency
--       key -> "<first> <last> <fingerprint>")
-- ARGV create: "create", <number of header pairs>, field, value, ..., then the events
-- ARGV append: "append", <expected version or "">, <idempotency key or "">, <fingerprint>,
--              then the events
-- The events: type, data, meta for each, in order. Entry ids are "<seq>-0".
--
-- Replies (numbers only, so the client may decode responses or not):
--   {0, first, last}      written
--   {1, first, last}      a retry: the steps the first request under this key wrote
--   {-1}                  no such match
--   {-2}                  the match already exists
--   {-3, actual}          the expected version differs from the actual one
--   {-4}                  the idempotency key was used for a different request
-- Every check comes before the first write, so a refused request writes nothing.

local meta, log, idem = KEYS[1], KEYS[2], KEYS[3]

local function add_events(from, version)
  local seq = version
  for i = from, #ARGV, 3 do
    seq = seq + 1
    redis.call('XADD', log, string.format('%d-0', seq),
      'type', ARGV[i], 'data', ARGV[i + 1], 'meta', ARGV[i + 2])
  end
  return seq
end

local function create()
  if redis.call('EXISTS', meta) == 1 or redis.call('EXISTS', log) == 1 then
    return {-2}
  end
  local pairs_end = 2 + 2 * tonumber(ARGV[2])
  for i = 3, pairs_end, 2 do
    redis.call('HSET', meta, ARGV[i], ARGV[i + 1])
  end
  local last = add_events(pairs_end + 1, 0)
  redis.call('HSET', meta, 'version', last)
  return {0, 1, last}
end

local function append()
  local version = redis.call('HGET', meta, 'version')
  if not version then
    return {-1}
  end
  version = tonumber(version)
  local key, fingerprint = ARGV[3], ARGV[4]
  if key ~= '' then
    local seen = redis.call('HGET', idem, key)
    if seen then
      local first, last, known = string.match(seen, '^(%d+) (%d+) (.*)$')
      if known == fingerprint then
        return {1, tonumber(first), tonumber(last)}
      end
      return {-4}
    end
  end
  if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= version then
    return {-3, version}
  end
  local last = add_events(5, version)
  if last > version then
    redis.call('HINCRBY', meta, 'version', last - version)
  end
  if key ~= '' then
    redis.call('HSET', idem, key, string.format('%d %d %s', version + 1, last, fingerprint))
  end
  return {0, version + 1, last}
end

if ARGV[1] == 'create' then
  return create()
end
return append()
