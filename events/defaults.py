"""Every tuning value of tabletape in one place: timeouts, batch sizes, lease lengths, cache sizes.

Why here: every layer that has tuning values may import ``events`` (projections, workers and the
service build on it), and ``events`` itself imports nothing of ours, so a module here is one all
of them can read without an import pointing upward. ``games/`` has no tuning values: the rules
are pure and take none. What an operator sets per deployment (the Redis URL, the body limit, the
rates, the snapshot interval) is read from the environment by ``service.config``; these are the
values a maintainer tunes with the benchmarks (bench/), not a deployment.

A module uses a value by its name here, so a test may still set it on that module.
"""

from __future__ import annotations

# -- the event store (events/) -------------------------------------------------------------------

# The wake flag outlives a lost enqueue by this long; the workers' sweep covers that gap.
WAKE_SECONDS = 5
# How many matches' headers a process remembers (a header never changes once written).
HEADERS_KEPT = 4096
# How many connections a process keeps for its next appends (``events/one_send.py``).
CONNECTIONS_KEPT = 8
# A carried projection whose frozen position is larger than this goes to Redis as a hash staged
# beside the script in one transaction, not among the script's arguments: Redis copies each
# argument into Lua at a cost that grows with its size, which past about this many bytes outweighs
# the transaction's own (``events.store.EventStore.append``; docs/design.md).
CARRY_INLINE_BYTES = 8 * 1024
# How many times a group of commands is sent again to the servers of a cluster whose slots moved
# or whose connection was lost (``events.servers.on_servers``).
SEND_ATTEMPTS = 3

# -- positions and projections (projections/) ----------------------------------------------------

# What a Tape keeps while it folds: the ends of its last TAPE_WINDOW batches, and one batch end
# every TAPE_EVERY steps (``projections.positions.tape.Tape``).
TAPE_WINDOW = 32
TAPE_EVERY = 64
# How many matches a process remembers positions of (``Positions``).
MATCHES_REMEMBERED = 256
# How many batch ends a process remembers per match: the positions an undo or redo lands on.
BATCH_ENDS_KEPT = 24
# A remembered position this close to the step needed is folded from without asking Redis.
NEAR_ENOUGH = 32
# A snapshot every this many steps, unless TABLETAPE_SNAPSHOT_EVERY says otherwise.
SNAPSHOT_EVERY = 100
# Events read per match and round trip; a longer tail is read on in further round trips.
TAIL_READ = 1000
# Positions a projector holds between runs (the least recently projected matches go first).
POSITIONS_HELD = 1024
# Matches per script call on one Redis: a call runs without a break, so a write waits for a
# call at most this many matches' work.
CALL_MATCHES = 50
# Seconds a projection job may run before RQ gives up on it.
JOB_TIMEOUT = 300
# Index members read per command when the match list intersects its indexes.
INDEX_PAGE = 1000
# How far in the future an imported file's dates may be, for clocks that disagree (milliseconds).
CLOCK_SLACK_MS = 5 * 60 * 1000

# -- the live feed (projections/live/) -----------------------------------------------------------

# How long one blocking XREAD of the hub waits before it reads again (milliseconds).
LIVE_BLOCK_MS = 30_000
# Entries one XREAD of the hub takes per stream.
LIVE_XREAD_COUNT = 500
# Seconds between keep-alive comments to a spectator when nothing happens.
LIVE_KEEPALIVE_SECONDS = 15.0
# Seconds a hub's wake stream outlives its last wake (an API process that died leaves none).
LIVE_WAKE_TTL_SECONDS = 3600

# -- the global feed and webhooks (projections/readmodels/feed.py, projections/hooks/) -----------

# Entries a filtered feed page may read per event asked for, and at most: a page whose filter
# skips many ends early, at the position of the last entry read.
FEED_SCAN_FACTOR = 10
FEED_MAX_SCAN = 5000
# How often a live feed stream with nothing new looks again, and says it is alive (SSE).
FEED_POLL_SECONDS = 0.25
FEED_KEEPALIVE_SECONDS = 10.0
# A webhook delivery's retries wait these many seconds (one retry each); then it is given up.
HOOK_BACKOFF = (1, 2, 4, 8, 16, 32)
# Failed attempts in a row that pause a hook; how long a receiver has to answer.
HOOK_PAUSE_AFTER = 10
HOOK_TIMEOUT_SECONDS = 5.0
# Feed events a dispatch reads per hook and pass; delivery log entries kept per hook.
HOOK_DISPATCH_PAGE = 500
HOOK_LOG_KEPT = 200

# -- the workers (workers/) ----------------------------------------------------------------------

# Dirty matches a pass takes at once.
PASS_BATCH = 200
# Long enough for one batch of a pass; short, because a pass cut off with Redis (a crash, a
# restart from AOF) leaves its leases behind, and those matches wait for them to expire. An
# expired lease costs nothing but a fold done twice: the projection's compare-and-set decides.
LEASE_MS = 8_000
# How often a pass reads the dirty set: what a write may wait for its projection, at most, beyond
# the projecting itself; and how long a pass waits for more writes once none came.
PASS_TICK = 0.02
PASS_IDLE = 0.25
# The longest a worker waits between two tries to reach a Redis that went away (seconds).
MAX_RECONNECT_WAIT = 4.0
# How often a worker enqueues a pass while matches are dirty and no job waits (seconds).
SWEEP_EVERY = 2.0
# How often it looks on one Redis, where a match may be marked without a wake-up (a projection
# that followed its append and did not move in, events/append.lua): what such a match waits for
# at most when no pass runs (one SCARD and one LLEN a look).
QUIET_SWEEP_EVERY = 0.25
# The full sweep finds a log whose writer died between its append and its dirty mark.
FULL_SWEEP_EVERY = 30.0

# -- the API (service/) --------------------------------------------------------------------------

# Connections to Redis per API process, shared by all its requests.
MAX_CONNECTIONS = 64
# How many times a write is decided again after losing a race before it answers Busy.
WRITE_ATTEMPTS = 8
# How many (match, write token) pairs a process remembers the writer of (each append still checks
# in its own run that the token's credential is current), and how many matches it pauses carrying.
TOKENS_KEPT = 4096
# Seconds a process carries no projection for a match whose projection its last write found
# behind (the workers bring it up meanwhile; a write that carries one in vain costs more).
CARRY_PAUSE = 0.05
# How many callers a process remembers: over their rate, or the names of their counters.
CALLERS_KEPT = 4096
# A body must have arrived this long after its headers: a client trickling it in holds a
# connection (a greenlet under service.run.gunicorn_worker), never longer than this.
BODY_SECONDS = 15.0
# A connection idle this long (nothing to read, or a reader that takes nothing) is closed.
CLIENT_IDLE_SECONDS = 30.0
# Checking a long log is one long read; a command may wait longer for Redis than a request.
MAINTENANCE_REDIS_TIMEOUT = 30.0
# Matches the bulk export reads per page of the match list.
EXPORT_PAGE = 500
