-- Writes to one match's log atomically: creates a match, or appends a batch of events to it.
--
-- KEYS: 1 meta (hash: header fields and "version"), 2 log (stream), 3 idem (hash: idempotency
--       key -> "<first> <last> <fingerprint>"), 4 creds (hash: the digests of the match's other
--       credentials); on one Redis also 5 dirty (set of the match ids whose projection is behind)
--       and 6 wake (the workers' wake flag), which a write then marks in the same run, then
--       7... the rate counters an append counts itself against (see below)
--       and, for an append that carries its projection, the match's carried and proj (hashes),
--       then, when it also publishes its steps, its feed partition's stream and seen (hash).
--       On a Redis Cluster the dirty marks (the match's shard of them, events/marks.py) and the
--       counters live in other slots: the client marks and counts them, and an append carries
--       no projection there.
-- ARGV: laid out as events/script_args.py declares it, which also writes the preamble this
--       script is loaded with: the tables CREATE and APPEND name the places of the fixed
--       arguments (op "create" or "append", match: the member KEYS[5] takes, wake_seconds: the
--       wake flag's lifetime; a create's numbers of header pairs and of credentials' pairs; an
--       append's expected version or "", idempotency key or "", fingerprint, the credential it
--       relies on (see below), and number of rate counters n).
--   create: then field, value, ... for each header pair, then field, digest, ... for each of
--           the credentials it starts with (KEYS[4]), then the events
--   append: then n pairs <limit>, <window seconds> for KEYS[7..6+n], then <1 when the append
--           carries its projection, 2 when its projection follows it (op carry, below), else
--           0>, then for 1 the read models' basis of its summary,
--           the projection's checkpoint, its position frozen and its summary (three "" when it is
--           staged in carried, below), the game's id ("" when it publishes nothing to the feed),
--           the number of steps m it publishes and m triples (step, type, event JSON) as the feed
--           holds them; then the events
-- The events: type, data, meta for each, in order. Entry ids are "<seq>-0".
-- The script is loaded with events/feed_steps.lua in front (the feed's publishing, shared with
-- projections/readmodels/feed.lua).
--
-- The credential an append relies on: unless ARGV[APPEND.credential] is "", the field of that
-- name in creds (KEYS[4]), or while creds has none the header's field ARGV[APPEND.fallback]
-- (when not ""), must equal ARGV[APPEND.digest], the digest of the writer's token; else the
-- token was reset or revoked since the writer checked it, and the append is refused before
-- anything else (nothing counted, nothing written).
--
-- A rate counter is a fixed window, as the `limits` library keeps one: each append adds one to
-- every counter it names (a new counter expires after its window) before anything else, and an
-- append that takes one past its limit writes nothing more.
--
-- An append that carries its projection names its fields, the ones a projection run writes
-- (projections/projecting/project.lua): checkpoint (the batch's last step), env (the position
-- there, frozen), summary and models (the basis). They come among its arguments, or, for a large
-- position (events/defaults.py CARRY_INLINE_BYTES: Redis copies every argument into Lua at a
-- cost that grows with its size), staged as the hash KEYS[7+n] (carried), sent beforehand in
-- one transaction (MULTI, EXEC) with this script. When the stored projection KEYS[8+n] (proj)
-- was caught up with the log (its checkpoint is the version this append follows) and its read
-- models hold what the summary says (field models equals the basis), the carried projection
-- moves in, in the same atomic run: proj is replaced by a hash of those four fields, or carried
-- is renamed to proj (what a projection of an earlier release held besides goes with the hash it
-- replaces). The append then publishes its steps to the global feed in the same run, by the
-- rule a projection pass publishes with (feed.lua): only when the partition's last step of the
-- match (seen, KEYS[10+n]) is the one the batch follows, so each step is published once, in the
-- match's order; and then the match is not marked, no pass has anything to do for it. When the
-- feed is behind (an earlier write whose steps no pass has published yet), or the append
-- publishes nothing (game ""), the match is marked, and a pass publishes the steps (it finds
-- nothing to fold). Otherwise, and for every refused append, the carried projection is dropped
-- (carried deleted), and a written batch marks the match as any other does, for the workers to
-- project.
--
-- An append with the carry flag 2 marks nothing: its writer sends the projection right behind it
-- on the same connection, with the reply skipped (op "carry": KEYS as an append that carries
-- one, with no rate counters; ARGV laid out as CARRY names, then the carry flag and what
-- follows it as above). That run moves the projection in by the same rule, but only when the
-- log's step CARRY.last is that append's own (its last event's meta, which holds the action's
-- id, is ARGV[CARRY.meta]): behind a refused append it changes nothing. Where it does not move
-- in, or its steps are not all published, it marks the match without raising the wake flag
-- (no one reads its reply to enqueue the pass a raised flag promises): a running pass or the
-- workers' sweep (events/defaults.py QUIET_SWEEP_EVERY) finds it. With the carry flag 0 it only
-- marks the match so (a writer that had no projection to send after all).
--
-- Replies (numbers only, so the client may decode responses or not):
--   {0, first, last, woke, moved} written; woke is 1 when this write raised the wake flag
--                          (KEYS[6]), else 0 (also when the client marks); moved is 1 when the
--                          projection it carried moved in (took the stored one's place), else 0
--   {1, first, last}      a retry: the steps the first request under this key wrote
--   {-1}                  no such match
--   {-2}                  the match already exists
--   {-3, actual}          the expected version differs from the actual one
--   {-4}                  the idempotency key was used for a different request
--   {-5, i}               over the limit of the i-th rate counter (counted, nothing appended)
--   {-6}                  the credential the append relies on is no longer the writer's
-- Every check comes before the first write, so a refused request writes nothing (but its count).

local meta, log, idem, creds, dirty, wake = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
-- The match id and the wake flag's lifetime have the same places in both layouts.
local match_id, wake_seconds = ARGV[APPEND.match], tonumber(ARGV[APPEND.wake_seconds])
-- An append's number of rate counters (set below, once the operation is known to be an append).
local counters = 0

-- The match's projection is behind now; the first write in a while wakes the workers.
local function mark()
  if not dirty then
    return 0
  end
  redis.call('SADD', dirty, match_id)
  if redis.call('SET', wake, 1, 'NX', 'EX', wake_seconds) then
    return 1
  end
  return 0
end

-- The steps ``version``+1..``last`` of an append that carries its projection (ARGV[at] is 1),
-- published to the feed when it has the match up to ``version`` (see the header); whether they
-- all were.
local function publish(at, version, last)
  local game = ARGV[at + 5]
  if game == '' then
    return false
  end
  local stream, seen = KEYS[9 + counters], KEYS[10 + counters]
  local fed, position = feed_where(seen, match_id)
  if fed ~= version then
    return false
  end
  local published, now
  position, published, now = feed_publish(stream, match_id, game, version, at + 7,
    tonumber(ARGV[at + 6]), position, feed_clock())
  if published > 0 then
    feed_note(seen, match_id, now, position)
  end
  return published == last - version
end

-- The projection an append carries (ARGV[at] is 1), moved into place when the projection was
-- at ``version`` and its read models say what it says, with its steps published to the feed;
-- else the match is marked (``marker``: mark, or for a projection that follows its append,
-- below, a mark that wakes no one). Returns woke (as ``marker`` does) and whether the projection
-- moved.
local function project(at, version, last, marker)
  if ARGV[at] == '0' then
    return mark(), 0
  end
  if ARGV[at] == '2' then
    -- Its projection follows on the same connection (carry, below), which marks the match when
    -- it cannot move in: nothing to mark yet.
    return 0, 0
  end
  local carried, proj = KEYS[7 + counters], KEYS[8 + counters]
  local basis, checkpoint = ARGV[at + 1], ARGV[at + 2]
  local stored = redis.call('HMGET', proj, 'checkpoint', 'models')
  if stored[1] ~= tostring(version) or stored[2] ~= basis then
    return marker(), 0
  end
  if checkpoint ~= '' then
    redis.call('DEL', proj)
    redis.call('HSET', proj, 'checkpoint', checkpoint, 'env', ARGV[at + 3], 'summary', ARGV[at + 4],
      'models', basis)
  else
    local moved = redis.pcall('RENAME', carried, proj)
    if type(moved) ~= 'table' or not moved['ok'] then
      return marker(), 0
    end
  end
  if publish(at, version, last) then
    -- Projected and published: nothing is left for a pass.
    return 0, 1
  end
  -- The feed is behind: the next pass publishes (it finds nothing to fold).
  return marker(), 1
end

-- Where an append's events start: after the carry flag, and for 1 after the projection's
-- fields and the feed's part.
local function events_at(at)
  if ARGV[at] ~= '1' then
    return at + 1
  end
  return at + 7 + 3 * tonumber(ARGV[at + 6])
end

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
  local pairs_end = CREATE.credentials + 2 * tonumber(ARGV[CREATE.pairs])
  for i = CREATE.credentials + 1, pairs_end, 2 do
    redis.call('HSET', meta, ARGV[i], ARGV[i + 1])
  end
  local creds_end = pairs_end + 2 * tonumber(ARGV[CREATE.credentials])
  for i = pairs_end + 1, creds_end, 2 do
    redis.call('HSET', creds, ARGV[i], ARGV[i + 1])
  end
  local last = add_events(creds_end + 1, 0)
  redis.call('HSET', meta, 'version', last)
  return {0, 1, last, mark()}
end

-- The append's rate counters (see the header); 0, or the first one it takes past its limit.
local function count()
  local over = 0
  for i = 1, counters do
    local now = redis.call('INCR', KEYS[6 + i])
    if now == 1 then
      redis.call('EXPIRE', KEYS[6 + i], ARGV[APPEND.counters + 2 * i])
    end
    if now > tonumber(ARGV[APPEND.counters + 2 * i - 1]) and over == 0 then
      over = i
    end
  end
  return over
end

-- The match's version (nil for no such match) and, when the append relies on a credential that
-- may fall back to a header field (see the header), that field: the header read once.
local function held()
  local fallback = ARGV[APPEND.fallback]
  if ARGV[APPEND.credential] ~= '' and fallback ~= '' then
    local got = redis.call('HMGET', meta, 'version', fallback)
    return got[1], got[2]
  end
  return redis.call('HGET', meta, 'version'), false
end

-- Whether the credential the append relies on still holds the writer's digest (see the header);
-- ``fallback`` is the header's field of that name (``held``).
local function current(fallback)
  local field = ARGV[APPEND.credential]
  if field == '' then
    return true
  end
  local stored = redis.call('HGET', creds, field)
  if not stored then
    stored = fallback
  end
  return stored == ARGV[APPEND.digest]
end

local function append(at)
  local version, fallback = held()
  if not current(fallback) then
    if not version then
      return {-1}
    end
    return {-6}
  end
  local over = count()
  if over > 0 then
    return {-5, over}
  end
  if not version then
    return {-1}
  end
  version = tonumber(version)
  local key, fingerprint = ARGV[APPEND.key], ARGV[APPEND.fingerprint]
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
  local expected = ARGV[APPEND.expected]
  if expected ~= '' and tonumber(expected) ~= version then
    return {-3, version}
  end
  local last = add_events(events_at(at), version)
  if last > version then
    redis.call('HINCRBY', meta, 'version', last - version)
  end
  if key ~= '' then
    redis.call('HSET', idem, key, string.format('%d %d %s', version + 1, last, fingerprint))
  end
  local woke, moved = project(at, version, last, mark)
  return {0, version + 1, last, woke, moved}
end

-- A mark that wakes no one: what a projection that follows its append (carry, below) leaves
-- for the workers, whose pass or sweep finds it (nothing reads that projection's reply, so no
-- writer would enqueue the pass a raised wake flag promises).
local function mark_quietly()
  redis.call('SADD', dirty, match_id)
  return 0
end

-- The projection of an append whose carry flag was 2, sent right behind it on the same
-- connection (op "carry", laid out as CARRY names, then what follows the carry flag in an
-- append) with its reply skipped: it moves in as an append's own would (project), once the
-- log's step ``last`` is that append's (its last event's meta, which holds the action's id, is
-- the one given); when it does not, or its steps are not all published, the match is marked
-- (quietly). With the carry flag 0 it only marks the match (a writer that had no projection to
-- send after all). Nothing happens when the step is not that append's (the append was
-- refused, or is being sent again). Replies {moved} (1 or 0) or {-1} for such a step, for
-- whoever reads it.
local function carry()
  local version, last = tonumber(ARGV[CARRY.version]), tonumber(ARGV[CARRY.last])
  local entry = redis.call('XRANGE', log, last .. '-0', last .. '-0')[1]
  if not entry or entry[2][6] ~= ARGV[CARRY.meta] then
    return {-1}
  end
  if ARGV[CARRY.meta + 1] == '0' then
    return {mark_quietly()}
  end
  local _, moved = project(CARRY.meta + 1, version, last, mark_quietly)
  return {moved}
end

if ARGV[CREATE.op] == 'create' then
  return create()
end
if ARGV[CREATE.op] == 'carry' then
  return carry()
end
counters = tonumber(ARGV[APPEND.counters])
-- The carry flag follows the counters' pairs.
local at = APPEND.counters + 1 + 2 * counters
local reply = append(at)
if ARGV[at] ~= '0' and (reply[1] ~= 0 or reply[5] == 0) and ARGV[at + 2] == '' then
  -- A staged projection that did not move in is nobody's.
  redis.call('DEL', KEYS[7 + counters])
end
return reply
