"""A projection pass: every dirty match a worker can take, projected together, for a few seconds.

Writers mark a match dirty in the round trip of their append, and the writer that raised the wake
flag enqueues one pass. While a pass runs it holds the flag up (so writes enqueue no more passes)
and reads the dirty set every PASS_TICK, projecting what it finds in one batch: under load a batch
holds every match written to since the last, and a job's cost is paid once per pass, not once per
write. When the budget is spent, or nothing was dirty for PASS_IDLE seconds, it lowers the flag and
only then reads the dirty set once more: a write it does not see raises the flag again and
enqueues the next pass, so no mark is left without a pass to find it. Each worker leases the
matches it takes (a key in the match's own slot, that expires), so two workers at once project
different matches instead of folding the same ones. On a Redis Cluster the dirty set and the
flag are split into shards (events/marks.py): a pass reads, holds and lowers every shard, and the
flag a write raises is its own shard's.
"""

from __future__ import annotations

import time
import uuid

from events.defaults import LEASE_MS, PASS_BATCH, PASS_IDLE, PASS_TICK
from events.keys import Keys
from projections.projecting.projector import Lease, Projector


def drain(projector: Projector, keys: Keys, budget: float = 5.0, idle: float = PASS_IDLE) -> int:
    """Project dirty matches, batch after batch, until none came for ``idle`` seconds or ``budget``
    seconds passed; then, lowering the wake flag before each read, until nothing is left to take."""
    deadline = time.monotonic() + budget
    lease = Lease(uuid.uuid4().hex, LEASE_MS)
    projected = 0
    quiet_since = time.monotonic()
    while True:
        began = time.monotonic()
        if began >= deadline or began - quiet_since >= idle:
            break
        ids = dirty_batch(projector, keys, hold=True)
        # The projector leases them in the round trip that reads them, and gives them back after.
        done = projector.project_many(ids, lease) if ids else []
        projected += len(done)
        if done:
            quiet_since = time.monotonic()
        if len(ids) < PASS_BATCH:
            time.sleep(max(0.0, PASS_TICK - (time.monotonic() - began)))
    while True:
        ids = dirty_batch(projector, keys, hold=False)
        done = projector.project_many(ids, lease) if ids else []
        projected += len(done)
        if not done or time.monotonic() >= deadline:
            return projected


def dirty_batch(projector: Projector, keys: Keys, hold: bool = False) -> list[str]:
    """Up to PASS_BATCH dirty matches, read after raising the wake flags again (``hold``) or
    lowering them: one round trip (one per master on a cluster, every shard of the marks read)."""
    return projector.marks.take(PASS_BATCH, hold)
