"""RQ jobs: module-level functions with plain arguments, enqueued by name.

A job finds the matches on the store its worker process was started with (``use_store``): the
queue may live on a Redis of its own (RQ_REDIS_URL, always so on a Redis Cluster). A process that
named no store, such as a test's in-process worker, projects on the queue's own Redis.
"""

from __future__ import annotations

import os
import time
from typing import Any

import redis
from rq import get_current_job

from events.keys import Keys
from projections.assembly import assemble

# A job projects again while writes keep coming, at most this many times; the sweep does the rest.
ROUNDS = 100
# The worker process's client of the store, set once at its start (never at import).
_STORE: dict[str, redis.Redis] = {}


def use_store(client: redis.Redis | None) -> None:
    """Make this process's jobs read and write the matches through ``client`` (None: RQ's Redis)."""
    _STORE.clear()
    if client is not None:
        _STORE["client"] = client


def project_match(match_id: str, prefix: str, snapshot_every: int) -> dict[str, Any]:
    """Bring one match's projection up to its log (idempotent; safe to run twice or at once)."""
    job = get_current_job()
    assert job is not None, "project_match runs inside an RQ job"
    delay = float(os.environ.get("TABLETAPE_SLOW_PROJECTION", "0") or 0)
    if delay:
        # Fault-injection aid: makes a projection slow enough to kill a worker in the middle.
        time.sleep(delay)
    client = _STORE.get("client", job.connection)
    projector = assemble(client, Keys(prefix), snapshot_every).projector
    folded = 0
    for _ in range(ROUNDS):
        done = projector.project(match_id)
        folded += done.folded
        # Writes that found the match still dirty enqueued no job of their own: catch them up.
        if done.caught_up:
            break
    return {"match_id": match_id, "checkpoint": done.checkpoint, "folded": folded}
